// The dice of an action as the table throws them (the core lays them out, each with the side that
// throws it), and faces typed in one go ("43" is a 4 and a 3). Pure, so it is unit-tested.

/** Typed faces for dice of `sides`: "43", "4 3", "4,3"; on d10s a 0 is a 10 ("07" → 10 and 7).
 * Undefined while the text is not a whole throw; an error sentence when it cannot become one (a
 * face no die of it shows, or more dice than the throw has). */
export function typedFaces(text: string, sides: number[], split = true): { faces?: string[]; error?: string } {
  const t = text.trim();
  if (!t || !sides.length) return {};
  const stray = /[^\d\s,;/+-]/.exec(t);
  if (stray) return { error: `“${stray[0]}” is not a face of a die: type the numbers the dice show.` };
  // A minus before a number is a sign, never a separator to drop ("4-3" is two dice; "-3" is no face).
  const negative = /(?:^|[\s,;/+])(-+\d+)/.exec(t);
  if (negative) return { error: `“${negative[1]}” is not a face of a die: a die shows 1 or more.` };
  let parts = t.split(/[\s,;/+-]+/).filter(Boolean);
  // One run of digits for several one-digit dice: a digit each.
  if (split && parts.length === 1 && sides.length > 1 && sides.every((s) => s <= 10) && /^\d+$/.test(t)) parts = [...t];
  if (parts.length > sides.length) {
    const want = sides.length === 1 ? 'one die' : `${sides.length} dice`;
    return { error: `That is ${parts.length} dice; this throw is ${want}, e.g. ${example(sides)}.` };
  }
  const faces: string[] = [];
  for (const [i, p] of parts.entries()) {
    let n = Number(p);
    if (!Number.isInteger(n)) return { error: `“${p}” is not a face of a die.` };
    if (n === 0 && (sides[i] === 10 || sides[i] === 100)) n = sides[i];
    // A face so far that no die of this throw shows is wrong already, before the rest is typed.
    if (n < 1 || n > sides[i]) return { error: `A d${sides[i]} shows 1 to ${sides[i]}; ${p} is not one of its faces.` };
    faces.push(String(n));
  }
  return faces.length === sides.length ? { faces } : {};
}

/** The throw the dice box holds, as the result is computed from it: its faces when it holds a
 * whole throw, otherwise every die blank — so a cleared, half-typed or wrong box shows no result
 * and nothing can be applied from an earlier throw — with the reason when it is wrong. */
export function boxThrow(text: string, sides: number[], split = true): { faces: string[]; error?: string } {
  const read = typedFaces(text, sides, split);
  return { faces: read.faces ?? sides.map(() => ''), error: read.error };
}

/** The faces as numbers once every die has one; undefined while any die is blank. */
export function wholeThrow(faces: string[]): number[] | undefined {
  return faces.length && faces.every((f) => f !== '') ? faces.map(Number) : undefined;
}

function example(sides: number[]): string {
  return sides.every((s) => s <= 10) ? sides.map((_, i) => String((i % 6) + 3)).join('').slice(0, sides.length) : sides.map((s) => String(Math.ceil(s / 2))).join(' ');
}

/** "Saxons’", "Kn 1’s": whose die it is. */
export const possessive = (name: string): string => (/s$/i.test(name) ? `${name}’` : `${name}’s`);

/** Each die's name on its pad: the unit that throws it ("Hastati’s d100", numbered when it
 * throws several for one purpose: "Vytautas’ d6 1"), the side in an opposed roll ("Saxons’ d6",
 * numbered when the side throws several), else "Die 1", "Die 2" (or "d10" alone). */
export function dieNames(dice: { sides: number; thrower?: 'a' | 'b'; label?: string; purpose?: string }[], owners: { a: string; b: string }): string[] {
  // A side's dice are numbered among those thrown for the same purpose (a chain's roll-off die is
  // "Saxons’ d10", not the first of all the Saxons' dice of the round).
  const key = (d: { thrower?: 'a' | 'b'; purpose?: string }) => `${d.thrower}|${d.purpose ?? ''}`;
  const count = (k: string) => dice.filter((d) => !d.label && d.thrower && key(d) === k).length;
  // A unit's or leader's own dice are numbered too when he throws several for one purpose (a
  // leader's 2d6 for his life).
  const labelled = (d: { sides: number; label?: string; purpose?: string }) => `${d.label}|${d.sides}|${d.purpose ?? ''}`;
  const own = (k: string) => dice.filter((d) => d.label && labelled(d) === k).length;
  const seen: Record<string, number> = {};
  return dice.map((d, i) => {
    if (d.label) {
      const k = labelled(d);
      seen[k] = (seen[k] ?? 0) + 1;
      const name = `${possessive(d.label)} d${d.sides}`;
      return own(k) > 1 ? `${name} ${seen[k]}` : name;
    }
    if (d.thrower) {
      const k = key(d);
      seen[k] = (seen[k] ?? 0) + 1;
      const name = `${possessive(d.thrower === 'a' ? owners.a : owners.b)} d${d.sides}`;
      return count(k) > 1 ? `${name} ${seen[k]}` : name;
    }
    return dice.length > 1 ? `Die ${i + 1}` : `d${d.sides}`;
  });
}

