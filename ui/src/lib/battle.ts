// A battle's screens in words: gauges, verdicts, alerts, undo labels, effect targets, the worth
// of a box. The rules' words for a unit (its type, state and quick edits) and for a result come
// from the core. Pure, so it is unit-tested; the components only lay it out.
import type { BattleView, Effect, Gauge, LogEntry, Resolution, UnitState } from '../generated/api';
import { sentence } from './words';

import { targetWords } from './words';

export { targetWords } from './words';

/** A unit the roster's filter finds: by label, side, command, type or state, in words. */
export function matches(unit: UnitState, filter: string): boolean {
  if (!filter) return true;
  const f = filter.toLowerCase();
  return [unit.label, unit.side, unit.command ?? '', unit.type_name, unit.summary].some((x) => x.toLowerCase().includes(f));
}

/** Labels for a quantity of one type: "SD" alone, or "SD 1" … "SD 6". */
export function labelsFor(base: string, count: number): string[] {
  const b = base.trim();
  if (count <= 1) return [b];
  return Array.from({ length: count }, (_, i) => `${b} ${i + 1}`);
}

/** A label for a copy of a unit that no unit has yet: "SD 3" → "SD 7" after SD 1…6. */
export function copyLabel(label: string, taken: string[]): string {
  const m = /^(.*?)(\s*)(\d+)$/.exec(label);
  const used = new Set(taken);
  // "17.03" → "17.04": a number keeps its separator and its leading zeros.
  const make = (n: number) => (m ? `${m[1]}${m[2]}${String(n).padStart(m[3].length, '0')}` : `${label} ${n}`);
  let n = m ? Number(m[3]) + 1 : 2;
  while (used.has(make(n))) n++;
  return make(n);
}

/** A fight's targets as the mapping its result is applied with: each target's roster units. */
export function mappingOf(targets: Record<string, number[] | undefined>): Record<string, number[]> {
  return Object.fromEntries(Object.entries(targets).map(([k, ids]) => [k, ids ?? []]));
}

/** The effect targets of an outcome that need roster units (army effects land on sides; a
 * leader's command, side and enemy follow from the leader picked). */
export function targetKeys(effects: Effect[]): string[] {
  return Object.keys(targetNames(effects));
}

/** Those targets by key, each in words (from the typed target, not its key). */
export function targetNames(effects: Effect[]): Record<string, string> {
  const names: Record<string, string> = {};
  for (const { target: t } of effects) {
    if (t === 'attacker' || t === 'defender' || (typeof t === 'object' && ('hex' in t || 'unit' in t))) names[targetKey(t)] ??= targetWords(t);
  }
  return names;
}

/** Each target's field in an apply's request ("targets.unit:Kn 1") by its words, for an error
 * about one of them. */
export function targetFieldLabels(effects: Effect[]): Record<string, string> {
  return Object.fromEntries(Object.entries(targetNames(effects)).map(([key, words]) => [`targets.${key}`, words]));
}

export function targetKey(t: Effect['target']): string {
  if (t === 'attacker' || t === 'defender' || t === 'battle') return t;
  if ('hex' in t) return `hex:${t.hex}`;
  if ('unit' in t) return `unit:${t.unit}`;
  if ('command' in t) return `command:${t.command}`;
  if ('side_of' in t) return `side_of:${t.side_of}`;
  if ('enemy_of' in t) return `enemy_of:${t.enemy_of}`;
  if ('within' in t) return `within_${t.within.inches}:${t.within.of}`;
  return `army:${t.army}`;
}

/** The effects a resolution may apply: its outcome's, or before the dice every result's. */
export function possibleEffects(r: Resolution): Effect[] {
  return r.outcome ? r.outcome.effects : r.distribution.flatMap((d) => d.effects);
}

/** The odds enough to say what a box is worth: a resolution, or a box turned over (`Flipped`). */
export type Odds = Pick<Resolution, 'total_modifier' | 'names'> & { distribution: { result: string; p: number }[] };

/** What flipping a toggle does to the odds: the change in the dice modifier, or else the largest
 * change in any result's probability, in percentage points. */
export function worth(base: Odds, flipped: Odds): string {
  const drm = flipped.total_modifier - base.total_modifier;
  if (drm !== 0) return `${drm > 0 ? '+' : '−'}${Math.abs(drm)} on the dice`;
  const p = new Map(base.distribution.map((d) => [d.result, d.p]));
  let most = 0;
  let which = '';
  for (const d of flipped.distribution) {
    const change = d.p - (p.get(d.result) ?? 0);
    if (Math.abs(change) > Math.abs(most)) {
      most = change;
      which = d.result;
    }
  }
  if (Math.abs(most) < 0.0005) return '';
  return `${flipped.names[which] ?? which} ${most > 0 ? '+' : '−'}${Math.abs(most * 100).toFixed(1)} pts`;
}

