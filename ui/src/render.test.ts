import { describe, expect, it } from 'vitest';
import type { Resolution } from './generated/api';
import { atLeast, escape, measured, percent, renderError, renderResolution, setTableUnits } from './render';

const resolution: Resolution = {
  system: 'itacs', action: 'melee', dice: '2d6',
  totals: [{ label: 'Attack strength', value: '24', rule: '4.5.10' }],
  modifiers: [{ label: 'Combat ratio (3:1)', value: 2, rule: '10.5', ruling: 'R-ITACS-1' }, { label: 'Terrain: <Clear>', value: 0, rule: '10.3' }],
  total_modifier: 2,
  distribution: [
    { result: 'AD', meaning: 'a', rolls: '4', probability: '1/4', p: 0.25, effects: [] },
    { result: 'DX', meaning: 'b', rolls: '5–14', probability: '3/4', p: 0.75, effects: [] },
  ],
  forecast: [{ label: 'The target hex routs', probability: '29/36', p: 29 / 36, rule: '5.1' }],
  checks: [{ label: 'Not <adjacent>', status: 'not_met', rule: '6.4' }],
  notes: [],
  outcome: { dice: [4, 1], roll: 5, modified: 7, result: 'DX', meaning: 'b', effects: [] },
};

describe('render', () => {
  it('shows every modifier with its citation and ruling, escaped', () => {
    const html = renderResolution(resolution);
    expect(html).toContain('§ 10.5');
    expect(html).toContain('R-ITACS-1');
    expect(html).toContain('Terrain: &lt;Clear&gt;');
    expect(html).toContain('>+2<');
    expect((html.match(/class="odds-row/g) ?? []).length).toBe(2);
    expect(html).toContain('3/4');
    expect(html).toMatch(/odds-row hit" data-result="DX"/);
  });

  it('shows the chained forecast and the checks, escaped', () => {
    const html = renderResolution(resolution);
    expect(html).toContain('The target hex routs');
    expect(html).toContain('29/36');
    expect(html).toContain('80.6 %');
    expect(html).toContain('Not &lt;adjacent&gt;');
    expect(html).toMatch(/check-not_met.*✗/s);
  });

  it('formats probabilities for display', () => {
    expect(percent(0)).toBe('0 %');
    expect(percent(11 / 12)).toBe('91.7 %');
    expect(percent(0.0001)).toBe('< 0.1 %');
  });

  it('accumulates "this result or better" from the best result down', () => {
    expect(atLeast(resolution.distribution)).toEqual([1, 0.75]);
  });

  it('renders errors with field and rule', () => {
    const html = renderError({ code: 'situation.zero_defence', message: 'no defence', field: 'defenders', rule: '2.4.6' });
    expect(html).toContain('no defence');
    expect(html).toContain('defenders');
    expect(html).toContain('§ 2.4.6');
    expect(escape('"<&>')).toBe('&quot;&lt;&amp;&gt;');
  });

  it('show inch figures in centimetres too on a centimetre table, and only there', () => {
    expect(measured('Fire range 1.5" / 3" / 5"', 'cm')).toBe('Fire range 1.5" (3.8 cm) / 3" (7.6 cm) / 5" (12.7 cm)');
    expect(measured('recoils 3"', 'inches')).toBe('recoils 3"');
    expect(measured('320p = 480 mm = 18.9"', 'cm')).toBe('320p = 480 mm = 18.9"');
    const gts = { ...resolution, totals: [{ label: 'Move', value: '12"', rule: '2.10' }] };
    setTableUnits('cm');
    try {
      expect(renderResolution(gts)).toContain('12&quot; (30.5 cm)');
    } finally {
      setTableUnits('inches');
    }
    expect(renderResolution(gts)).not.toContain('cm)');
  });
});
