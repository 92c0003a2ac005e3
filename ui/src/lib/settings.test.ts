import { describe, expect, it } from 'vitest';
import type { SystemInfo } from '../generated/api';
import { DEFAULTS, houseRuleChoice, readSetting, sanitize, scaleFor, shortName, themeFor } from './settings';

describe('settings', () => {
  it('fall back to defaults for a damaged or foreign store, field by field', () => {
    expect(sanitize(undefined)).toEqual(DEFAULTS);
    expect(sanitize('garbage')).toEqual(DEFAULTS);
    expect(sanitize({ theme: 'neon', diceMode: 'app', confirmApply: 'yes', units: 'cm', extra: 1 })).toEqual({ ...DEFAULTS, diceMode: 'app', units: 'cm' });
    expect(sanitize({ houseRules: { 'a.toml': true, 'b.toml': 'yes', 'c.toml': false } }).houseRules).toEqual({ 'a.toml': true, 'c.toml': false });
    expect(sanitize({ houseRules: ['a.toml'] }).houseRules).toEqual({});
  });

  it('follow the system theme when asked', () => {
    expect(themeFor('system', true)).toBe('light');
    expect(themeFor('system', false)).toBe('dark');
    expect(themeFor('light', false)).toBe('light');
  });

  it('read a chosen value as its type, and name systems shortly', () => {
    expect(readSetting('confirmApply', 'false')).toBe(false);
    expect(readSetting('confirmApply', 'true')).toBe(true);
    expect(readSetting('theme', 'light')).toBe('light');
    const systems = [{ id: 'itacs', name: 'ITACS — Improved Tactical System' }] as SystemInfo[];
    expect(shortName(systems, 'itacs')).toBe('ITACS');
    expect(shortName(systems, 'gts')).toBe('gts');
  });

  it('ask the referee for what was ticked and unticked, leaving the rest to their defaults', () => {
    expect(houseRuleChoice(DEFAULTS)).toEqual({ on: [], off: [] });
    expect(houseRuleChoice({ ...DEFAULTS, houseRules: { 'a.toml': true, 'b.toml': false } })).toEqual({ on: ['a.toml'], off: ['b.toml'] });
  });

  it('pick the ruleset figure scale that covers the table figures', () => {
    const dbmm = ['15mm', '25mm'];
    expect(scaleFor('6mm', dbmm)).toBe('15mm');
    expect(scaleFor('15mm', dbmm)).toBe('15mm');
    expect(scaleFor('25mm', dbmm)).toBe('25mm');
    expect(scaleFor('28mm', dbmm)).toBe('25mm');
    expect(scaleFor('15mm', [])).toBeUndefined();
  });
});
