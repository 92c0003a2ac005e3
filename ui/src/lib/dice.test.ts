import { describe, expect, it } from 'vitest';
import { possessive, typedFaces } from './dice';

describe('the dice as the table throws them', () => {
  it.each([
    ['43', [6, 6], ['4', '3']],
    ['4 3', [6, 6], ['4', '3']],
    ['4,3', [6, 6], ['4', '3']],
    ['07', [10, 10], ['10', '7']],
    ['10 7', [10, 10], ['10', '7']],
    ['57', [100], ['57']],
    ['00', [100], ['100']],
    ['5', [6], ['5']],
  ])('reads %s for dice %j', (text, sides, faces) => {
    expect(typedFaces(text, sides)).toEqual({ faces });
  });
  it('waits for a whole throw and says what is wrong with an impossible one', () => {
    expect(typedFaces('4', [6, 6])).toEqual({});
    expect(typedFaces('', [6, 6])).toEqual({});
    expect(typedFaces('47', [6, 6]).error).toBe('A d6 shows 1 to 6; 7 is not one of its faces.');
    expect(typedFaces('435', [6, 6]).error).toBe('Type 2 dice, e.g. 34.');
    expect(typedFaces('4x', [6, 6]).error).toContain('is not a face');
  });
});

describe('whose die', () => {
  it('is said as English says it', () => {
    expect(possessive('Saxons')).toBe('Saxons’');
    expect(possessive('Kn 1')).toBe('Kn 1’s');
  });
});
