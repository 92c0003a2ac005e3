// The situations an umpire reaches for most (a flank or rear attack, uphill, a river or stream,
// cover, the defending hex's terrain, an attack from a wall): the rule system names them
// (`SystemInfo.common_situations`), and they are found among a form's boxes — its required
// choices, and the values of a choice it names — by name, so every form offers them as chips. Pure.
import type { Choice, CommonSituation } from '../generated/api';
import { worth, type Odds } from './battle';
import { deref, field, getAt, pathKey, type Path, type Schema } from './schema';

export interface Chip {
  path: Path;
  key: string;
  /** The box in the rules' words, and whose it is when the form has several ("Rear · 17.03"). */
  label: string;
  /** A choice asked up front rather than a box (the defending hex's terrain): its options. */
  options?: Choice[];
  /** The one value of a choice this chip sets (an attack from an adjacent wall hex), and the
   * choice's default, which tapping it again puts back. */
  value?: string;
  fallback?: string;
}

/** The boxes of the situation whose names the system lists, each as a chip. Whole names only: an
 * element's own `double_based_rear` is not a rear attack. */
export function commonChips(schema: Schema, situation: unknown, common: CommonSituation[], lists: Record<string, Choice[]> = {}, max = 10): Chip[] {
  const out: Chip[] = [];
  const walk = (s: Schema, value: unknown, path: Path, owner: string, required = false) => {
    const name = String(path[path.length - 1] ?? '');
    const f = field(s, schema, name, lists);
    const named = common.find((c) => c.field === name && c.value === undefined);
    const label = named && (owner ? `${named.label} · ${owner}` : named.label);
    const picks = common.filter((c) => c.field === name && c.value !== undefined && f.options?.some((o) => o.key === c.value));
    if (f.kind === 'boolean' && label) out.push({ path, key: pathKey(path), label });
    // One value of a choice, each its own chip (from a ladder, from a wall).
    else if (f.kind === 'select' && picks.length) {
      const fallback = typeof f.schema.default === 'string' ? f.schema.default : undefined;
      for (const c of picks) out.push({ path, key: valueKey(path, c.value!), label: owner ? `${c.label} · ${owner}` : c.label, value: c.value!, fallback });
    }
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

/** A value chip's key: its choice's path and the value it sets. */
export function valueKey(path: Path, value: string): string {
  return `${pathKey(path)}=${value}`;
}

/** The values to resolve for the value chips, by choice: each chip's and the choice's default,
 * once each. */
export function picksToAsk(chips: Chip[]): { path: Path; value: string }[] {
  const out = new Map<string, { path: Path; value: string }>();
  for (const c of chips) {
    if (c.value === undefined) continue;
    for (const v of [c.fallback, c.value]) if (v !== undefined) out.set(valueKey(c.path, v), { path: c.path, value: v });
  }
  return [...out.values()];
}

/** What each value chip is worth, by key, from the odds with its choice set to each value asked
 * (`undefined`: refused). A value is worth the change from the choice's default; where the
 * default is refused (a wall hex attacked from the ground, 3.1.4), from the first other chip's
 * value that is not, named ("vs. from a ladder or siege tower"). A chip is listed only where it
 * matters: set, or allowed and changing the odds or allowing the fight; set but refused, it says
 * "not allowed". */
export function pickWorths(chips: Chip[], situation: unknown, odds: Map<string, Odds | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of chips) {
    if (c.value === undefined) continue;
    const on = getAt(situation, c.path) === c.value;
    const mine = odds.get(c.key);
    if (!mine) {
      if (on) out[c.key] = 'not allowed';
      continue;
    }
    const fallback = c.fallback === undefined ? undefined : odds.get(valueKey(c.path, c.fallback));
    const other = fallback ? undefined : chips.find((o) => o !== c && o.value !== undefined && pathKey(o.path) === pathKey(c.path) && odds.get(o.key));
    const base = fallback ?? (other && odds.get(other.key));
    const gives = base && c.value !== c.fallback ? worth(base, mine) : '';
    if (!gives && !on && base) continue;
    const against = gives && other ? ` vs. ${other.label.charAt(0).toLowerCase()}${other.label.slice(1)}` : '';
    out[c.key] = gives ? `${on ? 'on' : 'if on'}: ${gives}${against}` : '';
  }
  return out;
}

/** The chips to show: every box and choice, and a value chip only where it matters (listed by
 * `pickWorths`, or set). */
export function shownChips(chips: Chip[], situation: unknown, worths: Record<string, string>): Chip[] {
  return chips.filter((c) => c.value === undefined || c.key in worths || getAt(situation, c.path) === c.value);
}