/** What a box or chip is worth, with the sign of what it gives: on, what it gives now ("on: +2 on
 * the dice" — never what turning it off would take away); off, what it would give ("if on: +2 on
 * the dice"). `base` is the resolution as the box stands, `flipped` with it flipped. */
export function boxWorth(base: Odds, flipped: Odds, on: boolean): string {
  const gives = on ? worth(flipped, base) : worth(base, flipped);
  return gives ? `${on ? 'on' : 'if on'}: ${gives}` : '';
}

/** "How far to go" as words: the core's phrase ("½ ME to shattered"), a bare figure with
 * "to go", or "reached". */
function toGo(g: Gauge): string | undefined {
  if (g.reached) return 'reached';
  if (g.to_go === undefined || g.to_go === null || g.to_go === '') return undefined;
  return /\sto\s+\S/.test(g.to_go) ? g.to_go : `${g.to_go} to go`;
}

/** A gauge in one line: "Housecarls — broken · lost 2 of 6 ME · ½ ME to shattered". */
export function gaugeText(g: Gauge): string {
  const head = g.status ? `${g.label} — ${g.status}` : g.label;
  return [head, g.value, toGo(g)].filter((x) => x !== undefined && x !== '').join(' · ');
}

/** The standing's verdicts as sentences, each with its rule. */
export function verdicts(view: BattleView): { text: string; rule: string; ruling?: string }[] {
  return view.standing.resolutions
    .filter((r) => r.outcome)
    .map((r) => ({ text: sentence(r.outcome!.meaning || r.outcome!.result), rule: r.outcome!.effects[0]?.rule ?? r.totals[0]?.rule ?? '', ruling: r.outcome!.effects[0]?.ruling ?? undefined }));
}

export interface Alert {
  text: string;
  rule: string;
  ruling?: string;
  /** The gauge reached, when it offers what the rules make of it (a panic, one tap). */
  gauge?: Gauge;
  /** What it means for the side: a threshold crossed towards breaking (worse), or crossed back by
   * an undo (eased). */
  tone: 'worse' | 'eased';
}

/** Which way a gauge moved across its threshold, if it crossed one: reached, or a standing it did
 * not have (a command disheartened, an army panicked) is worse; no longer reached, or its figure
 * back down with another standing (an undo), is eased. */
function crossing(old: Gauge, now: Gauge): Alert['tone'] | undefined {
  if (now.reached !== old.reached) return now.reached ? 'worse' : 'eased';
  if (!now.status || now.status === old.status) return undefined;
  if (!old.status) return 'worse';
  return (now.amount ?? 0) < (old.amount ?? 0) ? 'eased' : 'worse';
}

/** What the last change did to the break points: a banner only for a threshold it crossed, each
 * with which way. A verdict is no alert ("Romans win a decisive victory" after one kill in turn 1,
 * "Greeks' army holds"): it judges the battle as it stands, on the dashboard. The core words each
 * gauge; nothing here knows a system. */
export function alerts(before: BattleView | undefined, after: BattleView): Alert[] {
  if (!before || before.id !== after.id) return [];
  const out: Alert[] = [];
  const key = (g: Gauge) => `${g.side ?? ''}\u0000${g.label}`;
  const was = new Map(before.standing.gauges.map((g) => [key(g), g]));
  for (const g of after.standing.gauges) {
    const old = was.get(key(g));
    const tone = old && crossing(old, g);
    if (tone) out.push({ text: `${g.side ? `${g.side}: ` : ''}${gaugeText(g)}`, rule: g.rule, ruling: g.ruling ?? undefined, tone, ...(g.offer ? { gauge: g } : {}) });
  }
  return out;
}

/** The banner's colour: a side breaking is bad news; a threshold crossed back is not. */
export const bannerTone = (said: Alert[]): Alert['tone'] => (said.some((a) => a.tone === 'worse') ? 'worse' : 'eased');

/** What undo would take back, in words: "Undo: melee DX on 17.03". A change of an earlier turn
 * says its turn: undo never takes back the turn itself ("Undo (turn 1): Recovery …"). */
export function undoLabel(view: BattleView, turnWord = 'turn'): string {
  const entry = view.log.find((e: LogEntry) => e.seq === view.undo);
  if (!entry) return 'Undo';
  return entry.turn < view.state.turn ? `Undo (${turnWord} ${entry.turn}): ${entry.text}` : `Undo: ${entry.text}`;
}

/** The table's code of the result undo would take back ("-1/D2"), shown as a small tag beside
 * its words; none when that result has no code apart. */
export function undoTag(view: BattleView): string | undefined {
  return view.log.find((e: LogEntry) => e.seq === view.undo)?.tag ?? undefined;
}

export function redoLabel(view: BattleView): string {
  const entry = view.log.find((e: LogEntry) => e.seq === view.redo);
  return entry ? `Redo: ${entry.text}` : 'Redo';
}
