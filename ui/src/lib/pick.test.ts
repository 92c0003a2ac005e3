import { describe, expect, it } from 'vitest';
import { unit } from '../test-fixtures';
import { fightText, livePicks, noPicks, pickedAs, togglePick } from './pick';

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
  it('drops units removed or lost since they were picked', () => {
    const { 2: _gone, ...rest } = units;
    expect(livePicks({ attackers: [1, 2], defenders: [3, 4] }, rest)).toEqual({ attackers: [1], defenders: [3] });
  });
});
