// Every typed field is checked before anything is sent, against the API's own bounds, and refused
// in one sentence — the tester's inputs first: negative, fractional, huge, empty, a minus kept.
import { describe, expect, it } from 'vitest';
import { FIELD_LIMITS } from '../generated/api';
import { bounds, checkFaces, checkName, checkNumber, grouped, numberWords, waitingFor } from './fields';
import { devText } from './words';

const panic = { label: 'Panic level', min: 0, max: FIELD_LIMITS.value_max };
const bonus = { label: 'Leader bonus', min: 0, max: 100 };
const quantity = { label: 'The number of units to add', min: 1, max: 50, required: true };
const valour = { label: 'Leader’s valour', min: -2, max: 2 };

describe('number fields', () => {
  it('says what the field takes in the words the API uses', () => {
    expect(numberWords(panic)).toBe('Panic level must be a whole number from 0 to 10,000.');
    expect(numberWords({ label: 'Range', whole: false })).toBe('Range must be a number from -10,000 to 10,000.');
    expect(grouped(1234567)).toBe('1,234,567');
    expect(grouped(-10000)).toBe('-10,000');
  });

  it('keeps a bound within the ±value_max every value keeps to', () => {
    expect(bounds({ label: 'x' })).toEqual([-FIELD_LIMITS.value_max, FIELD_LIMITS.value_max]);
    expect(bounds({ label: 'x', min: 0, max: 4_294_967_295 })).toEqual([0, FIELD_LIMITS.value_max]);
    expect(bounds({ label: 'x', min: null, max: 6 })).toEqual([-FIELD_LIMITS.value_max, 6]);
  });

  // The tester's inputs: each refused as typed, never clamped, rounded or stripped of its sign.
  it.each([
    ['-5', panic, 'Panic level must be a whole number from 0 to 10,000.'],
    ['5000000000', panic, 'Panic level must be a whole number from 0 to 10,000.'],
    ['10001', panic, 'Panic level must be a whole number from 0 to 10,000.'],
    ['-3', quantity, 'The number of units to add must be a whole number from 1 to 50.'],
    ['2.7', quantity, 'The number of units to add must be a whole number from 1 to 50.'],
    ['', quantity, 'The number of units to add must be a whole number from 1 to 50.'],
    ['-5', bonus, 'Leader bonus must be a whole number from 0 to 100.'],
    ['2.5', bonus, 'Leader bonus must be a whole number from 0 to 100.'],
    ['9999999', { label: 'Strength points (SP)', min: 1, max: 6 }, 'Strength points (SP) must be a whole number from 1 to 6.'],
    ['-2', { label: 'Movement points', min: 0, max: 10_000 }, 'Movement points must be a whole number from 0 to 10,000.'],
    ['abc', bonus, 'Leader bonus must be a whole number from 0 to 100.'],
    ['-', valour, 'Leader’s valour must be a whole number from -2 to 2.'],
    ['1e3', panic, 'Panic level must be a whole number from 0 to 10,000.'],
    ['3', valour, 'Leader’s valour must be a whole number from -2 to 2.'],
  ])('refuses “%s”', (text, rule, error) => {
    const checked = checkNumber(text, rule);
    expect(checked).toEqual({ error });
    expect(devText(error)).toBeUndefined();
  });

  it('takes a number of the field as it is typed, a minus kept', () => {
    expect(checkNumber('20', panic)).toEqual({ value: 20 });
    expect(checkNumber(' 0 ', panic)).toEqual({ value: 0 });
    expect(checkNumber('-2', valour)).toEqual({ value: -2 });
    expect(checkNumber('−1', valour)).toEqual({ value: -1 });
    expect(checkNumber('+2', valour)).toEqual({ value: 2 });
    expect(checkNumber('10000', panic)).toEqual({ value: 10_000 });
    expect(checkNumber('1.5', { label: 'Range', whole: false })).toEqual({ value: 1.5 });
  });

  it('leaves a field that may be empty empty, and refuses an empty one that may not', () => {
    expect(checkNumber('', panic)).toEqual({});
    expect(checkNumber('  ', panic)).toEqual({});
    expect(checkNumber('', { ...panic, required: true }).error).toBe(numberWords(panic));
  });
});

describe('names', () => {
  it('asks for a name, within the API’s length, on one line', () => {
    expect(checkName('Hastings', 'battle')).toBeUndefined();
    expect(checkName('', 'battle')).toBe('Name the battle: it cannot be left empty.');
    expect(checkName('   ', 'first side')).toBe('Name the first side: it cannot be left empty.');
    expect(checkName('', 'unit', false)).toBeUndefined();
    expect(checkName('x'.repeat(FIELD_LIMITS.name_max_chars), 'battle')).toBeUndefined();
    expect(checkName('x'.repeat(FIELD_LIMITS.name_max_chars + 1), 'battle')).toBe(`The battle’s name is 201 characters long; a name takes at most ${FIELD_LIMITS.name_max_chars}.`);
    expect(checkName('Cannae\tday 2', 'battle')).toBe('The battle’s name must be on one line, without tabs.');
  });
});

describe('the faces of an edited roll', () => {
  it('takes whole faces from 1 up and refuses the rest as typed', () => {
    expect(checkFaces('6, 6')).toEqual({ value: [6, 6] });
    expect(checkFaces('3 4')).toEqual({ value: [3, 4] });
    expect(checkFaces('abc')).toEqual({ error: '“abc” is not a face of a die: type the numbers the dice showed, e.g. 6, 6.' });
    expect(checkFaces('6, -3').error).toMatch(/^“-3” is not a face/);
    expect(checkFaces('0').error).toMatch(/^“0” is not a face/);
    expect(checkFaces('2.5').error).toMatch(/^“2.5” is not a face/);
    expect(checkFaces('99999999999').error).toMatch(/is not a face/);
    expect(checkFaces('').error).toBe('Type the faces the dice showed, e.g. 6, 6.');
  });
});

describe('why a button waits', () => {
  it('names the fields refused now, none when all are right', () => {
    expect(waitingFor({ a: undefined })).toBeUndefined();
    expect(waitingFor({ panic: 'x' }, { panic: 'the panic level' })).toBe('Correct the panic level first: it is marked in red.');
    expect(waitingFor({ a: 'x', b: 'y', c: 'z' }, { a: 'A', b: 'B', c: 'C' })).toBe('Correct A, B and C first: they are marked in red.');
  });
});
