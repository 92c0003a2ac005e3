import { describe, expect, it } from 'vitest';
import type { BattleView, Gauge, UnitState } from './generated/api';
import { battleRows, diceFields, gauge, logEntries, matches, oddsStrip, outlookRows, phaseSteps, quickEdits, standing, summary, targetKey, targetKeys, worth } from './views';

const unit = (over: Partial<UnitState>): UnitState => ({
  id: 1, label: 'Legio I', side: 'Romans', role: 'unit', stats: { type: 'SD', count: 4 }, strength: 4, starting: 4,
  d_markers: 0, broken: false, rout: false, scattered: false, disordered: false, hits: 0, lost: false, moves: [], ...over,
});

describe('battle views', () => {
  it('knows the dice inputs an action needs', () => {
    expect(diceFields('2d6')).toEqual([6, 6]);
    expect(diceFields('d10 v d10')).toEqual([10, 10]);
    expect(diceFields('d10 then d10')).toEqual([10, 10]);
    expect(diceFields('')).toEqual([]);
    expect(diceFields('d100 per unit')).toBeNull();
  });

  it('shows a gauge with its threshold, how far to go and its rule', () => {
    const g: Gauge = { side: 'Romans', label: 'Panic level', value: '4', threshold: '10', to_go: '6', progress: 0.4, reached: false, rule: '5.4', ruling: 'R-ITACS-23' };
    const html = gauge(g);
    expect(html).toContain('6 to go');
    expect(html).toContain('of 10');
    expect(html).toContain('data-p="0.4"');
    expect(html).toContain('R-ITACS-23');
    expect(gauge({ ...g, reached: true, to_go: '0' })).toContain('reached');
  });

  it('sums a unit up and offers the quick edits of its system', () => {
    expect(summary(unit({ d_markers: 2, rout: true }))).toBe('4/4, 2 D, Rout');
    expect(summary(unit({ strength: 0, lost: true }))).toBe('0/4, lost');
    expect(quickEdits('itacs', unit({})).map(([l]) => l)).toEqual(['+D', '−D', '−1 unit', 'Break']);
    expect(quickEdits('gts', unit({}))[0][1]).toEqual({ kind: 'hits', count: 1 });
    expect(quickEdits('itacs', unit({ lost: true }))).toEqual([]);
    expect(quickEdits('dbmm', unit({})).map(([l]) => l)).toEqual(['Destroyed', 'Spent', 'Off table']);
    const element = unit({ stats: { type: 'Kn', grade: 'O', general: true, state: 'off_table' }, strength: 0, lost: true });
    expect(summary(element)).toBe('Kn (O), general, off table');
    expect(matches(unit({}), 'sd')).toBe(true);
    expect(matches(unit({}), 'pike')).toBe(false);
  });

  it('names the targets a result needs units for, leaving armies to their sides', () => {
    const e = (target: UnitState['side'] | object) => ({ target, change: { kind: 'disorder' }, text: '', rule: '' }) as never;
    expect(targetKeys([e('attacker'), e({ hex: 'A' }), e({ army: 'Romans' }), e('attacker')])).toEqual(['attacker', 'hex:A']);
    expect(targetKey({ unit: 'Legio I' })).toBe('unit:Legio I');
  });

  it('lists battles and the log, and says when there is none', () => {
    expect(battleRows([])).toContain('No battles yet');
    const rows = battleRows([{ id: 3, name: 'Cannae <216 BC>', ruleset: 'itacs', fingerprint: 'f', created_at: '2026-11-21T10:00:00Z', updated_at: '2026-11-21T10:05:00Z', events: 5 }]);
    expect(rows).toContain('data-open="3"');
    expect(rows).toContain('Cannae &lt;216 BC&gt;');
    const log = logEntries([
      { seq: 1, at: '2026-11-21T10:00:00.000Z', kind: 'created', text: 'begins', undone: false, edited: false, changes: [] },
      { seq: 2, at: '2026-11-21T10:01:00.000Z', kind: 'applied', text: 'melee: DX', undone: true, edited: false, changes: ['17.03: all units destroyed'] },
    ]);
    expect(log.indexOf('#2')).toBeLessThan(log.indexOf('#1'));
    expect(log).toContain('undone');
    expect(log).not.toContain('data-edit-roll="2"');
  });

  it('labels one verdict per side', () => {
    const view = {
      id: 1, events: 1, log: [],
      state: { name: 'x', ruleset: 'gts', fingerprint: 'f', sides: [{ name: 'Greeks', commands: [], points_awarded: 0, panicked: false }, { name: 'Persians', commands: [], points_awarded: 0, panicked: false }], units: {}, turn: 1, morale_track: 0, conflicts: [] },
      standing: { gauges: [], resolutions: ['holding', 'broken'].map((result) => ({ outcome: { result, meaning: '', dice: [], roll: 0, modified: 0, effects: [] } })) },
    } as unknown as BattleView;
    const html = standing(view);
    expect(html).toMatch(/Greeks<\/strong> <span class="code">holding/);
    expect(html).toMatch(/Persians<\/strong> <span class="code">broken/);
  });
});

describe('what a toggle is worth', () => {
  const r = (drm: number, ps: [string, number][]) => ({ total_modifier: drm, distribution: ps.map(([result, p]) => ({ result, p })) }) as never;
  it('is the change in the modifier, or the largest change in a result’s odds', () => {
    expect(worth(r(0, [['A', 0.5]]), r(1, [['A', 0.4]]))).toBe('+1 DRM');
    expect(worth(r(0, [['A', 0.5], ['B', 0.5]]), r(0, [['A', 0.25], ['B', 0.75]]))).toBe('A −25.0 pts');
    expect(worth(r(0, [['A', 1]]), r(0, [['A', 1]]))).toBe('');
  });
});

describe('the sequence of play on the dashboard', () => {
  it('lists the current phase’s steps with their rules and actions', () => {
    const sys = { phases: [{ key: 'melee', name: 'Melee', rule: '2.0', actions: ['melee'], steps: [{ text: 'Resolve each melee.', rule: '4.5', action: 'melee' }, { text: 'Check breaks.', rule: '5.2' }] }] } as never;
    const html = phaseSteps(sys, 'melee');
    expect(html).toContain('Resolve each melee.');
    expect(html).toContain('data-step-action="melee"');
    expect(html).toContain('§ 5.2');
    expect(phaseSteps(sys, undefined)).toContain('Choose the phase');
  });
});

describe('the outlook', () => {
  it('shows each break point’s chance if the result is applied, or nothing', () => {
    expect(outlookRows([])).toBe('');
    const html = outlookRows([{ label: 'Gauls: Panic level reached after this result', probability: '5/12', p: 5 / 12, rule: '5.4' }]);
    expect(html).toContain('If this result is applied');
    expect(html).toContain('5/12');
    expect(html).toContain('41.7 %');
  });
});

describe('the odds strip on phones', () => {
  it('lists the possible results with their odds and marks the outcome', () => {
    const r = { distribution: [{ result: 'DX', p: 0.25 }, { result: 'AX', p: 0 }, { result: 'DD', p: 0.75 }], outcome: { result: 'DD' } } as never;
    const html = oddsStrip(r);
    expect(html).toContain('<span class="strip-outcome">DD</span>');
    expect(html).not.toContain('AX');
    expect(html).toMatch(/strip-cell hit"><span class="code">DD<\/span> 75.0 %/);
  });
});
