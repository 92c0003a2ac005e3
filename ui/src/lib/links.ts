// Rows linked to other rows of their side by label — a leader to the unit he leads, an escort
// stand to the elephant it runs with — as the system's form says (a field of kind `unit`): which
// fields link a row, the units it may name, and its entry linked anew. Pure, so it is unit-tested.
import type { UnitField, UnitForm, UnitState } from '../generated/api';

type Units = Record<number, UnitState | undefined>;

/** The units a row of `side` may name: its side's units on the table (leaders apart), the row
 * itself apart, by label, each once. */
export function linkable(side: string, units: Units, self?: number): string[] {
  const out: string[] = [];
  for (const u of Object.values(units)) {
    if (!u || u.lost || u.side !== side || u.role === 'leader' || u.id === self) continue;
    if (!out.includes(u.label)) out.push(u.label);
  }
  return out;
}

/** The fields that link this row to another, offered on its roster row: every such field of a
 * leader's row; on a unit, those it already fills (an escort's), so other units show none. */
export function linkFields(form: UnitForm | undefined, unit: UnitState): UnitField[] {
  if (!form || unit.lost) return [];
  const entry = entryOf(unit);
  const fields = unit.role === 'leader' ? form.leader_fields : form.fields;
  return fields.filter((f) => f.kind === 'unit' && (unit.role === 'leader' || typeof entry[f.key] === 'string'));
}

/** The unit a row names under `key`, or '' for none. */
export function linkOf(unit: UnitState, key: string): string {
  const v = entryOf(unit)[key];
  return typeof v === 'string' ? v : '';
}

/** A row's entry linked to another unit by its label (or to none: ''). */
export function linkedEntry(unit: UnitState, key: string, label: string): Record<string, unknown> {
  const out = { ...entryOf(unit) };
  if (label) out[key] = label;
  else delete out[key];
  return out;
}

function entryOf(unit: UnitState): Record<string, unknown> {
  const entry = unit.detail.entry;
  return entry && typeof entry === 'object' && !Array.isArray(entry) ? (entry as Record<string, unknown>) : {};
}

/** The units the players may pick as standing near the leader or unit a result names (`of`, as
 * its fight maps it): his side's units on the table, leaders apart; every side's when he is not
 * on the roster. A leader entered on a unit's row (or a general's row) is that row: the unit he
 * stood with is offered too. */
export function nearby(of: string, mapping: Record<string, number[]>, units: Units): UnitState[] {
  const anchor = (mapping[`unit:${of}`] ?? []).map((id) => units[id]).find((u) => !!u);
  return Object.values(units).filter((u): u is UnitState => !!u && !u.lost && u.role !== 'leader' && (!anchor || u.side === anchor.side));
}

/** The rows of its side on the table that name this unit (its leader, its escort), by label. */
export function linkedFrom(form: UnitForm | undefined, unit: UnitState, units: Units): string[] {
  if (!form) return [];
  const keys = [...form.fields, ...form.leader_fields].filter((f) => f.kind === 'unit').map((f) => f.key);
  return Object.values(units)
    .filter((u): u is UnitState => !!u && !u.lost && u.side === unit.side && u.id !== unit.id && keys.some((k) => linkOf(u, k) === unit.label))
    .map((u) => u.label);
}
