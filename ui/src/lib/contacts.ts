// The contacts of a fight picked from the roster besides its two front units (DBMM p. 35–38):
// overlaps are the further units picked on a side, friends behind and friends on the enemy's flank
// are sent beside them, and whose bound it is is remembered for the rest of that bound. The system
// says which contacts an action takes and in what words; this module only places the picks. Pure.
import type { ActionInfo, ContactInfo, ContactKind, FightPart, FightRequest, Modifier, Note, Resolution, UnitState } from '../generated/api';
import type { Picks } from './pick';

type Units = Record<number, UnitState | undefined>;

/** One line of the contacts panel: a kind of contact for one side's front element. */
export interface ContactRow {
  kind: ContactKind;
  part: FightPart;
  /** "On Soldurii’s flank", in the rules' words with the fighters' labels. */
  label: string;
  /** What it counts for on both elements. */
  counts: string;
  rule: string;
  ruling?: string;
  /** The side its friends are of. */
  side: string;
  picked: UnitState[];
  /** The side's elements that can still be picked for it, in roster order. */
  candidates: UnitState[];
  /** Whether another may be picked (at most `at_most` for each front element). */
  room: boolean;
}

/** The contacts an action takes (none for a system whose picks are all it fights with). */
export function contactsOf(action: ActionInfo | undefined): ContactInfo[] {
  return action?.contacts ?? [];
}

/** The two units fighting in front: the first picked on each side. */
export function front(p: Picks): Picks {
  return { attackers: p.attackers.slice(0, 1), defenders: p.defenders.slice(0, 1) };
}

/** Every unit in the fight, front units, overlaps and contacts alike. */
export function everyone(p: Picks): number[] {
  return [...p.attackers, ...p.defenders, ...(p.behind ?? []), ...(p.on_enemy_flank ?? [])];
}

/** The units picked as `kind` for `part`'s front element. */
export function pickedFor(p: Picks, kind: ContactKind, part: FightPart, units: Units): number[] {
  const side = units[p[part][0]]?.side;
  if (kind === 'overlap') return p[part].slice(1);
  return (p[kind as Exclude<ContactKind, 'overlap'>] ?? []).filter((id) => units[id]?.side === side);
}

/** "{front}" and "{enemy}" filled in with the front units' labels. */
export function filled(words: string, own: string, enemy: string): string {
  return words.replaceAll('{front}', own).replaceAll('{enemy}', enemy);
}

/** The contacts panel's lines: each contact the action takes, for each part it is picked for
 * (the attackers' first), once both front units are picked. */
export function contactRows(action: ActionInfo | undefined, p: Picks, units: Units): ContactRow[] {
  const fronts = { attackers: units[p.attackers[0]], defenders: units[p.defenders[0]] };
  if (!fronts.attackers || !fronts.defenders) return [];
  const taken = new Set(everyone(p));
  const rows: ContactRow[] = [];
  for (const part of ['attackers', 'defenders'] as const) {
    const own = fronts[part]!;
    const enemy = fronts[part === 'attackers' ? 'defenders' : 'attackers']!;
    for (const c of contactsOf(action).filter((c) => c.parts.includes(part))) {
      const picked = pickedFor(p, c.kind, part, units).map((id) => units[id]).filter((u): u is UnitState => !!u);
      const candidates = Object.values(units).filter(
        (u): u is UnitState => !!u && u.side === own.side && !u.lost && u.role !== 'leader' && !taken.has(u.id),
      );
      rows.push({
        kind: c.kind, part, side: own.side, picked, candidates,
        label: filled(c.label, own.label, enemy.label),
        counts: filled(c.counts, own.label, enemy.label),
        rule: c.rule, ruling: c.ruling,
        room: picked.length < c.at_most,
      });
    }
  }
  return rows;
}

/** The picks with `id` added as `kind` for `part`'s front element (an overlap is a further unit of
 * its side). */
export function withContact(p: Picks, kind: ContactKind, part: FightPart, id: number): Picks {
  const out = without(p, id);
  if (kind === 'overlap') return { ...out, [part]: [...out[part], id] };
  return { ...out, [kind]: [...(out[kind as Exclude<ContactKind, 'overlap'>] ?? []), id] };
}

/** The picks without `id`, wherever it was picked. */
export function without(p: Picks, id: number): Picks {
  const out: Picks = { attackers: p.attackers.filter((x) => x !== id), defenders: p.defenders.filter((x) => x !== id) };
  if (p.behind) out.behind = p.behind.filter((x) => x !== id);
  if (p.on_enemy_flank) out.on_enemy_flank = p.on_enemy_flank.filter((x) => x !== id);
  return out;
}

/** The contacts picked, as one list: each unit with what it is to the fight. A front unit is no
 * contact. */
