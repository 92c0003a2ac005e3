// A result after the dice, in words: the throw as the table reads it and what the result does to
// each unit of the fight. Pure, so it is unit-tested.
import type { Effect, Outcome, Resolution, UnitState } from '../generated/api';
import { signed } from './format';
import { sentence } from './words';

/** A result as the screen names it: the core's words for it (the core names the units). */
export function resultName(r: Resolution, result: string): string {
  return r.names[result] ?? result;
}

/** The odds table's first column, in rem: room for the longest result name shown (a bold
 * monospace letter is about 0.62 rem), never narrower than a short code's 3.6 rem nor wider than
 * 10 — a longer name wraps within it rather than running into its dice. */
export function nameColumnRem(names: string[]): number {
  const longest = Math.max(0, ...names.map((n) => n.length));
  return Math.min(10, Math.max(3.6, Math.ceil((longest * 0.62 + 0.4) * 10) / 10));
}
import { targetKey, targetWords } from './battle';
import { sidesOf, unitsOf } from './pick';

/** "Hoplites 7 + 2 = 9 · Immortals 3 + 4 = 7" for an opposed roll, each side as the core names it
 * (a total the rule holds within the die's range says so); "Dice 4 + 3 = 7, +2 → 9" for one
 * throw. */
export function throwLine(o: Outcome, totalModifier: number): string {
  // An answer read from the situation alone (the weather, the hour) has no throw to show.
  if (!o.sides?.length && !o.dice.length) return '';
  if (o.sides?.length) {
    return o.sides
      .map((s) => {
        const who = s.label;
        const sum = s.die + s.modifier;
        const held = s.total > sum ? ` (at least ${s.total})` : s.total < sum ? ` (at most ${s.total})` : '';
        const shown = held ? sum : s.total;
        return `${who} ${s.die} ${s.modifier < 0 ? '−' : '+'} ${Math.abs(s.modifier)} = ${shown < 0 ? `−${-shown}` : shown}${held}`;
      })
      .join(' · ');
  }
  const dice = o.dice.length > 1 ? summed(o.dice, o.roll) : `${o.roll}`;
  return totalModifier ? `Dice ${dice}, ${signed(totalModifier)} → ${o.modified}` : `Dice ${dice}`;
}

/** "4 + 3 = 7"; a chain's later dice after the roll they follow ("3 + 4 = 7, then 1": a Medieval
 * combat's 2d6, then its scatter d6), never added into it. */
function summed(dice: number[], roll: number): string {
  let sum = 0;
  for (let k = 0; k < dice.length; k += 1) {
    sum += dice[k];
    if (sum === roll && k > 0) {
      const rest = dice.slice(k + 1);
      return `${dice.slice(0, k + 1).join(' + ')} = ${roll}${rest.length ? `, then ${rest.join(', ')}` : ''}`;
    }
  }
  return `${dice.join(', ')}: ${roll}`;
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
      entry = { key, who: list.length ? list.map((u) => u.label).join(', ') : targetWords(e.target), side: sidesOf(mapping[key], units).join(', '), texts: [] };
      out.push(entry);
    }
    entry.texts.push(e);
  }
  return out;
}

/** What a result does to which units, as the bar, the table view and the result card say it. */
export interface ResultWords {
  /** The result as the core names it, when its name says more than a table's code ("Bd (O)
   * recoils; Pk (O) stands", "Knights loses 1 SP; Boyars retreats 2 hexes (-1/D2)"). */
  named?: string;
  /** Else what it does to each target, named by the roster units it lands on, in the core's
   * words for each change: only the case that applies here, never the rule's whole paragraph. */
  lines: { who: string; side: string; what: string }[];
  /** The table's code as printed ("D2XB"), shown beside the words as a small tag only. */
  code?: string;
  /** The whole in one line: the name, or each target's changes. */
  headline: string;
  /** A named result's own account of this throw, when it says more than the name (the scatter
   * d6 thrown after a Medieval retreat: "… Scatter d6 1 (Boyars): Boyars scattered."). */
  detail?: string;
}

export function resultWords(r: Resolution, o: Outcome, mapping: Record<string, number[] | undefined>, units: Record<number, UnitState | undefined>): ResultWords {
  const name = resultName(r, o.result);
  const lines = effectsByTarget(o.effects, mapping, units).map((t) => ({ who: t.who, side: t.side, what: t.texts.map((e) => e.what).join(', ') }));
  if (name !== o.result) {
    const detail = o.meaning && o.meaning !== name ? sentence(o.meaning) : undefined;
    return { named: name, lines, headline: name, detail };
  }
  const headline = lines.length ? lines.map((l) => `${l.who}: ${l.what}`).join('; ') : sentence(o.meaning || o.result);
  return { lines, code: o.result, headline };
}

/** A name the apply button can carry without growing: a result named in a sentence that names
 * the units ("Knights loses 1 SP; Boyars retreats 2 hexes (-1/D2)", spelt out beside it) goes by
 * its code, so "Applied ✓" takes the button's place and a double tap's second tap lands on it. */
const BUTTON_NAME = 24;

/** What the apply button says: a result that changes no unit is only recorded in the log. */
export function applyLabel(r: Resolution, o: Outcome): string {
  const named = resultName(r, o.result);
  // Its code only when the core's words print it ("… (-1/D2)"); any other key ("hits_3_0") is
  // "the result", named in full beside the button.
  const printed = o.result.length <= BUTTON_NAME && (named === o.result || named.endsWith(`(${o.result})`));
  const name = named.length <= BUTTON_NAME ? named : printed ? o.result : 'the result';
  // The time of day applied to a battle changes no unit: it sets the battle's clock (DBMM p. 23),
  // which "Apply Day" would not say.
  if (o.effects.length && o.effects.every((e) => e.change.kind === 'battle_clock')) return 'Set the battle’s clock';
  if (o.effects.length) return `Apply ${name}`;
  return r.dice ? `Record ${name} in the log` : 'Record in the log';
}

/** The heading over the results: odds only where dice decide; an answer without dice (a move, the
 * weather) is worked out, so it is "the result", or "every possible result" while it hangs on
 * what the umpire gives. */
export function oddsTitle(r: Pick<Resolution, 'dice' | 'distribution'>): string {
  if (r.dice) return 'Odds of every result';
  return r.distribution.length > 1 ? 'Every possible result' : 'The result';
}

/** The fold holding the workings: "Modifiers and the odds" for a roll, the costs and checks for an
 * answer without dice, where there are no odds to show. */
export function detailsTitle(r: Pick<Resolution, 'dice' | 'distribution'>): string {
  return r.dice ? 'Modifiers and the odds of every result' : 'How the rules reach it';
}

/** The likeliest results first, for a one-line summary of the odds. */
export function oddsSummary(distribution: { result: string; p: number }[], max = 3): { result: string; p: number }[] {
  return [...distribution].filter((d) => d.p > 0).sort((x, y) => y.p - x.p).slice(0, max);
}

/** The resolution as the screen may show it: its result only when it was worked out from the dice
 * shown now — after the dice are cleared or changed, and until the new throw is resolved, the odds
 * without a result (nothing to apply). `resolvedWith` is the throw it was resolved with. */
export function forDiceShown(r: Resolution | undefined, resolvedWith: number[] | undefined, shown: number[] | undefined): Resolution | undefined {
  if (!r?.outcome || sameThrow(resolvedWith, shown)) return r;
  return { ...r, outcome: undefined };
}

const sameThrow = (a: number[] | undefined, b: number[] | undefined): boolean => (a ?? []).join(',') === (b ?? []).join(',') && !a === !b;
