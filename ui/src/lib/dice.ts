// The dice of an action as the table throws them (the core lays them out, each with the side that
// throws it), and faces typed in one go ("43" is a 4 and a 3). Pure, so it is unit-tested.

/** Typed faces for dice of `sides`: "43", "4 3", "4,3"; on d10s a 0 is a 10 ("07" → 10 and 7).
 * Undefined while the text is not a whole throw; an error sentence when a face cannot be. */
export function typedFaces(text: string, sides: number[]): { faces?: string[]; error?: string } {
  const t = text.trim();
  if (!t || !sides.length) return {};
  const stray = /[^\d\s,;/+-]/.exec(t);
  if (stray) return { error: `“${stray[0]}” is not a face of a die: type the numbers the dice show.` };
  let parts = t.split(/[\s,;/+-]+/).filter(Boolean);
  // One run of digits for several one-digit dice: a digit each.
  if (parts.length === 1 && sides.length > 1 && sides.every((s) => s <= 10) && /^\d+$/.test(t)) parts = [...t];
  if (parts.length < sides.length) return {};
  if (parts.length > sides.length) return { error: `Type ${sides.length === 1 ? 'one die' : `${sides.length} dice`}, e.g. ${example(sides)}.` };
  const faces: string[] = [];
  for (const [i, p] of parts.entries()) {
    let n = Number(p);
    if (!Number.isInteger(n)) return { error: `“${p}” is not a face of a die.` };
    if (n === 0 && (sides[i] === 10 || sides[i] === 100)) n = sides[i];
    if (n < 1 || n > sides[i]) return { error: `A d${sides[i]} shows 1 to ${sides[i]}; ${p} is not one of its faces.` };
    faces.push(String(n));
  }
  return { faces };
}

function example(sides: number[]): string {
  return sides.every((s) => s <= 10) ? sides.map((_, i) => String((i % 6) + 3)).join('').slice(0, sides.length) : sides.map((s) => String(Math.ceil(s / 2))).join(' ');
}

/** "Saxons’", "Kn 1’s": whose die it is. */
export const possessive = (name: string): string => (/s$/i.test(name) ? `${name}’` : `${name}’s`);
