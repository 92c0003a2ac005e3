import { describe, expect, it } from 'vitest';
import type { Effect, Outcome, Resolution } from '../generated/api';
import { unit } from '../test-fixtures';
import { applyLabel, detailsTitle, effectsByTarget, forDiceShown, nameColumnRem, oddsSummary, oddsTitle, resultName, resultWords, throwLine } from './result';

const outcome = (over: Partial<Outcome>): Outcome => ({ dice: [4, 3], roll: 7, modified: 9, result: 'DX', meaning: '', effects: [], ...over });
/** A resolution as the core sends it: each result named in words by the core. */
const resolved = (dice: string, names: Record<string, string>): Resolution => ({ dice, names, faces: [], distribution: [] }) as unknown as Resolution;

describe('a result in words', () => {
  it('reads an opposed roll side by side and a single throw with its modifier', () => {
    expect(throwLine(outcome({ sides: [{ label: 'A', die: 7, modifier: 2, total: 9 }, { label: 'B', die: 5, modifier: -4, total: 1 }] }), 0)).toBe('A 7 + 2 = 9 · B 5 − 4 = 1');
    expect(throwLine(outcome({}), 2)).toBe('Dice 4 + 3 = 7, +2 → 9');
    // A chain's follow-up die (a Medieval scatter d6) follows the roll, not added into it.
    expect(throwLine(outcome({ dice: [3, 4, 1], roll: 7, modified: 7 }), 0)).toBe('Dice 3 + 4 = 7, then 1');
    // GTS: each side as the core names it; a total below 1 counts as 1.
    expect(throwLine(outcome({ sides: [{ label: 'Hoplites 1', die: 10, modifier: 0, total: 10 }, { label: 'Immortals 2', die: 1, modifier: -3, total: 1 }] }), 0)).toBe('Hoplites 1 10 + 0 = 10 · Immortals 2 1 − 3 = −2 (at least 1)');
    expect(throwLine(outcome({ dice: [57], roll: 57, modified: 57 }), 0)).toBe('Dice 57');
    // An answer with no dice (the weather, the hour) shows no throw at all, not "Dice 0".
    expect(throwLine(outcome({ dice: [], roll: 0, modified: 0 }), 0)).toBe('');
  });
  it('names a result in the core’s words, a result it did not name as it is', () => {
    const r = resolved('2d6', { recoil_or_spent: 'Recoil or spent', '1D': '1D' });
    expect(resultName(r, 'recoil_or_spent')).toBe('Recoil or spent');
    expect(resultName(r, '1D')).toBe('1D');
    expect(resultName(r, 'A2R')).toBe('A2R');
    // A key made of values (GTS's hits each side takes) is never shown: its words are.
    const gts = resolved('d10 v d10', { hits_0_9: 'Immortals 2 takes 9' });
    expect(resultName(gts, 'hits_0_9')).toBe('Immortals 2 takes 9');
  });
  it('offers to apply a result that changes units, and only to record one that does not', () => {
    const effect = { target: 'defender', change: { kind: 'destroy_all' }, text: 'Defender: destroyed', rule: '4.5' } as unknown as Effect;
    const r = resolved('2d6', { DX: 'DX', destroyed: 'Destroyed', NE: 'NE' });
    expect(applyLabel(r, outcome({ effects: [effect] }))).toBe('Apply DX');
    expect(applyLabel(r, outcome({ result: 'destroyed', effects: [effect] }))).toBe('Apply Destroyed');
    expect(applyLabel(r, outcome({ result: 'NE' }))).toBe('Record NE in the log');
    expect(applyLabel(resolved('', { weather: 'Weather' }), outcome({ result: 'weather', dice: [] }))).toBe('Record in the log');
    // A result named in a sentence naming the units keeps the button short: its code.
    const words = resolved('2d6', { '-1/D2': 'Knights loses 1 SP; Boyars retreats 2 hexes (-1/D2)' });
    expect(applyLabel(words, outcome({ result: '-1/D2', effects: [effect] }))).toBe('Apply -1/D2');
    // A long name whose key is no printed code: never the key on the button.
    const keyed = resolved('d6 v d6', { 'repulsed_or_recoil/stand': 'Repulsed or recoil / Stand' });
    expect(applyLabel(keyed, outcome({ result: 'repulsed_or_recoil/stand', effects: [effect] }))).toBe('Apply the result');
    const hits = resolved('d10 v d10', { hits_3_1: 'Spartan hoplites 1 takes 3, Immortals 2 takes 1' });
    expect(applyLabel(hits, outcome({ result: 'hits_3_1', effects: [effect] }))).toBe('Apply the result');
    // DBMM's time of day applied to a battle sets its clock: the button says so, not "Apply Day".
    const clock = { target: 'battle', change: { kind: 'battle_clock', start: '15:50', climate: 'Cold', season: 'Winter' }, text: '', rule: 'p. 23' } as unknown as Effect;
    const daylight = resolved('', { day: 'Day' });
    expect(applyLabel(daylight, outcome({ result: 'day', dice: [], effects: [clock] }))).toBe('Set the battle’s clock');
    expect(applyLabel(daylight, outcome({ result: 'day', dice: [], effects: [clock, effect] }))).toBe('Apply Day');
  });
  it('gathers effects by target, named by the units they land on', () => {
    const units = { 1: unit({ id: 1, label: 'Kn 1', side: 'Normans' }), 2: unit({ id: 2, label: 'Fyrd 1', side: 'Saxons' }) };
    const effects = [
      { target: 'defender', change: { kind: 'd_markers', count: 1 }, text: 'Defender: 1 D marker', rule: '4.5' },
      { target: 'defender', change: { kind: 'retreat', hexes: 1 }, text: 'Defender: retreats 1 hex', rule: '4.5' },
      { target: { unit: 'Kn 1' }, change: { kind: 'break' }, text: 'Kn 1: breaks', rule: '5.2' },
      { target: 'attacker', change: { kind: 'break' }, text: 'Attacker: breaks', rule: '5.2' },
    ] as unknown as Effect[];
    const got = effectsByTarget(effects, { defender: [2], 'unit:Kn 1': [1] }, units);
    expect(got.map((g) => [g.who, g.side, g.texts.length])).toEqual([['Fyrd 1', 'Saxons', 2], ['Kn 1', 'Normans', 1], ['The attacker', '', 1]]);
  });
  it('says what a result did to which units: the core’s name, or each target’s changes with the code as a tag', () => {
    const units = { 1: unit({ id: 1, label: 'SD front', side: 'Romans' }), 2: unit({ id: 2, label: 'PS 1', side: 'Gauls' }), 3: unit({ id: 3, label: 'PS 2', side: 'Gauls' }) };
    const effects = [
      { target: 'defender', change: { kind: 'lose_units', count: 2, chosen_by: 'defender' }, text: "Defender: lose 2 units (defender's choice)", what: "lose 2 units (defender's choice)", rule: '10.7' },
      { target: 'defender', change: { kind: 'must_break' }, text: 'Defender: must break', what: 'must break', rule: '10.7' },
      { target: 'attacker', change: { kind: 'd_markers', count: 2 }, text: 'Attacker: +2 D markers', what: '+2 D markers', rule: '10.7' },
    ] as unknown as Effect[];
    // D2XB: the rule's paragraph gives both cases; the words say only what happens here.
    const meaning = 'Two defending units are destroyed …. With only one defending unit, it is destroyed and the attacker loses nothing.';
    const words = resultWords(resolved('2d6', { D2XB: 'D2XB' }), outcome({ result: 'D2XB', meaning, effects }), { attacker: [1], defender: [2, 3] }, units);
    expect(words.code).toBe('D2XB');
    expect(words.headline).toBe("PS 1, PS 2: lose 2 units (defender's choice), must break; SD front: +2 D markers");
    expect(words.lines.map((l) => l.side)).toEqual(['Gauls', 'Romans']);
    expect(words.headline).not.toContain('With only one');
    // A result the core names in words keeps its name, with no tag.
    const dbmm = resultWords(resolved('d6 v d6', { 'recoil/stand': 'Kn 1 recoils; Fyrd 1 stands' }), outcome({ result: 'recoil/stand', effects }), {}, units);
    expect([dbmm.headline, dbmm.code]).toEqual(['Kn 1 recoils; Fyrd 1 stands', undefined]);
    // A code that changes nothing reads as its meaning.
    expect(resultWords(resolved('2d6', { '-': '-' }), outcome({ result: '-', meaning: 'no effect' }), {}, units).headline).toBe('No effect.');
  });
  it('sums the odds up by the likeliest results', () => {
    expect(oddsSummary([{ result: 'a', p: 0.1 }, { result: 'b', p: 0.5 }, { result: 'c', p: 0 }, { result: 'd', p: 0.4 }], 2).map((d) => d.result)).toEqual(['b', 'd']);
  });
});

