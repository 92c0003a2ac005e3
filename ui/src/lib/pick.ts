// Units picked for a fight on the roster or the dashboard: the first unit tapped sets the
// attacking side; a unit of another side is a defender; a unit that shares its place with others
// of its side (an ITACS stack) brings them along; tapping a picked unit lets it go alone. Pure.
import type { UnitState } from '../generated/api';

export interface Picks {
  attackers: number[];
  defenders: number[];
  /** Friends directly behind a front unit, of either side (picked beside the fight: DBMM). */
  behind?: number[];
  /** Friends on the enemy front unit's flank, of either side (DBMM). */
  on_enemy_flank?: number[];
}

export const noPicks = (): Picks => ({ attackers: [], defenders: [] });

/** A test of one unit opened from its row (a GTS rally): the unit alone, as the attacker. */
export const oneUnit = (id: number): Picks => ({ attackers: [id], defenders: [] });

/** The unit a test opened from its row is taken by: one unit picked, nobody against it. */
export function testedUnit(p: Picks | undefined): number | undefined {
  return p && p.attackers.length === 1 && !p.defenders.length && !p.behind?.length && !p.on_enemy_flank?.length ? p.attackers[0] : undefined;
}

/** The picks after a tap on `unit`. With `against`, a unit of the attackers' own side may be
 * picked as a defender too (a side fighting itself is rare, but the umpire decides). */
export function togglePick(p: Picks, unit: UnitState, units: Record<number, UnitState | undefined>, against = false): Picks {
  if (p.attackers.includes(unit.id)) return { ...p, attackers: p.attackers.filter((id) => id !== unit.id) };
  if (p.defenders.includes(unit.id)) return { ...p, defenders: p.defenders.filter((id) => id !== unit.id) };
  const taken = new Set([...p.attackers, ...p.defenders]);
  const added = stackOf(unit, units).filter((id) => !taken.has(id));
  const attackingSide = p.attackers.map((id) => units[id]?.side).find((s) => s !== undefined);
  if ((attackingSide === undefined || unit.side === attackingSide) && !against) return { ...p, attackers: [...p.attackers, ...added] };
  return { ...p, defenders: [...p.defenders, ...added] };
}

/** The unit and those standing with it: its side's units of the same place that can fight. */
export function stackOf(unit: UnitState, units: Record<number, UnitState | undefined>): number[] {
  if (!unit.place) return [unit.id];
  const mates = Object.values(units).filter(
    (u): u is UnitState => !!u && u.id !== unit.id && u.side === unit.side && u.place === unit.place && !u.lost && u.role !== 'leader',
  );
  return [unit.id, ...mates.map((u) => u.id)];
}

/** Units by where they stand, in roster order: those of one place together under its name, the
 * units without a place together under none. */
export function byPlace(list: UnitState[]): [string, UnitState[]][] {
  const out: [string, UnitState[]][] = [];
  for (const u of list) {
    const group = out.find(([p]) => p === (u.place ?? ''));
    if (group) group[1].push(u);
    else out.push([u.place ?? '', [u]]);
  }
  return out;
}

/** Which part of the fight a unit is in, if any. */
export function pickedAs(p: Picks, id: number): 'attacker' | 'defender' | undefined {
  if (p.attackers.includes(id)) return 'attacker';
  if (p.defenders.includes(id)) return 'defender';
  return undefined;
}

/** Picks that are still units on the roster (a removed or lost unit drops out). */
export function livePicks(p: Picks, units: Record<number, UnitState | undefined>): Picks {
  const alive = (id: number) => !!units[id] && !units[id]!.lost;
  const out: Picks = { attackers: p.attackers.filter(alive), defenders: p.defenders.filter(alive) };
  if (p.behind) out.behind = p.behind.filter(alive);
  if (p.on_enemy_flank) out.on_enemy_flank = p.on_enemy_flank.filter(alive);
  return out;
}

/** The units of these ids that are on the roster. */
export function unitsOf(ids: number[] | undefined, units: Record<number, UnitState | undefined>): UnitState[] {
  return (ids ?? []).map((id) => units[id]).filter((u): u is UnitState => !!u);
}

