import { describe, expect, it } from 'vitest';
import { unit } from '../test-fixtures';
import { byPlace, fightText, livePicks, mayStayPut, movedEntry, movesFor, noPicks, oneUnit, pathOf, pathText, pickedAs, stackOf, testedUnit, togglePick, unitsMovingOf, unitsToMove } from './pick';

const units = {
  1: unit({ id: 1, label: 'Kn 1', side: 'Normans' }),
  2: unit({ id: 2, label: 'Kn 2', side: 'Normans' }),
  3: unit({ id: 3, label: 'Fyrd 1', side: 'Saxons' }),
  4: unit({ id: 4, label: 'Fyrd 2', side: 'Saxons', lost: true }),
};

describe('picking a fight', () => {
  it('takes the first side tapped as the attackers and the other as the defenders', () => {
    let p = togglePick(noPicks(), units[3], units);
    p = togglePick(p, units[1], units);
    p = togglePick(p, units[2], units);
    expect(p).toEqual({ attackers: [3], defenders: [1, 2] });
    expect(pickedAs(p, 2)).toBe('defender');
    expect(fightText(p, units)).toBe('Saxons: Fyrd 1 against Normans: Kn 1, Kn 2');
  });
  it('lets a second tap unpick, and "against" picks a defender of the same side', () => {
    let p = togglePick(noPicks(), units[1], units);
    p = togglePick(p, units[2], units, true);
    expect(p).toEqual({ attackers: [1], defenders: [2] });
    p = togglePick(p, units[1], units);
    expect(p).toEqual({ attackers: [], defenders: [2] });
    expect(pickedAs(p, 1)).toBeUndefined();
  });
  it('takes a test opened from a row as that one unit, and a fight as no such test', () => {
    expect(testedUnit(oneUnit(3))).toBe(3);
    expect(testedUnit(undefined)).toBeUndefined();
    expect(testedUnit({ attackers: [1], defenders: [3] })).toBeUndefined();
    expect(testedUnit({ attackers: [1, 2], defenders: [] })).toBeUndefined();
    expect(testedUnit({ attackers: [1], defenders: [], behind: [2] })).toBeUndefined();
  });
  it('drops units removed or lost since they were picked', () => {
    const { 2: _gone, ...rest } = units;
    expect(livePicks({ attackers: [1, 2], defenders: [3, 4] }, rest)).toEqual({ attackers: [1], defenders: [3] });
  });
  it('picks a stack whole with one tap, and lets one unit of it go with another', () => {
    const hexes = {
      1: unit({ id: 1, label: 'Pikes', side: 'Carthage', place: 'Hex 17.03' }),
      2: unit({ id: 2, label: 'Bows', side: 'Carthage', place: 'Hex 17.03' }),
      3: unit({ id: 3, label: 'Hanno', side: 'Carthage', place: 'Hex 17.03', role: 'leader' }),
      4: unit({ id: 4, label: 'Hastati', side: 'Rome', place: 'Hex 18.04' }),
      5: unit({ id: 5, label: 'Principes', side: 'Rome', place: 'Hex 18.04' }),
      6: unit({ id: 6, label: 'Triarii', side: 'Rome', place: 'Hex 18.05' }),
      7: unit({ id: 7, label: 'Velites', side: 'Rome', place: 'Hex 18.04', lost: true }),
      8: unit({ id: 8, label: 'Scouts', side: 'Rome' }),
      9: unit({ id: 9, label: 'Slingers', side: 'Rome' }),
    };
    expect(stackOf(hexes[4], hexes)).toEqual([4, 5]);
    expect(stackOf(hexes[8], hexes)).toEqual([8]);
    let p = togglePick(noPicks(), hexes[2], hexes);
    p = togglePick(p, hexes[5], hexes);
    expect(p).toEqual({ attackers: [2, 1], defenders: [5, 4] });
    p = togglePick(p, hexes[1], hexes);
    expect(p).toEqual({ attackers: [2], defenders: [5, 4] });
    // A unit already in the fight is not brought in twice.
    p = togglePick(p, hexes[6], hexes);
    expect(p.defenders).toEqual([5, 4, 6]);
    expect(byPlace(Object.values(hexes)).map(([place, us]) => [place, us.map((u) => u.id)])).toEqual([
      ['Hex 17.03', [1, 2, 3]],
      ['Hex 18.04', [4, 5, 7]],
      ['Hex 18.05', [6]],
      ['', [8, 9]],
    ]);
  });
});

