import { describe, expect, it } from 'vitest';
import type { HouseRuleInfo, SystemInfo } from './generated/api';
import { DEFAULTS, houseRuleChoice, readSetting, renderSettings, sanitize, scaleFor, themeFor } from './settings';

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

  const itacs = { id: 'itacs', name: 'ITACS', fingerprint: 'f00d', layers: ['rulesets/itacs.toml', 'rulesets/switches/forbid.toml'] } as SystemInfo;
  const forbid: HouseRuleInfo = { file: 'rulesets/switches/forbid.toml', extends: 'itacs', name: 'Forbid attacks below 1:2', ruling: 'R-ITACS-1', description: 'Refused.', switch: true, on: true };
  const club: HouseRuleInfo = { file: '/data/rulesets/club.toml', extends: 'itacs', name: 'Our <club>', switch: false, on: false };

  it('render every preference with the current choice selected', () => {
    const html = renderSettings({ ...DEFAULTS, confirmApply: true }, { systems: [itacs], house_rules: [forbid, club] });
    expect(html).toMatch(/data-setting="confirmApply">[^]*<option value="true" selected>/);
    expect(readSetting('confirmApply', 'false')).toBe(false);
  });

  it('list switchable rulings and house-rule files as boxes ticked when in force', () => {
    const html = renderSettings(DEFAULTS, { systems: [itacs], house_rules: [forbid, club] });
    const [switches, files] = html.split('House-rule files');
    expect(switches).toMatch(/data-house-rule="rulesets\/switches\/forbid.toml" checked>[^]*R-ITACS-1[^]*Forbid attacks below 1:2/);
    expect(files).toMatch(/data-house-rule="\/data\/rulesets\/club.toml">[^]*Our &lt;club&gt;/);
    expect(html).toContain('ITACS: <code>rulesets/itacs.toml</code> + <code>rulesets/switches/forbid.toml</code>');
    const empty = renderSettings(DEFAULTS, { systems: [itacs], house_rules: [] });
    expect(empty).toContain('None yet');
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
