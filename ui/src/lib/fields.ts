// What a typed field holds, checked before anything is sent: a number against the bounds its form
// gives (a side field's, a unit field's, a situation's schema), a name against the API's limit,
// the faces of a roll. The bounds are the API's own (FIELD_LIMITS and each form's min and max),
// and every refusal is one sentence in the rules' words, the same the API would answer. Nothing
// is clamped, rounded or stripped of its sign: a value that is not right is refused as typed.
// Pure, so it is unit-tested.
import { FIELD_LIMITS } from '../generated/api';
import { andList } from './format';

/** A number field's rule: its label and bounds (either may be absent: then the ±value_max every
 * tabletop value keeps to), and whether it takes whole numbers only. */
export interface NumberRule {
  label: string;
  min?: number | null;
  max?: number | null;
  /** Whole numbers only (the default); false for a field the rules measure in fractions. */
  whole?: boolean;
  /** Left empty, it is refused; otherwise empty means "none". */
  required?: boolean;
}

/** What a field holds once checked: its value (undefined: left empty), or what is wrong. */
export interface Checked<T> {
  value?: T;
  error?: string;
}

/** A number as the rules print it: 10,000; −2. */
export const grouped = (n: number): string => (n < 0 ? `-${grouped(-n)}` : String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ','));

/** A field's bounds, within the ±value_max every tabletop value keeps to. */
export function bounds(rule: NumberRule): [number, number] {
  const limit = FIELD_LIMITS.value_max;
  return [Math.max(rule.min ?? -limit, -limit), Math.min(rule.max ?? limit, limit)];
}

/** "Panic level must be a whole number from 0 to 10,000.": what the field takes, in the words
 * the API uses for it. */
export function numberWords(rule: NumberRule): string {
  const [min, max] = bounds(rule);
  return `${rule.label} must be ${rule.whole === false ? 'a number' : 'a whole number'} from ${grouped(min)} to ${grouped(max)}.`;
}

const WHOLE = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A number typed into a field: its value, nothing when left empty (and not required), or the
 * field's rule in words when it is not a number of the field (negative below its bounds, a
 * fraction where a whole number goes, huge, a lone minus, letters). */
export function checkNumber(text: string, rule: NumberRule): Checked<number> {
  const t = text.trim().replace(/^−/, '-');
  if (t === '') return rule.required ? { error: numberWords(rule) } : {};
  if (!(rule.whole === false ? DECIMAL : WHOLE).test(t)) return { error: numberWords(rule) };
  const n = Number(t);
  const [min, max] = bounds(rule);
  if (!Number.isFinite(n) || n < min || n > max) return { error: numberWords(rule) };
  return { value: n };
}

/** A name typed for something (`what`: "battle", "first side"): there, within the API's length,
 * on one line. `required` false: it may be left empty (a unit's label, which then takes its
 * type's). */
export function checkName(text: string, what: string, required = true): string | undefined {
  const chars = [...text].length;
  if (required && text.trim() === '') return `Name the ${what}: it cannot be left empty.`;
  if (chars > FIELD_LIMITS.name_max_chars) return `The ${what}’s name is ${grouped(chars)} characters long; a name takes at most ${FIELD_LIMITS.name_max_chars}.`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(text)) return `The ${what}’s name must be on one line, without tabs.`;
  return undefined;
}

/** The faces of a roll typed as the dice fell ("6, 6", "6 6"): each a whole number from 1 up,
 * at least one. Which faces a roll's dice show is the API's check. */
export function checkFaces(text: string): Checked<number[]> {
  const parts = text.trim().split(/[,\s]+/).filter(Boolean);
  if (!parts.length) return { error: 'Type the faces the dice showed, e.g. 6, 6.' };
  for (const p of parts) {
    if (!/^\d+$/.test(p) || Number(p) < 1 || Number(p) > FIELD_LIMITS.value_max) return { error: `“${p}” is not a face of a die: type the numbers the dice showed, e.g. 6, 6.` };
  }
  return { value: parts.map(Number) };
}

/** Fields refused now, by key, as one reason a button waits: "Fix Panic level first." */
export function waitingFor(errors: Record<string, string | undefined>, labels: Record<string, string> = {}): string | undefined {
  const keys = Object.keys(errors).filter((k) => errors[k]);
  if (!keys.length) return undefined;
  const names = keys.map((k) => labels[k] ?? k);
  return `Correct ${andList(names)} first: ${keys.length === 1 ? 'it is' : 'they are'} marked in red.`;
}