/** A die a pad of faces can show (a d100 is typed, as its two percentile dice read). */
export const padded = (sides: number): boolean => sides <= 10;

/** A chain's faces entered so far, in order up to the first die still blank (none: nothing yet).
 * Dice asked in turn are resolved with these: the core lays out the next stage from them. */
export function thrownSoFar(faces: string[]): number[] | undefined {
  const end = faces.indexOf('');
  const so = (end < 0 ? faces : faces.slice(0, end)).map(Number);
  return so.length ? so : undefined;
}

type LaidDie = { sides: number; thrower?: 'a' | 'b'; label?: string; purpose?: string; face_names?: string[] };
const sameDie = (a: LaidDie | undefined, b: LaidDie): boolean =>
  !!a && a.sides === b.sides && a.thrower === b.thrower && a.label === b.label && a.purpose === b.purpose;

/** The faces over a new layout of the dice: each kept while every die up to it is the die it was
 * thrown for; from the first die that changed (another stage, since an earlier face changed) all
 * blank. A layout seen for the first time keeps the faces by place, and so does a die the layout
 * before did not have: a face there was thrown for it (the app's roll of a whole chain).
 * `rolled`: the faces the app has just rolled, given for the first layout answered after the roll
 * only — that layout is the one they were rolled for, whatever was laid out before (the chain typed
 * before the roll may have asked for other dice), so they are kept by place. A later layout (the
 * situation changed since) follows the rule above. */
export function followLayout(before: LaidDie[] | undefined, now: LaidDie[], faces: string[], rolled?: string[]): string[] {
  if (rolled && rolled.join(',') === faces.join(',')) return now.map((_, i) => faces[i] ?? '');
  let kept = true;
  return now.map((die, i) => {
    if (before && i < before.length && !sameDie(before[i], die)) kept = false;
    return kept ? (faces[i] ?? '') : '';
  });
}

/** A face set on die `i`. In a chain (`dice` given) the dice thrown for another purpose after it
 * were asked for the faces before, so they are cleared; its fellows (the other roll-off die) and
 * any die of a throw not in turn stay. */
export function setFace(faces: string[], i: number, face: string, dice?: LaidDie[]): string[] {
  let end = faces.length;
  if (dice) {
    end = i + 1;
    while (end < dice.length && dice[end].purpose === dice[i]?.purpose) end += 1;
  }
  return faces.map((f, j) => (j === i ? face : j >= end ? '' : f));
}

/** In a chain, a die of a stage already thrown once a later stage is laid out: shown small with
 * its face (a tap reopens it), so the dice still to throw keep the room. */
export function thrownEarlier(dice: LaidDie[], faces: string[], i: number): boolean {
  return faces[i] !== undefined && faces[i] !== '' && dice.slice(i + 1).some((d) => d.purpose !== dice[i].purpose);
}

/** A chain is past its first stage: a stage is thrown and a later one laid out. The odds of its
 * first throw are settled then; the bar keeps its room for the dice still to throw. */
export const pastFirstStage = (dice: LaidDie[], faces: string[]): boolean => dice.some((_, i) => thrownEarlier(dice, faces, i));
/** In a chain, a die shown small with its face: a stage already thrown, or — the chain thrown to
 * its result (`complete`) — every die, so the result and what it asks keep the room on a phone. */
export function shownThrown(dice: LaidDie[], faces: string[], i: number, complete: boolean): boolean {
  return thrownEarlier(dice, faces, i) || (complete && faces[i] !== undefined && faces[i] !== '');
}

/** A chain's typed digits are read as whole faces (a d10's "10" is ten, not 1 and 0) unless every
 * die has fewer than ten sides. */
export const splitDigits = (sides: number[], inTurn: boolean): boolean => !inTurn || sides.every((s) => s <= 9);

/** What a face means where the rules name each face (a frenzied elephant's heading: 2 is "NE");
 * none where a face is only its number. */
export function faceName(die: LaidDie, face: string): string | undefined {
  const n = Number(face);
  return Number.isInteger(n) && n >= 1 ? die.face_names?.[n - 1] : undefined;
}

/** A face as a thrown die shows it: "2", or "2 (NE)" where the rules name the faces. */
export function faceWords(die: LaidDie, face: string): string {
  const name = faceName(die, face);
  return name ? `${face} (${name})` : face;
}

/** What a pad's die is thrown for, after its owner: "Levies’ d10 · stand-loss check". */
export function dieCaption(name: string, die: LaidDie): string {
  return die.purpose ? `${name} · ${die.purpose}` : name;
}
