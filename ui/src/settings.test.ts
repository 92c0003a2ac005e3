import { describe, expect, it } from 'vitest';
import { DEFAULTS, readSetting, renderSettings, sanitize, themeFor } from './settings';

describe('settings', () => {
  it('fall back to defaults for a damaged or foreign store, field by field', () => {
    expect(sanitize(undefined)).toEqual(DEFAULTS);
    expect(sanitize('garbage')).toEqual(DEFAULTS);
    expect(sanitize({ theme: 'neon', diceMode: 'app', confirmApply: 'yes', units: 'cm', extra: 1 })).toEqual({ ...DEFAULTS, diceMode: 'app', units: 'cm' });
  });

  it('follow the system theme when asked', () => {
    expect(themeFor('system', true)).toBe('light');
    expect(themeFor('system', false)).toBe('dark');
    expect(themeFor('light', false)).toBe('light');
  });

  it('render every preference with the current choice selected', () => {
    const html = renderSettings({ ...DEFAULTS, confirmApply: true }, ['rulesets/itacs.toml']);
    expect(html).toMatch(/data-setting="confirmApply">[^]*<option value="true" selected>/);
    expect(html).toContain('rulesets/itacs.toml');
    expect(readSetting('confirmApply', 'false')).toBe(false);
  });
});
