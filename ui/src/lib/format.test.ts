import { describe, expect, it } from 'vitest';
import { andList, atLeast, measured, percent, plural, signed } from './format';

describe('format', () => {
  it('formats probabilities for display', () => {
    expect(percent(0)).toBe('0 %');
    expect(percent(0.0004)).toBe('< 0.1 %');
    expect(percent(0.25)).toBe('25.0 %');
    expect(percent(11 / 12)).toBe('91.7 %');
  });

  it('signs modifiers with a real minus', () => {
    expect(signed(2)).toBe('+2');
    expect(signed(-1)).toBe('−1');
    expect(signed(0)).toBe('0');
  });

  it('lists names as a sentence does', () => {
    expect(andList(['Anna'])).toBe('Anna');
    expect(andList(['Anna', 'Boris'])).toBe('Anna and Boris');
    expect(andList(['Anna', 'Boris', 'Carl'])).toBe('Anna, Boris and Carl');
  });

  it('agrees plurals with their number', () => {
    expect(plural(1, 'event')).toBe('1 event');
    expect(plural(3, 'event')).toBe('3 events');
    expect(plural(1, 'was', 'were')).toBe('1 was');
    expect(plural(2, 'was', 'were')).toBe('2 were');
  });

  it('accumulates "this result or better" from the best result down', () => {
    expect(atLeast([0.25, 0.5, 0.25])).toEqual([1, 0.75, 0.25]);
  });

  it('shows inch figures in centimetres too on a centimetre table, and only there', () => {
    expect(measured('Range 3"', 'cm')).toBe('Range 3" (7.6 cm)');
    expect(measured('Range 3"', 'inches')).toBe('Range 3"');
    expect(measured('120 paces = 40 mm, 3"', 'cm')).toBe('120 paces = 40 mm, 3"');
  });
});
