// Numbers and words for display: probabilities, signed modifiers, plurals, inches and centimetres.
// Pure, so it is unit-tested.

export const signed = (n: number): string => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

/** A probability for display: "91.7 %", "0 %", "< 0.1 %". */
export function percent(p: number): string {
  if (p === 0) return '0 %';
  if (p < 0.001) return '< 0.1 %';
  return `${(p * 100).toFixed(1)} %`;
}

/** Names as a sentence lists them: "Anna", "Anna and Boris", "Anna, Boris and Carl". */
export function andList(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** "1 event", "2 events"; irregular plurals are given ("1 was", "2 were"). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The table's units from Settings. The rules measure in inches; on a table measured in
 * centimetres every inch figure also shows in cm. */
let tableUnits: 'inches' | 'cm' = 'inches';
export function setTableUnits(units: 'inches' | 'cm'): void {
  tableUnits = units;
}

/** `3"` → `3" (7.6 cm)` on a centimetre table; a text that already gives millimetres (DBMM
 * distances) is left as it is. */
export function measured(text: string, units: 'inches' | 'cm' = tableUnits): string {
  if (units !== 'cm' || /\d mm\b/.test(text)) return text;
  return text.replace(/(\d+(?:\.\d+)?)"/g, (inches, n: string) => `${inches} (${Number((Number(n) * 2.54).toFixed(1))} cm)`);
}

/** "At least this good for the attacker": cumulative from the best result down. */
export function atLeast(ps: number[]): number[] {
  const out = new Array<number>(ps.length).fill(0);
  let acc = 0;
  for (let i = ps.length - 1; i >= 0; i--) {
    acc += ps[i];
    out[i] = acc;
  }
  return out;
}

/** A time stamp of the log ("2026-11-21T10:04:05.123Z") as the clock on the wall reads it. */
export const clock = (at: string): string => at.slice(11, 16);

/** A date and time for the battles list. */
export const when = (at: string): string => at.slice(0, 16).replace('T', ' ');