describe('a result in the table view', () => {
  it('says a named result by its name, and this throw in its own words when they say more', () => {
    const r = resolved('2d6', { D2: 'Boyars retreats 2 hexes (D2)' });
    const o = outcome({ result: 'D2', meaning: 'Boyars retreats 2 hexes. Scatter d6 1 (Boyars): Boyars scattered.' });
    const w = resultWords(r, o, {}, {});
    expect([w.headline, w.detail]).toEqual(['Boyars retreats 2 hexes (D2)', 'Boyars retreats 2 hexes. Scatter d6 1 (Boyars): Boyars scattered.']);
    expect(resultWords(r, outcome({ result: 'D2', meaning: 'Boyars retreats 2 hexes (D2)' }), {}, {}).detail).toBeUndefined();
  });
});

describe('the result shown', () => {
  it('is the one worked out from the dice shown, else the odds alone', () => {
    const r = { ...resolved('2d6', {}), outcome: outcome({}) } as Resolution;
    expect(forDiceShown(r, [4, 3], [4, 3])?.outcome).toBeDefined();
    expect(forDiceShown(r, [4, 3], undefined)?.outcome).toBeUndefined();
    expect(forDiceShown(r, [4, 3], [6, 6])?.outcome).toBeUndefined();
    expect(forDiceShown(r, [4, 3], [6, 6])?.dice).toBe('2d6');
    // An answer without dice is shown as it is.
    const certain = { ...resolved('', {}), outcome: outcome({ dice: [] }) } as Resolution;
    expect(forDiceShown(certain, undefined, undefined)?.outcome).toBeDefined();
  });
});

