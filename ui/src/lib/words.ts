// Words an umpire reads: errors as sentences naming the field by its label, never a path, a serde
// message or a code id (the code stays in a details line). Pure, so it is unit-tested.
import type { RefereeError, Target } from '../generated/api';
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

/** One of a list's items, from the list's name: "Firing hexes" → "Firing hex", "Retreat hexes" →
 * "Retreat hex", "Units" → "Unit", "Armies" → "Army" — never "Firing hexe". */
export function singular(name: string): string {
  if (/ies$/i.test(name)) return name.replace(/ies$/i, 'y');
  if (/(x|ch|sh|ss)es$/i.test(name)) return name.replace(/es$/i, '');
  return name.replace(/s$/i, '');
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

/** A result's target in words, from the core's typed target (never from its key): "The
 * attacker", "Hex 17.03", "Kn (O)", "the leader’s side". */
export function targetWords(t: Target): string {
  if (t === 'attacker') return 'The attacker';
  if (t === 'defender') return 'The defender';
  if (t === 'battle') return 'The battle';
  if ('hex' in t) return `Hex ${t.hex}`;
  if ('unit' in t) return t.unit;
  if ('command' in t) return `${t.command}’s command`;
  if ('side_of' in t) return `${t.side_of}’s side`;
  if ('enemy_of' in t) return `The enemy of ${t.enemy_of}`;
  if ('within' in t) return `The units within ${t.within.inches}" of ${t.within.of}`;
  return t.army;
}

/** The label a field is shown under: the screen's own label for the whole field (a result's
 * target, "targets.unit:EL 23.11", by its name), else the form's label for its last part. */
export function fieldLabel(field: string | undefined | null, labels: Record<string, string> = {}): string | undefined {
  if (field && labels[field]) return labels[field];
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

/** A failure that is not the referee's own, in words: the window's refusal of a request it could
 * not read ("invalid args … expected u32") is never shown as it is. */
function failed(e: unknown): string {
  const text = String(e);
  if (devText(text) || /invalid args/i.test(text)) return 'The app could not read what was entered: check the fields and try again.';
  return text;
}

/** What an error says to the umpire. An error that is not the referee's (a failed call) is said
 * plainly too. */
export function problem(e: unknown, labels: Record<string, string> = {}): Problem {
  const err = (e && typeof e === 'object' && 'code' in e ? e : { code: 'app.failed', message: failed(e) }) as RefereeError;
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
