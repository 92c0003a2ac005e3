// The terrain the umpire last gave each hex of a battle, so the next fight on those units opens
// with it (a defending hex's woods, a target in mud): every labelled part of a situation with a
// terrain, whatever the system. Kept while the app runs. Pure.

/** Hex label → terrain key. */
export type Terrains = Record<string, string>;

function walk(value: unknown, visit: (part: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) value.forEach((v) => walk(v, visit));
  else if (value && typeof value === 'object') {
    const part = value as Record<string, unknown>;
    visit(part);
    Object.values(part).forEach((v) => walk(v, visit));
  }
}

/** The terrain given to each labelled hex of a situation. */
export function terrainsOf(situation: unknown): Terrains {
  const out: Terrains = {};
  walk(situation, (part) => {
    if (typeof part.label === 'string' && part.label && typeof part.terrain === 'string' && part.terrain) out[part.label] = part.terrain;
  });
  return out;
}

/** The situation with each labelled hex given the terrain remembered for it; a copy. */
export function withTerrains<T>(situation: T, remembered: Terrains): T {
  const copy = structuredClone(situation);
  walk(copy, (part) => {
    const known = typeof part.label === 'string' ? remembered[part.label] : undefined;
    if (known !== undefined && typeof part.terrain === 'string') part.terrain = known;
  });
  return copy;
}