describe('the headings over the results', () => {
  const one = [{ result: 'moves', meaning: 'The move is allowed.', rolls: '—', probability: '1/1', p: 1, effects: [] }];
  it('speak of odds only where dice decide', () => {
    expect(oddsTitle({ dice: '2d6', distribution: one })).toBe('Odds of every result');
    expect(detailsTitle({ dice: '2d6', distribution: one })).toBe('Modifiers and the odds of every result');
  });
  it('call a move without dice its result, and its fold how the rules reach it', () => {
    expect(oddsTitle({ dice: '', distribution: one })).toBe('The result');
    expect(oddsTitle({ dice: '', distribution: [...one, { ...one[0], result: 'stops' }] })).toBe('Every possible result');
    expect(detailsTitle({ dice: '', distribution: one })).toBe('How the rules reach it');
  });
});

describe('the odds table\'s column of result names', () => {
  it('keeps short codes as they were and makes room for a name in words', () => {
    expect(nameColumnRem(['-1/D2', 'D1', 'NE'])).toBe(3.6);
    expect(nameColumnRem(['Obligatory', 'Voluntary', 'No pursuit'])).toBeGreaterThanOrEqual(6.6);
    expect(nameColumnRem(['Voluntary'])).toBeGreaterThan(5.5);
    expect(nameColumnRem(['A name far too long to sit beside its dice'])).toBe(10);
    expect(nameColumnRem([])).toBe(3.6);
  });
});
