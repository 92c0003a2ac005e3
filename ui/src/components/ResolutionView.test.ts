// A resolution on screen: every modifier with its citation and ruling, the exact odds, the chained
// forecast and the checks — user text escaped by the template, never parsed as HTML.
import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { Resolution } from '../generated/api';
import ResolutionView from './ResolutionView.svelte';

const resolution: Resolution = {
  system: 'itacs', action: 'melee', dice: '2d6', faces: [{ sides: 6 }, { sides: 6 }], in_turn: false, names: {},
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

describe('a resolution', () => {
  it('shows every modifier with its citation and ruling, escaped', () => {
    render(ResolutionView, { resolution, ruleset: 'itacs' });
    const rows = [...document.querySelectorAll('.modifiers tbody tr')].map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent?.trim()).join(' '));
    expect(rows).toEqual(['Combat ratio (3:1) +2 § 10.5 · R-ITACS-1', 'Terrain: <Clear> 0 § 10.3']);
    expect(document.querySelector('.modifiers')!.innerHTML).toContain('&lt;Clear&gt;');
    expect(screen.getByTestId('total-modifier')).toHaveTextContent('+2');
  });

  it('heads modifiers that shift a column as such, with no total on the dice (Medieval 1.5)', () => {
    render(ResolutionView, { resolution: { ...resolution, system: 'medieval', total_modifier: 0, modifiers_shift: 'Column shift' }, ruleset: 'medieval' });
    expect(document.querySelector('.modifiers thead')).toHaveTextContent('Column shift');
    expect(document.querySelector('.modifiers thead')).not.toHaveTextContent('On the dice');
    expect(screen.queryByTestId('total-modifier')).toBeNull();
  });

  it('shows the odds exactly, the outcome of the dice, the forecast and the checks', () => {
    render(ResolutionView, { resolution, ruleset: 'itacs' });
    const odds = [...document.querySelectorAll('#odds .odds-row')].map((r) => [r.getAttribute('data-result'), r.querySelector('.exact')!.textContent]);
    expect(odds).toEqual([['AD', '1/4'], ['DX', '3/4']]);
    expect(document.querySelector('.odds-row.hit')).toHaveAttribute('data-result', 'DX');
    expect(screen.getByTestId('outcome-result')).toHaveTextContent('DX');
    expect(document.querySelector('.outcome-head')).toHaveTextContent('Dice 4 + 1 = 5, +2 → 7');
    expect(document.querySelector('#forecast')).toHaveTextContent('The target hex routs');
    expect(document.querySelector('#forecast')).toHaveTextContent('29/36');
    expect(screen.getByRole('img', { name: 'not met' })).toHaveTextContent('✗');
    expect(document.querySelector('.checks')).toHaveTextContent('Not <adjacent>');
  });
  it('names an answer without dice in words, with no throw, and the sides of a roll-off by name', () => {
    const weather: Resolution = {
      ...resolution, system: 'dbmm', action: 'weather', dice: '', total_modifier: 0, faces: [], names: { weather: 'Weather' },
      distribution: [{ result: 'weather', meaning: 'Strong wind W.', rolls: '', probability: '1/1', p: 1, effects: [] }],
      outcome: { dice: [], roll: 0, modified: 0, result: 'weather', meaning: 'Strong wind W.', effects: [] },
    };
    render(ResolutionView, { resolution: weather, ruleset: 'dbmm' });
    expect(document.querySelector('.outcome-head')).toBeNull();
    expect(screen.getByTestId('outcome-result')).toHaveTextContent('Weather');
    document.body.innerHTML = '';
    const melee: Resolution = {
      ...resolution, system: 'gts', names: { hits_0_9: 'Immortals 2 takes 9' },
      distribution: [{ result: 'hits_0_9', meaning: 'x', rolls: '', probability: '1/1', p: 1, effects: [] }],
      outcome: { dice: [10, 1], roll: 10, modified: 10, result: 'hits_0_9', meaning: 'Hoplites 1 10 against Immortals 2 1: Immortals 2 takes 9.', effects: [] },
    };
    render(ResolutionView, { resolution: melee, ruleset: 'gts' });
    // The core's words, never the key.
    expect(screen.getByTestId('outcome-result')).toHaveTextContent('Immortals 2 takes 9');
    expect(document.querySelector('.outcome-result')).toHaveTextContent('Hoplites 1 10 against Immortals 2 1: Immortals 2 takes 9.');
    expect(document.querySelector('#odds .odds-row .code')).toHaveTextContent('Immortals 2 takes 9');
    expect(document.body).not.toHaveTextContent('hits_0_9');
  });
});