describe('moving a unit between stacks', () => {
  const at = (id: number, label: string, side: string, hex: string | undefined, over = {}) =>
    unit({ id, label, side, place: hex ? `Hex ${hex}` : undefined, detail: { entry: { type: 'SD', count: 2, ...(hex ? { hex } : {}) }, state: {} }, ...over });
  const roster = {
    1: at(1, 'Pikes', 'Carthage', '17.03'),
    2: at(2, 'Bows', 'Carthage', '17.03'),
    3: at(3, 'Militia', 'Carthage', '22.18'),
    4: at(4, 'Guard', 'Carthage', '20.10', { lost: true }),
    5: at(5, 'Hastati', 'Rome', '18.04'),
    6: at(6, 'Loose', 'Carthage', undefined),
  };
  it('offers the other hexes of its own side, each once, by their words', () => {
    expect(movesFor(roster[1], roster, 'hex')).toEqual([{ value: '22.18', label: 'Hex 22.18' }]);
    expect(movesFor(roster[6], roster, 'hex').map((m) => m.value)).toEqual(['17.03', '22.18']);
    expect(movesFor(roster[5], roster, 'hex')).toEqual([]);
  });
  it('offers nothing where the system places no units, or for a lost unit', () => {
    expect(movesFor(roster[1], roster, null)).toEqual([]);
    expect(movesFor(roster[4], roster, 'hex')).toEqual([]);
  });
  it('moves the entry as it was, its place changed', () => {
    expect(movedEntry(roster[1], 'hex', '22.18')).toEqual({ type: 'SD', count: 2, hex: '22.18' });
    expect(roster[1].detail.entry).toEqual({ type: 'SD', count: 2, hex: '17.03' });
  });
  it('reads a move\'s hexes as typed in one line, in order', () => {
    expect(pathOf('19.05 20.05')).toEqual(['19.05', '20.05']);
    expect(pathOf(' 19.05,20.05 ;  21.06 ')).toEqual(['19.05', '20.05', '21.06']);
    expect(pathOf('  ')).toEqual([]);
    expect(pathText(pathOf('19.05, 20.05'))).toBe('19.05 20.05');
  });

  it('offers staying put only to a rout or break move given no hexes', () => {
    expect(mayStayPut({ kind: 'rout' }, [])).toBe(true);
    expect(mayStayPut({ kind: 'break' }, [])).toBe(true);
    expect(mayStayPut({ kind: 'rout' }, ['19.05'])).toBe(false);
    expect(mayStayPut({ kind: 'normal' }, [])).toBe(false);
    expect(mayStayPut(undefined, [])).toBe(false);
  });
});

describe('units moving of one entry (ITACS 4.3.3)', () => {
  it('is asked of one entry of more than one unit only', () => {
    const four = unit({ id: 5, label: 'Pikes', side: 'Carthage', strength: 4, starting: 4 });
    const one = unit({ id: 6, label: 'Bows', side: 'Carthage', strength: 1, starting: 1 });
    expect(unitsToMove([four])).toBe(4);
    expect(unitsToMove([one])).toBeUndefined();
    expect(unitsToMove([four, one])).toBeUndefined();
    const routing = unit({ id: 7, label: 'Hastati', side: 'Rome', strength: 3, starting: 3, detail: { entry: { type: 'SD', count: 3 }, state: { rout: true } } });
    expect(unitsToMove([routing])).toBeUndefined();
  });
  it('reads a blank as all of them, and keeps what is out of bounds for the sentence beside it', () => {
    expect(unitsMovingOf('')).toBeUndefined();
    expect(unitsMovingOf(' 2 ')).toBe(2);
    expect(unitsMovingOf('0')).toBe(0);
    expect(unitsMovingOf('-3')).toBe(0);
    expect(unitsMovingOf('9')).toBe(9);
  });
});
