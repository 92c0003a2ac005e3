// A result after the dice, in words: the throw as the table reads it and what the result does to
// each unit of the fight. Pure, so it is unit-tested.
import type { Effect, Outcome, UnitState } from '../generated/api';
import { signed } from './format';
import { humanize } from './words';
import { targetKey, targetName } from './battle';
import { sidesOf, unitsOf } from './pick';

/** "A 7 + 2 = 9 · B 3 + 4 = 7" for an opposed roll ("Greeks …" when the sides' names are given
 * for its generic labels; a total the rule holds within the die's range says so); "Dice 4 + 3 =
 * 7, +2 → 9" for one throw. */
export function throwLine(o: Outcome, totalModifier: number, names?: [string, string]): string {
  // An answer read from the situation alone (the weather, the hour) has no throw to show.
  if (!o.sides?.length && !o.dice.length) return '';
  if (o.sides?.length) {
    return o.sides
      .map((s, i) => {
        const who = names && /^(A|B|Firer|Target)$/.test(s.label) ? names[i] : s.label;
        const sum = s.die + s.modifier;
        const held = s.total > sum ? ` (at least ${s.total})` : s.total < sum ? ` (at most ${s.total})` : '';
        const shown = held ? sum : s.total;
        return `${who} ${s.die} ${s.modifier < 0 ? '−' : '+'} ${Math.abs(s.modifier)} = ${shown < 0 ? `−${-shown}` : shown}${held}`;
      })
      .join(' · ');
  }
  const dice = o.dice.length > 1 ? `${o.dice.join(' + ')} = ${o.roll}` : `${o.roll}`;
  return totalModifier ? `Dice ${dice}, ${signed(totalModifier)} → ${o.modified}` : `Dice ${dice}`;
}

export interface TargetEffects {
  key: string;
  /** The units it lands on ("Kn 1, Kn 2"), or the target in words when none is picked. */
  who: string;
  side: string;
  texts: Effect[];
}

/** The outcome's effects gathered by target, each target named by the roster units it lands on. */
export function effectsByTarget(effects: Effect[], mapping: Record<string, number[] | undefined>, units: Record<number, UnitState | undefined>): TargetEffects[] {
  const out: TargetEffects[] = [];
  for (const e of effects) {
    const key = targetKey(e.target);
    let entry = out.find((x) => x.key === key);
    if (!entry) {
      const list = unitsOf(mapping[key], units);
      entry = { key, who: list.length ? list.map((u) => u.label).join(', ') : targetName(key), side: sidesOf(mapping[key], units).join(', '), texts: [] };
      out.push(entry);
    }
    entry.texts.push(e);
  }
  return out;
}

/** The likeliest results first, for a one-line summary of the odds. */
/** A result as the screen names it: a table's code as printed ("1D", "A2R"), a result named by
 * its key ("recoil_or_spent", "weather", "pursue/destroyed") in words. */
export function resultName(result: string, names?: [string, string]): string {
  // DBMM names both elements' fates at once: "pursue/destroyed" → "Pursue / Destroyed".
  if (/^[a-z][a-z_]*(\/[a-z][a-z_]*)*$/.test(result)) return result.split('/').map(humanize).join(' / ');
  return sideNamed(result, names);
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

/** What the apply button says: a result that changes no unit is only recorded in the log. */
export function applyLabel(o: Outcome, dice: string, names?: [string, string]): string {
  if (o.effects.length) return `Apply ${resultName(o.result, names)}`;
  return dice ? `Record ${resultName(o.result, names)} in the log` : 'Record in the log';
}

export function oddsSummary(distribution: { result: string; p: number }[], max = 3): { result: string; p: number }[] {
  return [...distribution].filter((d) => d.p > 0).sort((x, y) => y.p - x.p).slice(0, max);
}
