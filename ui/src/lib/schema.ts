// A situation form built from the action's JSON schema (generated from the Rust types, so every
// action of every system gets one), with the ruleset's choices for its selects. The logic only:
// the form itself is components/SchemaField.svelte. Pure, so it is unit-tested.
import type { Choice } from '../generated/api';
import { humanize } from './words';
export { humanize };

export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  $ref?: string;
  $defs?: Record<string, Schema>;
  enum?: unknown[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  const?: unknown;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  format?: string;
  title?: string;
}

export type Path = (string | number)[];
export type Kind = 'object' | 'array' | 'boolean' | 'integer' | 'number' | 'string' | 'select' | 'list' | 'checks' | 'unknown';

export interface Field {
  kind: Kind;
  schema: Schema;
  nullable: boolean;
  options: Choice[];
}

/** Follows a `$ref` into the root's `$defs`. */
export function deref(s: Schema, root: Schema): Schema {
  if (!s.$ref) return s;
  const name = s.$ref.split('/').pop() ?? '';
  const target = root.$defs?.[name] ?? {};
  // Keep the referring property's own description and default.
  return { ...deref(target, root), description: s.description ?? target.description, default: s.default ?? target.default };
}

function types(s: Schema): string[] {
  return s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
}

/** The choices of a field: the ruleset's for its name (`type` → `unit_type`), or the schema's enum. */
export function choicesFor(name: string, lists: Record<string, Choice[]>): Choice[] {
  const aliases: Record<string, string> = { type: 'unit_type', class: 'unit_class', secondary: 'weapon', unit_type: 'unit_type' };
  return lists[name] ?? lists[aliases[name] ?? ''] ?? [];
}

