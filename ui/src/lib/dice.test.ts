import { describe, expect, it } from 'vitest';
import { boxThrow, dieCaption, dieNames, faceName, faceWords, followLayout, pastFirstStage, possessive, setFace, shownThrown, splitDigits, thrownEarlier, thrownSoFar, typedFaces, wholeThrow } from './dice';

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
    // A minus is kept as typed, never dropped to make a face; a fraction is no face either.
    expect(typedFaces('-3', [6]).error).toBe('“-3” is not a face of a die: a die shows 1 or more.');
    expect(typedFaces('4 -3', [6, 6]).error).toBe('“-3” is not a face of a die: a die shows 1 or more.');
    expect(typedFaces('4-3', [6, 6])).toEqual({ faces: ['4', '3'] });
    expect(typedFaces('2.5', [6]).error).toContain('is not a face');
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
    // A leader's 2d6 for his life, after a unit's scatter d6: his two dice numbered, the unit's not.
    const leader = { sides: 6, thrower: 'b' as const, label: 'Vytautas', purpose: 'leader death' };
    expect(dieNames([{ sides: 6, thrower: 'b', label: 'Boyars', purpose: 'scatter' }, leader, leader], owners)).toEqual(['Boyars’ d6', 'Vytautas’ d6 1', 'Vytautas’ d6 2']);
  });
  it('is said as English says it', () => {
    expect(possessive('Saxons')).toBe('Saxons’');
    expect(possessive('Kn 1')).toBe('Kn 1’s');
  });
});

describe('dice asked in turn', () => {
  const d10 = (label: string, purpose: string) => ({ sides: 10, thrower: 'a' as const, label, purpose });
  it('resolves with the faces up to the first blank', () => {
    expect(thrownSoFar(['3', '7', ''])).toEqual([3, 7]);
    expect(thrownSoFar(['3', '', '4'])).toEqual([3]);
    expect(thrownSoFar(['', ''])).toBeUndefined();
    expect(thrownSoFar([])).toBeUndefined();
  });
  it('keeps the faces of the dice that stayed and blanks from the first that changed', () => {
    const rollOff = [d10('', 'roll-off'), d10('', 'roll-off')];
    const check = d10('Levies', 'stand-loss check');
    // The next stage appears: the roll-off's faces stay, its die is blank.
    expect(followLayout(rollOff, [...rollOff, check], ['3', '7'])).toEqual(['3', '7', '']);
    // An earlier face changed and the chain now asks a recoil d100 where the check was.
    const recoil = { sides: 100, thrower: 'a' as const, label: 'Levies', purpose: 'recoil test' };
    expect(followLayout([...rollOff, check], [...rollOff, recoil], ['3', '7', '5'])).toEqual(['3', '7', '']);
    // A first layout keeps the faces by place.
    expect(followLayout(undefined, rollOff, ['4'])).toEqual(['4', '']);
    // The app rolled the whole chain: the next stage's die, laid out only now, keeps its face.
    expect(followLayout(rollOff, [...rollOff, check], ['3', '7', '5'])).toEqual(['3', '7', '5']);
    // The app rolled over a chain typed before: its recoil where the typed faces asked for a
    // check is its own throw, kept (the typed faces' layout does not blank it).
    expect(followLayout([...rollOff, check], [...rollOff, recoil], ['3', '7', '64'], ['3', '7', '64'])).toEqual(['3', '7', '64']);
    // Faces no longer the roll's (a die typed over it) are followed as ever, roll given or not.
    expect(followLayout([...rollOff, check], [...rollOff, recoil], ['3', '2', '64'], ['3', '7', '64'])).toEqual(['3', '2', '']);
  });
  it('clears the later stages after a face changed in a chain, and only in a chain', () => {
    const chain = [d10('', 'roll-off'), d10('', 'roll-off'), d10('Levies', 'stand-loss check'), { sides: 100, label: 'Levies', purpose: 'recoil test' }];
    expect(setFace(['3', '7', '5', '60'], 1, '2', chain)).toEqual(['3', '2', '', '']);
    // The other die of the same stage stays.
    expect(setFace(['3', '7', '5', '60'], 0, '2', chain)).toEqual(['2', '7', '', '']);
    expect(setFace(['3', '7'], 0, '2')).toEqual(['2', '7']);
  });
  it('shows a stage small once a later one is laid out, and reads a chain’s d10 digits whole', () => {
    const chain = [d10('', 'roll-off'), d10('', 'roll-off'), d10('Levies', 'stand-loss check')];
    expect([0, 1, 2].map((i) => thrownEarlier(chain, ['3', '7', ''], i))).toEqual([true, true, false]);
    expect(thrownEarlier(chain.slice(0, 2), ['3', '7'], 0)).toBe(false);
    // Past its first stage: the first throw's odds are settled.
    expect(pastFirstStage(chain, ['3', '7', ''])).toBe(true);
    expect(pastFirstStage(chain.slice(0, 2), ['3', ''])).toBe(false);
    // Thrown to its result, the last stage is shown small too; before it, its pad stays open.
    expect([0, 1, 2].map((i) => shownThrown(chain, ['3', '7', '5'], i, true))).toEqual([true, true, true]);
    expect([0, 1, 2].map((i) => shownThrown(chain, ['3', '7', '5'], i, false))).toEqual([true, true, false]);
    expect(typedFaces('10', [10, 10], splitDigits([10, 10], true))).toEqual({ faces: undefined });
    expect(typedFaces('10 5', [10, 10], splitDigits([10, 10], true))).toEqual({ faces: ['10', '5'] });
    expect(typedFaces('43', [6, 6], splitDigits([6, 6], true))).toEqual({ faces: ['4', '3'] });
  });
  it('names what a die is thrown for', () => {
    expect(dieCaption('Levies’ d10', d10('Levies', 'stand-loss check'))).toBe('Levies’ d10 · stand-loss check');
    expect(dieCaption('d10', { sides: 10 })).toBe('d10');
  });

  it('names each face where the rules do (a frenzied elephant’s heading, GTS 4.46)', () => {
    const heading = { sides: 8, label: 'War elephant', purpose: 'rampage heading, its facing as North', face_names: ['N (straight ahead)', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] };
    expect(faceName(heading, '1')).toBe('N (straight ahead)');
    expect(faceName(heading, '8')).toBe('NW');
    expect(faceName(heading, '')).toBeUndefined();
    expect(faceWords(heading, '2')).toBe('2 (NE)');
    // A die whose faces are only numbers shows the number.
    expect(faceName({ sides: 10 }, '3')).toBeUndefined();
    expect(faceWords({ sides: 10 }, '3')).toBe('3');
  });
});
