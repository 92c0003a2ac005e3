import { describe, expect, it } from 'vitest';
import { boxThrow, dieNames, possessive, typedFaces, wholeThrow } from './dice';

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
    expect(typedFaces('435', [6, 6]).error).toBe('That is 3 dice; this throw is 2 dice, e.g. 34.');
    expect(typedFaces('4 3 2', [6, 6]).error).toBe('That is 3 dice; this throw is 2 dice, e.g. 34.');
    // A face no die shows is wrong before the rest of the throw is typed.
    expect(typedFaces('9', [6, 6]).error).toBe('A d6 shows 1 to 6; 9 is not one of its faces.');
    expect(typedFaces('4x', [6, 6]).error).toContain('is not a face');
  });
});

describe('the throw the box holds', () => {
  it('is every die blank unless the box holds a whole throw', () => {
    expect(boxThrow('43', [6, 6])).toEqual({ faces: ['4', '3'] });
    expect(boxThrow('', [6, 6])).toEqual({ faces: ['', ''] });
    expect(boxThrow('4', [6, 6])).toEqual({ faces: ['', ''] });
    expect(boxThrow('4 3 2', [6, 6])).toEqual({ faces: ['', ''], error: 'That is 3 dice; this throw is 2 dice, e.g. 34.' });
    expect(wholeThrow(['4', '3'])).toEqual([4, 3]);
    expect(wholeThrow(['4', ''])).toBeUndefined();
    expect(wholeThrow([])).toBeUndefined();
  });
});

describe('whose die', () => {
  it('is named by its unit, its side, or its place in the throw', () => {
    const owners = { a: 'Romans', b: 'Gauls' };
    expect(dieNames([{ sides: 100, thrower: 'a', label: 'Hastati' }, { sides: 100, thrower: 'b', label: 'Gauls 1' }], owners)).toEqual(['Hastati’s d100', 'Gauls 1’s d100']);
    expect(dieNames([{ sides: 6, thrower: 'a' }, { sides: 6, thrower: 'b' }], owners)).toEqual(['Romans’ d6', 'Gauls’ d6']);
    expect(dieNames([{ sides: 10, thrower: 'a' }, { sides: 10, thrower: 'a' }, { sides: 10, thrower: 'b' }], owners)).toEqual(['Romans’ d10 1', 'Romans’ d10 2', 'Gauls’ d10']);
    expect(dieNames([{ sides: 6 }, { sides: 6 }], owners)).toEqual(['Die 1', 'Die 2']);
    expect(dieNames([{ sides: 10 }], owners)).toEqual(['d10']);
  });
  it('is said as English says it', () => {
    expect(possessive('Saxons')).toBe('Saxons’');
    expect(possessive('Kn 1')).toBe('Kn 1’s');
  });
});