/** What kind of input a schema needs. */
export function field(s: Schema, root: Schema, name: string, lists: Record<string, Choice[]>): Field {
  let schema = deref(s, root);
  let nullable = false;
  const alternatives = schema.anyOf ?? (schema.oneOf && schema.oneOf.every((o) => o.const === undefined && !o.enum) ? schema.oneOf : undefined);
  if (alternatives) {
    const real = alternatives.filter((a) => !types(a).includes('null') || types(a).length > 1);
    nullable = real.length < alternatives.length;
    if (real.length === 1) schema = { ...deref(real[0], root), description: schema.description, default: schema.default };
  }
  const t = types(schema).filter((x) => x !== 'null');
  if (types(schema).includes('null')) nullable = true;
  // Choices in words: the rule's description where the schema has one, else the value humanized.
  const enumOptions = schema.enum?.filter((v) => v !== null).map((v) => ({ key: String(v), label: humanize(String(v)) }))
    ?? schema.oneOf?.filter((o) => o.const !== undefined).map((o) => ({ key: String(o.const), label: o.description ? o.description.replace(/`/g, '').replace(/\.$/, '') : humanize(String(o.const)) }));
  const ruleset = choicesFor(name, lists);
  if (enumOptions && enumOptions.length) return { kind: 'select', schema, nullable, options: enumOptions };
  if (t.includes('string') && ruleset.length) return { kind: 'select', schema, nullable: true, options: ruleset };
  if (t.includes('object') || schema.properties) return { kind: 'object', schema, nullable, options: [] };
  if (t.includes('array')) {
    const item = deref(schema.items ?? {}, root);
    const itemTypes = types(item);
    const simple = itemTypes.some((x) => x === 'integer' || x === 'number' || x === 'string') && !item.properties;
    // Several choices from a known list (the ruleset's, or the items' own enum): a box for each.
    const itemChoices = item.enum?.filter((v) => v !== null).map((v) => ({ key: String(v), label: humanize(String(v)) }));
    const several = itemTypes.includes('string') ? (itemChoices?.length ? itemChoices : ruleset) : [];
    if (simple && several.length) return { kind: 'checks', schema, nullable, options: several };
    return { kind: simple ? 'list' : 'array', schema, nullable, options: [] };
  }
  if (t.includes('boolean')) return { kind: 'boolean', schema, nullable, options: [] };
  // A number the fight lists by name (a side's unit by its place): picked by the name.
  if (t.includes('integer') && ruleset.length) return { kind: 'select', schema, nullable: true, options: ruleset };
  if (t.includes('integer')) return { kind: 'integer', schema, nullable, options: [] };
  if (t.includes('number')) return { kind: 'number', schema, nullable, options: [] };
  if (t.includes('string')) return { kind: 'string', schema, nullable, options: ruleset };
  return { kind: 'unknown', schema, nullable, options: [] };
}

/** What a select sets: nothing for "—" where the field may be empty, a number where the field
 * is one (a unit by its place in its side), else the key. */
export function chosenValue(f: Field, raw: string): unknown {
  if (raw === '' && f.nullable) return undefined;
  return types(f.schema).includes('integer') && Number.isInteger(Number(raw)) ? Number(raw) : raw;
}

/** A new value for a schema: an object with its required fields, an empty list, a 0. */
export function blank(s: Schema, root: Schema, lists: Record<string, Choice[]> = {}, name = ''): unknown {
  const f = field(s, root, name, lists);
  if (f.schema.default !== undefined && f.schema.default !== null) return structuredClone(f.schema.default);
  switch (f.kind) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of f.schema.required ?? []) out[key] = blank(f.schema.properties?.[key] ?? {}, root, lists, key);
      return out;
    }
    case 'array': {
      // A list of units or hexes starts with one, ready to fill in.
      const item = f.schema.items ?? {};
      return [blank(item, root, lists, name)];
    }
    case 'list': case 'checks': return [];
    case 'boolean': return false;
    case 'integer': case 'number': return f.nullable ? null : Math.max(0, f.schema.minimum ?? 0);
    case 'select': return f.nullable ? null : f.options[0]?.key ?? '';
    case 'string': return f.nullable ? null : '';
    default: return null;
  }
}


export function getAt(value: unknown, path: Path): unknown {
  let v = value;
  for (const p of path) v = (v as Record<string | number, unknown> | undefined)?.[p];
  return v;
}

/** Sets a value at a path, creating objects on the way; `undefined` removes the key. */
export function setAt(value: unknown, path: Path, next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path;
  const container = (value ?? (typeof head === 'number' ? [] : {})) as Record<string | number, unknown>;
  const child = setAt(container[head], rest, next);
  if (child === undefined && !Array.isArray(container)) {
    delete container[head];
  } else {
    container[head] = child;
  }
  return container;
}

export function removeAt(value: unknown, path: Path): void {
  const parent = getAt(value, path.slice(0, -1));
  const last = path[path.length - 1];
  if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
  else if (parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[String(last)];
}

export const pathKey = (path: Path): string => path.join('.');
/** A path as a JSON pointer into the situation (`/side_a/0/flanked`), as the API names a box. */
export const pointer = (path: Path): string => path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
/** A path's key without its list indices: the same field of every unit in a list. */
export const shapeKey = (path: Path): string => path.filter((p) => typeof p === 'string').join('.');

/** The keys (without indices) of every field holding something other than its default: the
 * fields shown up front when a form opens, and kept there. */
export function prominentKeys(schema: Schema, value: unknown, lists: Record<string, Choice[]> = {}): Set<string> {
  const keys = new Set<string>();
  const walk = (s: Schema, v: unknown, path: Path) => {
    const f = field(s, schema, String(path[path.length - 1] ?? ''), lists);
    if (f.kind === 'object') {
      for (const [k, sub] of Object.entries(f.schema.properties ?? {})) {
        const child = getAt(v, [k]);
        if (prominent(k, deref(sub, schema), child, false)) keys.add(shapeKey([...path, k]));
        walk(sub, child, [...path, k]);
      }
    } else if (f.kind === 'array' && Array.isArray(v)) v.forEach((item, i) => walk(f.schema.items ?? {}, item, [...path, i]));
  };
  walk(schema, value, []);
  return keys;
}
/** A set of ticked choices after ticking or unticking one, in the list's own order. */
export function toggled(current: unknown, key: string, on: boolean, options: Choice[]): string[] {
  const held = new Set(Array.isArray(current) ? current.map(String) : []);
  if (on) held.add(key);
  else held.delete(key);
  const known = options.map((o) => o.key).filter((k) => held.has(k));
  // Anything the list does not name (an older battle's value) stays, after the known ones.
  return [...known, ...[...held].filter((k) => !options.some((o) => o.key === k))];
}

/** A field worth showing before "More": required, or holding something other than its default. */
export function prominent(name: string, s: Schema, value: unknown, required: boolean): boolean {
  if (required) return true;
  if (value === undefined || value === null || value === false || value === '') return false;
  if (Array.isArray(value) && value.length === 0) return false;
  return s.default === undefined || JSON.stringify(s.default) !== JSON.stringify(value);
}

/** The schema of the item at a path (for a new array item). */
export function schemaAt(schema: Schema, path: Path): Schema {
  let s: Schema = schema;
  for (const p of path) {
    const d = field(s, schema, String(p), {}).schema;
    s = typeof p === 'number' ? d.items ?? {} : d.properties?.[p] ?? {};
  }
  return deref(s, schema);
}
