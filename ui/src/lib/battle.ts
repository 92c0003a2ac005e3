// A battle's screens in words: unit summaries, quick edits, gauges, verdicts, alerts, undo labels,
// effect targets, dice fields. Pure, so it is unit-tested; the components only lay it out.
import type { BattleView, Effect, Gauge, LogEntry, Resolution, UnitForm, UnitSpec, UnitState } from '../generated/api';
import { resultName, sentence } from './words';

/** "2d6" → two dice of 6; "d10 v d10" → two of 10; unknown forms (per unit) → null. */
export function diceFields(dice: string): number[] | null {
  if (!dice) return [];
  const sides: number[] = [];
  for (const part of dice.split(/ v | then /)) {
    const m = /^(\d*)d(\d+)$/.exec(part.trim());
    if (!m) return null;
    const count = m[1] ? Number(m[1]) : 1;
    for (let i = 0; i < count; i++) sides.push(Number(m[2]));
  }
  return sides;
}

export type QuickEdit = { label: string; change: Record<string, unknown> };

/** The quick edits an umpire makes on a unit in each system. */
export function quickEdits(system: string, unit: UnitState): QuickEdit[] {
  if (unit.lost) return [];
  const q = (label: string, change: Record<string, unknown>): QuickEdit => ({ label, change });
  switch (system) {
    case 'itacs':
      return [
        q('+D', { kind: 'd_markers', count: 1 }),
        q('−D', { kind: 'remove_d_markers', count: 1 }),
        q('−1 unit', { kind: 'lose_units', count: 1, chosen_by: 'defender' }),
        unit.broken ? q('Unbreak', { kind: 'remove_break' }) : q('Break', { kind: 'break' }),
      ];
    case 'medieval':
      return [q('−1 SP', { kind: 'lose_sp', count: 1, chosen_by: 'defender' }), q('CF −1', { kind: 'reduce_charge_factor', by: 1 }), q('Scatter', { kind: 'scatter' })];
    case 'gts':
      return [q('+1 hit', { kind: 'hits', count: 1 }), q('Disorder', { kind: 'disorder' }), q('Rout', { kind: 'rout_unit' }), q('Remove', { kind: 'destroy_all' })];
    case 'dbmm':
      return [
        q('Destroyed', { kind: 'element_fate', fate: 'destroyed' }),
        q('Spent', { kind: 'element_fate', fate: 'spent' }),
        q('Off table', { kind: 'element_fate', fate: 'off_table' }),
      ];
    default:
      return [];
  }
}

const stat = (u: UnitState | UnitSpec, key: string): unknown => ((u.stats ?? {}) as Record<string, unknown>)[key];

/** The unit's type in words: the full names its ruleset gives its chosen values ("Spear-armed
 * drilled foot (SD)"; a GTS unit's class, weapon and armour). */
export function typeName(u: UnitState | UnitSpec, form?: UnitForm): string {
  const stats = (u.stats ?? {}) as Record<string, unknown>;
  const named = (key: string) => {
    const value = stats[key];
    if (value === undefined || value === null || value === '') return undefined;
    const option = form?.fields.find((f) => f.key === key)?.options.find((o) => o.key === String(value));
    return option?.label ?? String(value);
  };
  if (u.role === 'leader') return 'Leader';
  if (typeof stats.class === 'string' && typeof stats.weapon === 'string') {
    return [named('class'), named('weapon'), named('armour')].filter(Boolean).join(', ');
  }
  const type = named('type');
  if (type) return typeof stats.grade === 'string' ? `${stats.irr ? 'Irr ' : ''}${type}, ${named('grade')}` : type;
  return '';
}

/** The unit's state in a few words: strength now of then, markers, how it left the table. */
export function summary(u: UnitState): string {
  const state = stat(u, 'state');
  // A DBMM element: whole or gone, and how.
  if (typeof stat(u, 'grade') === 'string') {
    const parts: string[] = [];
    if (stat(u, 'general')) parts.push('general');
    parts.push(u.lost ? (typeof state === 'string' ? state.replace('_', ' ') : 'lost') : 'in the line');
    return parts.join(', ');
  }
  const parts = [`${u.strength}/${u.starting}`];
  if (u.lost) parts.push('lost');
  if (u.d_markers) parts.push(`${u.d_markers} D`);
  if (u.broken) parts.push('Break');
  if (u.rout) parts.push('Rout');
  if (u.scattered) parts.push('scattered');
  if (u.disordered) parts.push('Disordered');
  if (u.hits) parts.push(`${u.hits} ${u.hits === 1 ? 'hit' : 'hits'}`);
  const cf = stat(u, 'cf');
  if (typeof cf === 'number') parts.push(`CF ${cf}`);
  if (u.leader) parts.push(LEADER_WORDS[u.leader]);
  if (u.leader_wounds) parts.push(u.leader_wounds === 1 ? 'leader wounded' : `leader wounded ${u.leader_wounds} times`);
  if (u.near_fallen_leader) parts.push('−1 for the fallen leader');
  return parts.join(', ');
}

