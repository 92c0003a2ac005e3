// Words an umpire reads: errors as sentences naming the field by its label, never a path, a serde
// message or a code id (the code stays in a details line). Pure, so it is unit-tested.
import type { RefereeError } from '../generated/api';
import devTextList from './dev-text.json';

// The rules' abbreviations, as the rules write them.
const abbreviations: Record<string, string> = { bua: 'BUA', pf: 'PF', tf: 'TF', me: 'ME', cf: 'CF', sp: 'SP', sps: 'SPs', zoc: 'ZoC', drm: 'DRM', pip: 'PIP', pips: 'PIPs', vp: 'VP', vps: 'VPs' };

/** "d_markers" → "D markers"; "attacker_leader_bonus" → "Attacker leader bonus"; "in_bua" → "In BUA". */
export function humanize(name: string): string {
  const words = name.split('_').filter(Boolean);
  if (!words.length) return name;
  const word = (w: string) => abbreviations[w] ?? (w.length === 1 ? w.toUpperCase() : w);
  const head = word(words[0]);
  const first = head[0].toUpperCase() + head.slice(1);
  return [first, ...words.slice(1).map(word)].join(' ');
}

/** A text as a sentence: code quotes dropped, a capital first, a full stop last. */
export function sentence(text: string): string {
  let s = text.replace(/`([^`]*)`/g, '$1').replace(/`/g, '').trim();
  if (!s) return s;
  s = s[0].toUpperCase() + s.slice(1);
  return /[.!?…)]$/.test(s) ? s : `${s}.`;
}

/** The last named part of a field path (`side_a[0].stats.armour` → `armour`). */
export function fieldKey(field: string | undefined | null): string | undefined {
  if (!field) return undefined;
  const parts = field.replace(/\[\d+\]/g, '').split('.').filter((p) => p && !/^\d+$/.test(p));
  return parts[parts.length - 1];
}

/** A result's target in words: "The attacker", "Hex 17.03", "Kn (O)", "the leader’s side". */
export function targetName(key: string): string {
  if (key === 'attacker') return 'The attacker';
  if (key === 'defender') return 'The defender';
  if (key.startsWith('hex:')) return `Hex ${key.slice(4)}`;
  if (key.startsWith('unit:')) return key.slice(5);
  if (key.startsWith('command:')) return `${key.slice(8)}’s command`;
  if (key.startsWith('side_of:')) return `${key.slice(8)}’s side`;
  if (key.startsWith('enemy_of:')) return `The enemy of ${key.slice(9)}`;
  return key.replace(/^army:/, '');
}

/** The label a field is shown under: the form's own label if it has one; a result's target (an
 * apply's "targets.unit:EL 23.11") by its name. */
export function fieldLabel(field: string | undefined | null, labels: Record<string, string> = {}): string | undefined {
  if (field?.startsWith('targets.')) return targetName(field.slice('targets.'.length));
  const key = fieldKey(field);
  if (!key) return undefined;
  return labels[key] ?? humanize(key);
}

export interface Problem {
  /** The sentence shown. */
  text: string;
  /** The field's label, when the error is about one field. */
  label?: string;
  rule?: string;
  ruling?: string;
  /** The stable code, for the details line only. */
  code: string;
}

/** What an error says to the umpire. An error that is not the referee's (a failed call) is said
 * plainly too. */
export function problem(e: unknown, labels: Record<string, string> = {}): Problem {
  const err = (e && typeof e === 'object' && 'code' in e ? e : { code: 'app.failed', message: String(e) }) as RefereeError;
  const label = fieldLabel(err.field, labels);
  const text = sentence(err.message ?? '');
  return { text, label, rule: err.rule ?? undefined, ruling: err.ruling ?? undefined, code: err.code };
}

/** Developer text that must never reach the screen, each with what it is (the end-to-end walk
 * reads the same list). */
export const DEV_TEXT: [RegExp, string][] = (devTextList as [string, string, string][]).map(([source, flags, what]) => [new RegExp(source, flags), what]);

/** The first piece of developer text in a screen's text, if any. */
export function devText(text: string): string | undefined {
  for (const [re, what] of DEV_TEXT) {
    const m = re.exec(text);
    if (m) return `${what}: “${text.slice(Math.max(0, m.index - 30), m.index + m[0].length + 30)}”`;
  }
  return undefined;
}

/** GTS names the roll-off's sides A and B ("A 10 against B 1: B takes 9"): the sides' own names
 * where they are known. Only those two patterns, so an "A" that is a word stays. */
export function sideNamed(text: string, names?: [string, string]): string {
  if (!names) return text;
  const name = (side: string) => (side === 'A' ? names[0] : names[1]);
  return text
    .replace(/^A (-?\d+) against B (-?\d+)/, (_, a, b) => `${names[0]} ${a} against ${names[1]} ${b}`)
    // "Persians take 9", "Sparta takes 9": a name ending in s is read as a plural.
    .replace(/\b([AB]) takes (\d+)/g, (_, side, n) => `${name(side)} ${/s$/.test(name(side)) ? 'take' : 'takes'} ${n}`);
}