export function contactsPicked(p: Picks): number[] {
  return [...p.attackers.slice(1), ...p.defenders.slice(1), ...(p.behind ?? []), ...(p.on_enemy_flank ?? [])];
}

/** What the API opens: the units, the contacts beside them and the bound's side, if named. */
export function fightRequest(action: string, p: Picks, boundOf?: string): FightRequest {
  const request: FightRequest = { action, attackers: p.attackers, defenders: p.defenders };
  if (boundOf) request.bound_of = boundOf;
  if (p.behind?.length) request.behind = p.behind;
  if (p.on_enemy_flank?.length) request.on_enemy_flank = p.on_enemy_flank;
  return request;
}

/** By battle: whose bound it is, for the bound (turn) the umpire named it in. */
export type Bounds = Record<number, { turn: number; side: string } | undefined>;

/** The side named for this bound, if it is one of the fight's sides. */
export function boundSide(bounds: Bounds, battle: number, turn: number, sides: string[]): string | undefined {
  const known = bounds[battle];
  return known && known.turn === turn && sides.includes(known.side) ? known.side : undefined;
}

/** One factor a contact brings: its worth on the dice (or a note), with its rule. */
export interface Implied {
  label: string;
  /** The change it makes on the dice; none for a note. */
  value?: number;
  rule: string;
  ruling?: string;
}

// A factor counted several times ("Each flank overlapped (×2)") is one factor whatever its count.
const stem = (label: string) => label.replace(/\s*\(×\d+\)$/, '');

/** What a contact brings to the fight: the factors of the resolution with it that differ from
 * the resolution without it (by how much), and the notes only the one with it has. */
export function implied(withIt: Pick<Resolution, 'modifiers' | 'notes'>, withoutIt: Pick<Resolution, 'modifiers' | 'notes'>): Implied[] {
  const out: Implied[] = [];
  const worth = (list: Modifier[], label: string) => list.filter((m) => stem(m.label) === label).reduce((n, m) => n + m.value, 0);
  const labels = [...new Set([...withIt.modifiers, ...withoutIt.modifiers].map((m) => stem(m.label)))];
  for (const label of labels) {
    const change = worth(withIt.modifiers, label) - worth(withoutIt.modifiers, label);
    if (change === 0) continue;
    const m = withIt.modifiers.find((x) => stem(x.label) === label) ?? withoutIt.modifiers.find((x) => stem(x.label) === label)!;
    out.push({ label, value: change, rule: m.rule, ruling: m.ruling });
  }
  const said = new Set(withoutIt.notes.map((n: Note) => n.message));
  for (const n of withIt.notes.filter((n) => !said.has(n.message))) out.push({ label: n.message, rule: n.rule, ruling: n.ruling });
  return out;
}

/** The umpire's own changes to a situation opened from the roster, carried onto the same fight
 * opened again (a contact added): every value that differs from what was opened is set again where
 * the new opening has that place. A list is one value. */
export function carryEdits(opened: unknown, now: unknown, reopened: unknown): unknown {
  if (isObject(now) && isObject(reopened)) {
    const base = isObject(opened) ? opened : {};
    const out: Record<string, unknown> = { ...reopened };
    for (const [key, value] of Object.entries(now)) {
      // Not the umpire's change, or a place the new opening no longer has (its friend gone).
      if (same(value, base[key]) || (key in base && !(key in reopened))) continue;
      out[key] = carryEdits(base[key], value, reopened[key]);
    }
    // What the umpire cleared stays cleared, unless the new opening gives something else.
    for (const key of Object.keys(base)) if (!(key in now) && same(reopened[key], base[key])) delete out[key];
    return out;
  }
  return same(now, opened) ? reopened : now;
}

/** A move opened again along a path retyped: the umpire's changes carried over as for a fight,
 * each hex's own (its terrain, its distance from the enemy, the map edge) onto the hex of the
 * same label in the new path; a hex no longer in the path takes its changes with it. */
export function carryPathEdits(opened: unknown, now: unknown, reopened: unknown): unknown {
  if (!isObject(opened) || !isObject(now) || !isObject(reopened)) return reopened;
  const hexes = (s: Record<string, unknown>) => (Array.isArray(s.path) ? (s.path as unknown[]) : []);
  const byLabel = (list: unknown[], label: unknown) => list.find((h) => isObject(h) && h.label !== undefined && h.label === label);
  const rest = (s: Record<string, unknown>) => ({ ...s, path: undefined });
  const out = carryEdits(rest(opened), rest(now), rest(reopened)) as Record<string, unknown>;
  out.path = hexes(reopened).map((hex) => {
    if (!isObject(hex)) return hex;
    const was = byLabel(hexes(now), hex.label);
    return was === undefined ? hex : carryEdits(byLabel(hexes(opened), hex.label) ?? hex, was, hex);
  });
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