/** The sides these units belong to, each once, in the order met. */
export function sidesOf(ids: number[] | undefined, units: Record<number, UnitState | undefined>): string[] {
  return [...new Set(unitsOf(ids, units).map((u) => u.side))];
}

/** "Normans: Kn 1, Kn 2" for one part of the fight. */
export function partText(ids: number[], units: Record<number, UnitState | undefined>): string {
  const list = unitsOf(ids, units);
  if (!list.length) return '';
  return `${sidesOf(ids, units).join(' and ')}: ${list.map((u) => u.label).join(', ')}`;
}

/** The fight in one line: "Normans: Kn 1 against Saxons: Fyrd 1, Fyrd 2". */
export function fightText(p: Picks, units: Record<number, UnitState | undefined>): string {
  const a = partText(p.attackers, units);
  const d = partText(p.defenders, units);
  return d ? `${a} against ${d}` : a;
}

export interface Move {
  /** The value of the place field (the hex's number). */
  value: string;
  /** The place in words ("Hex 17.04"). */
  label: string;
}

/** The places of a unit's entry, by the system's place field (an ITACS hex). */
function placeOf(u: UnitState, key: string): string | undefined {
  const entry = u.detail.entry as Record<string, unknown> | null;
  const v = entry && typeof entry === 'object' ? entry[key] : undefined;
  return v === undefined || v === null || v === '' ? undefined : String(v);
}

/** Where a unit can be moved in one tap: the other places its side's units stand in, each once,
 * in roster order. None where the system places no units, or for a lost unit. */
export function movesFor(unit: UnitState, units: Record<number, UnitState | undefined>, key: string | null | undefined): Move[] {
  if (!key || unit.lost) return [];
  const own = placeOf(unit, key);
  const out: Move[] = [];
  for (const u of Object.values(units)) {
    if (!u || u.lost || u.side !== unit.side) continue;
    const value = placeOf(u, key);
    if (value === undefined || value === own || out.some((m) => m.value === value)) continue;
    out.push({ value, label: u.place ?? value });
  }
  return out;
}

/** A unit's entry moved to another place: the same entry, its place field changed. */
export function movedEntry(unit: UnitState, key: string, value: string): Record<string, unknown> {
  const entry = unit.detail.entry;
  const base = entry && typeof entry === 'object' && !Array.isArray(entry) ? (entry as Record<string, unknown>) : {};
  return { ...base, [key]: value };
}

/** The places a move enters, as typed in one line ("19.05 20.05", "19.05, 20.05"), in order. */
export function pathOf(text: string): string[] {
  return text.split(/[\s,;]+/).map((h) => h.trim()).filter((h) => h !== '');
}

/** A move's places as the line they were typed in. */
export const pathText = (path: string[]): string => path.join(' ');

/** Whether a move may stop where it stands for want of a place farther from the enemy: a rout or
 * break move given no places yet (ITACS 5.3.1; a move of another kind never stops so). */
export function mayStayPut(situation: unknown, path: string[]): boolean {
  const kind = situation && typeof situation === 'object' ? (situation as Record<string, unknown>).kind : undefined;
  return path.length === 0 && (kind === 'rout' || kind === 'break');
}

/** The units of the one entry moving, when "Units moving" is asked of it: one entry of more than
 * one unit (several entries picked move whole), not routing nor broken (a rout move is the whole
 * stack's, its markers the hex's: ITACS 5.3.1). */
export function unitsToMove(units: UnitState[]): number | undefined {
  const state = units[0]?.detail.state as { rout?: unknown; broken?: unknown } | null | undefined;
  const routing = state?.rout === true || state?.broken === true;
  return units.length === 1 && units[0].strength > 1 && !routing ? units[0].strength : undefined;
}

/** "Units moving" as typed: a whole number, or none when blank (all of them move). What is out of
 * bounds is sent as typed, for the sentence beside the field to say why. */
export function unitsMovingOf(typed: string): number | undefined {
  const text = typed.trim();
  if (text === '' || !/^-?\d+$/.test(text)) return undefined;
  return Math.max(0, Number(text));
}