/** A leader's fate in words (GTS Table 1.10, R-GTS-25): what the roster shows. */
const LEADER_WORDS: Record<NonNullable<UnitState['leader']>, string> = {
  captured: 'captured',
  killed: 'killed',
  dazed: 'leader dazed',
  unhorsed: 'leader unhorsed',
  seriously_wounded: 'leader seriously wounded',
  passed_out: 'leader passed out',
};

export function matches(unit: UnitState, filter: string, form?: UnitForm): boolean {
  if (!filter) return true;
  const f = filter.toLowerCase();
  return [unit.label, unit.side, unit.command ?? '', typeName(unit, form), JSON.stringify(unit.stats)].some((x) => x.toLowerCase().includes(f));
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

/** The effect targets of an outcome that need roster units (army effects land on sides). */
export function targetKeys(effects: Effect[]): string[] {
  const keys = effects.map((e) => targetKey(e.target)).filter((k) => !k.startsWith('army:'));
  return [...new Set(keys)];
}

export function targetKey(t: Effect['target']): string {
  if (t === 'attacker' || t === 'defender') return t;
  if ('hex' in t) return `hex:${t.hex}`;
  if ('unit' in t) return `unit:${t.unit}`;
  return `army:${t.army}`;
}

/** A target in words: "The attacker", "Hex 17.03", "Kn (O)". */
export function targetName(key: string): string {
  if (key === 'attacker') return 'The attacker';
  if (key === 'defender') return 'The defender';
  if (key.startsWith('hex:')) return `Hex ${key.slice(4)}`;
  if (key.startsWith('unit:')) return key.slice(5);
  return key.replace(/^army:/, '');
}

/** The effects a resolution may apply: its outcome's, or before the dice every result's. */
export function possibleEffects(r: Resolution): Effect[] {
  return r.outcome ? r.outcome.effects : r.distribution.flatMap((d) => d.effects);
}

/** What flipping a toggle does to the odds: the change in the dice modifier, or else the largest
 * change in any result's probability, in percentage points. */
export function worth(base: Resolution, flipped: Resolution): string {
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
  return `${resultName(which)} ${most > 0 ? '+' : '−'}${Math.abs(most * 100).toFixed(1)} pts`;
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
}

/** What a change of the battle just did to its break points: a gauge that reached its threshold
 * or changed its standing (a command disheartened or broken), an army that panicked, a verdict
 * that changed. */
export function alerts(before: BattleView | undefined, after: BattleView): Alert[] {
  if (!before || before.id !== after.id) return [];
  const out: Alert[] = [];
  const key = (g: Gauge) => `${g.side ?? ''}\u0000${g.label}`;
  const was = new Map(before.standing.gauges.map((g) => [key(g), g]));
  for (const g of after.standing.gauges) {
    const old = was.get(key(g));
    const changed = g.status && old?.status && g.status !== old.status;
    if ((g.reached && old && !old.reached) || changed) out.push({ text: `${g.side ? `${g.side}: ` : ''}${gaugeText(g)}`, rule: g.rule, ruling: g.ruling ?? undefined });
  }
  for (const side of after.state.sides) {
    const old = before.state.sides.find((s) => s.name === side.name);
    if (side.panicked && old && !old.panicked) out.push({ text: `${side.name} panic.`, rule: '5.4' });
  }
  const then = new Set(verdicts(before).map((v) => v.text));
  for (const v of verdicts(after)) if (!then.has(v.text) && then.size > 0) out.push(v);
  return out;
}

/** What undo would take back, in words: "Undo: melee DX on 17.03". */
export function undoLabel(view: BattleView): string {
  const entry = view.log.find((e: LogEntry) => e.seq === view.undo);
  return entry ? `Undo: ${entry.text}` : 'Undo';
}

export function redoLabel(view: BattleView): string {
  const entry = view.log.find((e: LogEntry) => e.seq === view.redo);
  return entry ? `Redo: ${entry.text}` : 'Redo';
}
