// The situations an umpire reaches for most (a flank or rear attack, uphill, a river or stream,
// cover, the defending hex's terrain): the rule system names them (`SystemInfo.common_situations`),
// and they are found among a form's boxes — and its required choices — by name, so every form
// offers them as chips. Pure.
import type { Choice, CommonSituation } from '../generated/api';
import { deref, field, getAt, pathKey, type Path, type Schema } from './schema';

export interface Chip {
  path: Path;
  key: string;
  /** The box in the rules' words, and whose it is when the form has several ("Rear · 17.03"). */
  label: string;
  /** A choice asked up front rather than a box (the defending hex's terrain): its options. */
  options?: Choice[];
}

/** The boxes of the situation whose names the system lists, each as a chip. Whole names only: an
 * element's own `double_based_rear` is not a rear attack. */
export function commonChips(schema: Schema, situation: unknown, common: CommonSituation[], lists: Record<string, Choice[]> = {}, max = 10): Chip[] {
  const out: Chip[] = [];
  const walk = (s: Schema, value: unknown, path: Path, owner: string, required = false) => {
    const name = String(path[path.length - 1] ?? '');
    const f = field(s, schema, name, lists);
    const named = common.find((c) => c.field === name);
    const label = named && (owner ? `${named.label} · ${owner}` : named.label);
    if (f.kind === 'boolean' && label) out.push({ path, key: pathKey(path), label });
    // A choice every such part must make (a defending hex's terrain), never an optional one.
    else if (f.kind === 'select' && label && required) out.push({ path, key: pathKey(path), label, options: f.options });
    else if (f.kind === 'object') {
      const here = ownerOf(value) ?? owner;
      const needed = new Set(f.schema.required ?? []);
      for (const [k, sub] of Object.entries(f.schema.properties ?? {})) walk(deref(sub, schema), getAt(value, [k]), [...path, k], here, needed.has(k));
    } else if (f.kind === 'array' && Array.isArray(value)) value.forEach((item, i) => walk(f.schema.items ?? {}, item, [...path, i], owner));
  };
  walk(schema, situation, [], '');
  return out.slice(0, max);
}

/** What a part of a situation is called: its label or name, or its element's name. */
function ownerOf(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  for (const x of [v.label, v.name, (v.element as Record<string, unknown> | undefined)?.name, (v.unit as Record<string, unknown> | undefined)?.name]) {
    if (typeof x === 'string' && x) return x;
  }
  return undefined;
}
