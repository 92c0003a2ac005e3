// The unit form's logic: which fields to ask (those the chosen type does not already fill), the
// stats a filled form stands for, and what is missing. Pure, so it is unit-tested.
import type { UnitField, UnitForm, UnitOption } from '../generated/api';

export type Values = Record<string, unknown>;

const empty = (v: unknown) => v === undefined || v === null || v === '';

/** The options chosen in the form's choice fields. */
export function chosen(form: UnitForm, values: Values): UnitOption[] {
  return form.fields
    .filter((f) => f.kind === 'choice')
    .map((f) => f.options.find((o) => o.key === String(values[f.key] ?? '')))
    .filter((o): o is UnitOption => !!o);
}

/** The fields to ask: every field, less those a chosen option already fills. */
export function asked(form: UnitForm, values: Values): UnitField[] {
  const filled = new Set(chosen(form, values).flatMap((o) => o.fills));
  return form.fields.filter((f) => !filled.has(f.key));
}

/** A new form's values: each field's default. */
export function initialValues(form: UnitForm): Values {
  const out: Values = {};
  for (const f of form.fields) if (f.default !== undefined && f.default !== null) out[f.key] = f.default;
  return out;
}

/** A unit's entry as the form's values (for editing it): the form's keys, and every other key it
 * carries kept as it is. The core gives the entry with the strength the unit began with: an edit
 * keeps the losses since. */
export function valuesOf(entry: unknown): Values {
  return entry && typeof entry === 'object' && !Array.isArray(entry) ? { ...(entry as Values) } : {};
}

/** The stats the form stands for: the asked fields that hold a value, and anything the unit
 * already carried that the form does not ask (a unit's hits stay its hits). */
export function statsOf(form: UnitForm, values: Values): Values {
  const out: Values = {};
  const keys = new Set(form.fields.map((f) => f.key));
  for (const [k, v] of Object.entries(values)) if (!keys.has(k) && !empty(v)) out[k] = v;
  for (const f of asked(form, values)) {
    const v = values[f.key];
    if (empty(v) || (f.kind === 'toggle' && v === false && !f.required)) continue;
    out[f.key] = v;
  }
  return out;
}

/** The unit form as a row of `role` asks it: a general's tag (GTS 1.2) only on a general's own
 * row, and the values of the fields not asked left out of what is sent. */
export function forRole(form: UnitForm, values: Values, role: string): { form: UnitForm; values: Values } {
  const kept = (f: UnitField) => !f.general_only || role === 'general';
  const out = { ...values };
  for (const f of form.fields) if (!kept(f)) delete out[f.key];
  return { form: { ...form, fields: form.fields.filter(kept) }, values: out };
}

/** The values the next unit added starts from: the last one's, less the fields of one unit only
 * (the leader attached to it; a GTS unit's order, morale and training, which left empty mean the
 * standard and so must not be filled in silently by the unit before). */
export function carriedToNext(fields: UnitField[], values: Values): Values {
  const out = { ...values };
  for (const f of fields) if (f.once) delete out[f.key];
  return out;
}

export interface Missing {
  key: string;
  label: string;
  text: string;
}

/** What must be entered before the unit can be added, in words. */
export function missing(form: UnitForm, values: Values): Missing[] {
  const out: Missing[] = [];
  for (const f of asked(form, values)) {
    const v = values[f.key];
    if (f.kind === 'choice' && !empty(v) && !f.options.some((o) => o.key === String(v))) {
      out.push({ key: f.key, label: f.label, text: 'Pick one from the list: the rules have no such value.' });
    } else if (f.required && empty(v)) {
      out.push({ key: f.key, label: f.label, text: f.kind === 'choice' ? 'Pick one from the list.' : 'Enter it.' });
    } else if (f.kind === 'number' && !empty(v)) {
      const n = Number(v);
      if (!Number.isInteger(n)) out.push({ key: f.key, label: f.label, text: 'Enter a whole number.' });
      else if (f.min !== undefined && f.min !== null && n < f.min) out.push({ key: f.key, label: f.label, text: `Enter ${f.min} or more.` });
      else if (f.max !== undefined && f.max !== null && n > f.max) out.push({ key: f.key, label: f.label, text: `Enter ${f.max} or less.` });
    }
  }
  return out;
}

/** The options matching what was typed: by code first ("SD"), then by any word of the name. */
export function search(options: UnitOption[], text: string): UnitOption[] {
  const t = text.trim().toLowerCase();
  if (!t) return options;
  const exact = options.filter((o) => o.key.toLowerCase() === t);
  const starts = options.filter((o) => !exact.includes(o) && o.key.toLowerCase().startsWith(t));
  const named = options.filter((o) => !exact.includes(o) && !starts.includes(o) && o.label.toLowerCase().includes(t));
  return [...exact, ...starts, ...named];
}

/** The label a unit gets when none is typed: what its first chosen option calls a unit
 * ("Heavy cavalry"), or else that option's code ("LB"). */
export function defaultLabel(form: UnitForm, values: Values): string {
  const option = chosen(form, values)[0];
  return option?.unit_label ?? option?.key ?? 'Unit';
}

/** The fields a type gives when its counter prints them (a class, a combat strength): typed for
 * one type, they are not carried to another. */
export function typeDependent(form: UnitForm): Set<string> {
  return new Set(form.fields.filter((f) => f.kind === 'choice').flatMap((f) => f.options.flatMap((o) => o.fills)));
}

/** The form's values once a choice changes from `was` to another option: what the earlier option
 * was entered with (the values it did not print) goes back to the defaults. */
export function afterTypeChange(form: UnitForm, values: Values, was: string | undefined, now: string | undefined): Values {
  if (was === now || was === undefined) return values;
  const out: Values = { ...values };
  const defaults = initialValues(form);
  for (const key of typeDependent(form)) {
    if (key in defaults) out[key] = defaults[key];
    else delete out[key];
  }
  return out;
}

/** The command a unit entered for `side` keeps: the one picked if the side has it, else the
 * side's only command, else none (a command of the other side is never sent). */
export function commandFor(commands: string[], picked: string): string {
  if (!picked || commands.includes(picked)) return picked;
  return commands.length === 1 ? commands[0] : '';
}
