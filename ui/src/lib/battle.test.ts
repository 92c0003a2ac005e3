import { describe, expect, it } from 'vitest';
import type { BattleView, Gauge } from '../generated/api';
import { unit } from '../test-fixtures';
import { alerts, bannerTone, boxWorth, copyLabel, gaugeText, labelsFor, mappingOf, matches, possibleEffects, targetFieldLabels, targetKey, targetKeys, targetNames, undoLabel, undoTag, verdicts, worth } from './battle';

function view(gauges: Gauge[], over: Partial<BattleView> = {}, panicked = false): BattleView {
  return {
    id: 1, events: 3, log: [{ seq: 3, at: '2026-11-21T10:00:00Z', kind: 'applied', text: 'melee: DX on 17.03', undone: false, edited: false, changes: [] }], undo: 3,
    state: { name: 'x', ruleset: 'itacs', fingerprint: 'f', sides: [{ name: 'Romans', commands: [], points_awarded: 0, panicked }, { name: 'Carthage', commands: [], points_awarded: 0, panicked: false }], units: {}, turn: 1, morale_track: 0, morale_in_force: 0, conflicts: [] },
    standing: { gauges, resolutions: [] },
    ...over,
  } as BattleView;
}

describe('a battle in words', () => {
  it('finds a unit by its label, side, type or state in the core’s words', () => {
    expect(matches(unit({}), 'sd')).toBe(true);
    expect(matches(unit({}), 'spear-armed')).toBe(true);
    expect(matches(unit({ summary: '4/4, 2 D, Rout' }), 'rout')).toBe(true);
    expect(matches(unit({}), 'pike')).toBe(false);
    expect(matches(unit({}), '')).toBe(true);
  });

  it('labels a quantity 1…n and finds a free label for a copy', () => {
    expect(labelsFor('SD', 1)).toEqual(['SD']);
    expect(labelsFor('SD ', 3)).toEqual(['SD 1', 'SD 2', 'SD 3']);
    expect(copyLabel('SD 3', ['SD 1', 'SD 2', 'SD 3', 'SD 4'])).toBe('SD 5');
    expect(copyLabel('17.03', ['17.03'])).toBe('17.04');
    expect(copyLabel('Knights', ['Knights'])).toBe('Knights 2');
  });

  it('names the targets a result needs units for, leaving armies to their sides', () => {
    const e = (target: object | string) => ({ target, change: { kind: 'disorder' }, text: '', rule: '' }) as never;
    expect(targetKeys([e('attacker'), e({ hex: 'A' }), e({ army: 'Romans' }), e('attacker')])).toEqual(['attacker', 'hex:A']);
    expect(targetKey({ unit: 'Legio I' })).toBe('unit:Legio I');
    // A dead leader's command and enemy follow from the leader picked: only he is asked for.
    expect(targetKeys([e({ unit: 'leader' }), e({ command: 'leader' }), e({ side_of: 'leader' }), e({ enemy_of: 'leader' })])).toEqual(['unit:leader']);
    expect(targetKey({ enemy_of: 'leader' })).toBe('enemy_of:leader');
    // Units near a leader are the players' choice as the result lands, not a target to map.
    expect(targetKey({ within: { of: 'Artaphernes', inches: 6 } })).toBe('within_6:Artaphernes');
    expect(targetKeys([e({ within: { of: 'Artaphernes', inches: 6 } })])).toEqual([]);
    // The battle itself (a DBMM battle's clock) needs no units either.
    expect(targetKey('battle')).toBe('battle');
    expect(targetKeys([e('battle'), e('defender')])).toEqual(['defender']);
    // Each in words from its typed target; an apply's error about one names it so.
    expect(targetNames([e({ hex: '17.03' }), e('defender'), e({ unit: 'EL 23.11' })])).toEqual({ 'hex:17.03': 'Hex 17.03', defender: 'The defender', 'unit:EL 23.11': 'EL 23.11' });
    expect(targetFieldLabels([e({ unit: 'EL 23.11' })])).toEqual({ 'targets.unit:EL 23.11': 'EL 23.11' });
    const r = { outcome: undefined, distribution: [{ effects: [e('attacker')] }, { effects: [e('defender')] }] } as never;
    expect(possibleEffects(r).length).toBe(2);
  });

  it('says what a toggle is worth: the change in the modifier, or the largest change in a result’s odds', () => {
    const words: Record<string, string> = { 'pursue/destroyed': 'Pursue / Destroyed' };
    const r = (drm: number, ps: [string, number][]) => ({ total_modifier: drm, distribution: ps.map(([result, p]) => ({ result, p })), names: words }) as never;
    expect(worth(r(0, [['A', 0.5]]), r(2, [['A', 0.5]]))).toBe('+2 on the dice');
    expect(worth(r(1, [['A', 0.5]]), r(0, [['A', 0.5]]))).toBe('−1 on the dice');
    expect(worth(r(0, [['A', 0.5], ['B', 0.5]]), r(0, [['A', 0.25], ['B', 0.75]]))).toBe('A −25.0 pts');
    expect(worth(r(0, [['A', 0.5]]), r(0, [['A', 0.5]]))).toBe('');
    // A result named by its key, in the core's words.
    expect(worth(r(0, [['pursue/destroyed', 0.5]]), r(0, [['pursue/destroyed', 0.25]]))).toBe('Pursue / Destroyed −25.0 pts');
  });

  it('gives a box’s own worth with its sign, on or off: a stream worth +2 reads +2 either way', () => {
    const r = (drm: number, ps: [string, number][] = [['A', 0.5]]) => ({ total_modifier: drm, distribution: ps.map(([result, p]) => ({ result, p })), names: {} }) as never;
    // Off: the form without the stream (+6), flipped on (+8).
    expect(boxWorth(r(6), r(8), false)).toBe('if on: +2 on the dice');
    // On: the form with it (+8), flipped off (+6): what it gives, not "−2".
    expect(boxWorth(r(8), r(6), true)).toBe('on: +2 on the dice');
    // A box that costs: a −1 reads −1 on and off.
    expect(boxWorth(r(3), r(2), false)).toBe('if on: −1 on the dice');
    expect(boxWorth(r(2), r(3), true)).toBe('on: −1 on the dice');
    // Worth in a result's odds: the chance it adds to the likeliest-moved result.
    expect(boxWorth(r(0, [['A', 0.25]]), r(0, [['A', 0.5]]), true)).toBe('on: A −25.0 pts');
    expect(boxWorth(r(0, [['A', 0.5]]), r(0, [['A', 0.5]]), true)).toBe('');
  });
});

describe('gauges, verdicts and alerts', () => {
  const panic: Gauge = { side: 'Romans', label: 'Panic level', value: 'enemy has 4 of 10 points', to_go: '6 points to panic', progress: 0.4, reached: false, rule: '5.4' };

  it('reads a gauge as one line', () => {
    expect(gaugeText({ side: 'Saxons', label: 'Housecarls', status: 'broken', value: 'lost 2 of 6 ME', to_go: '½ ME to shattered', reached: false, rule: 'p. 42' })).toBe('Housecarls — broken · lost 2 of 6 ME · ½ ME to shattered');
    expect(gaugeText({ ...panic, to_go: '6' })).toBe('Panic level · enemy has 4 of 10 points · 6 to go');
    expect(gaugeText({ ...panic, reached: true })).toBe('Panic level · enemy has 4 of 10 points · reached');
  });

  it('says when a result reaches a break point, and nothing when none is reached', () => {
    const before = view([panic]);
    expect(alerts(before, view([{ ...panic, value: 'enemy has 5 of 10 points' }]))).toEqual([]);
    const after = view([{ ...panic, status: 'panicked', reached: true, value: 'enemy has 10 of 10 points' }], {}, true);
    const said = alerts(before, after);
    expect(said.map((a) => a.text)).toEqual(['Romans: Panic level — panicked · enemy has 10 of 10 points · reached']);
    expect(said[0].rule).toBe('5.4');
    expect(said[0].tone).toBe('worse');
    expect(said[0].gauge).toBeUndefined();
    // Reached and not yet panicked: the alert carries the gauge's offer, one tap away.
    const offer = { label: 'Romans panics: every unit routs', change: { kind: 'rout' } } as Gauge['offer'];
    const reached = alerts(before, view([{ ...panic, reached: true, offer }]));
    expect(reached[0].gauge?.offer).toEqual(offer);
    // An army that panics by a result, its points short of the level, is said too.
    expect(alerts(before, view([{ ...panic, status: 'panicked' }])).map((a) => a.text)).toEqual(['Romans: Panic level — panicked · enemy has 4 of 10 points · 6 points to panic']);
    // A command whose standing changes (steady → disheartened) is said too.
    const command: Gauge = { side: 'Saxons', label: 'Housecarls', status: 'steady', value: 'lost 1 of 6 ME', to_go: '½ ME to disheartened', amount: 0.5, reached: false, rule: 'p. 42' };
    const worse = alerts(view([command]), view([{ ...command, status: 'disheartened', value: 'lost 2 of 6 ME', to_go: '1 ME to broken', amount: 1 }]));
    expect(worse.map((a) => [a.text, a.tone])).toEqual([['Saxons: Housecarls — disheartened · lost 2 of 6 ME · 1 ME to broken', 'worse']]);
    // Another battle opened is no alert.
    expect(alerts(before, { ...after, id: 2 })).toEqual([]);
  });

  it('colours a banner by what it means: a side breaking is bad news, an undo that takes it back is not', () => {
    const command: Gauge = { side: 'Saxons', label: 'Housecarls', status: 'disheartened', value: 'lost 2 of 6 ME', amount: 1, reached: false, rule: 'p. 42' };
    const eased = alerts(view([command]), view([{ ...command, status: 'steady', value: 'lost 1 of 6 ME', amount: 0.5 }]));
    expect(eased.map((a) => a.tone)).toEqual(['eased']);
    expect(bannerTone(eased)).toBe('eased');
    const back = alerts(view([{ ...panic, reached: true }]), view([panic]));
    expect(back.map((a) => a.tone)).toEqual(['eased']);
    const broke = alerts(view([panic]), view([{ ...panic, reached: true }]));
    expect(bannerTone([...eased, ...broke])).toBe('worse');
  });

  it('says verdicts as sentences on the dashboard, and makes no alert of a verdict', () => {
    const verdict = (meaning: string) => ({ totals: [], outcome: { result: 'x', meaning, dice: [], roll: 0, modified: 0, effects: [{ rule: '7.2' }] } });
    const a = view([panic], { standing: { gauges: [panic], resolutions: [verdict('no victory yet')] } } as never);
    const b = view([panic], { standing: { gauges: [{ ...panic, value: 'enemy has 5 of 10 points' }], resolutions: [verdict('Carthaginians win a marginal victory')] } } as never);
    expect(verdicts(b)).toEqual([{ text: 'Carthaginians win a marginal victory.', rule: '7.2', ruling: undefined }]);
    // One kill that tips the victory points crosses no threshold: no banner.
    expect(alerts(a, b)).toEqual([]);
    // "Greeks' army holds" after a result: no banner either.
    const holds = view([], { standing: { gauges: [], resolutions: [verdict('Greeks’ army holds: 3 units more lost and it breaks')] } } as never);
    expect(alerts(view([]), holds)).toEqual([]);
  });

  it('names what undo takes back', () => {
    expect(undoLabel(view([]))).toBe('Undo: melee: DX on 17.03');
    expect(undoLabel(view([], { undo: 9 }))).toBe('Undo');
    // A result's words, its table's code apart as a tag.
    const coded = view([], { log: [{ seq: 3, at: '2026-11-21T10:00:00Z', kind: 'applied', text: 'Combat — Knights, Boyars: Knights loses 1 SP; Boyars retreats 2 hexes', tag: '-1/D2', undone: false, edited: false, changes: [], turn: 1, undoable: true }] });
    expect(undoLabel(coded)).toBe('Undo: Combat — Knights, Boyars: Knights loses 1 SP; Boyars retreats 2 hexes');
    expect(undoTag(coded)).toBe('-1/D2');
    // A change of an earlier turn says its turn (undo never takes the turn itself back).
    const later = { ...coded, state: { ...coded.state, turn: 2 } };
    expect(undoLabel(later)).toBe('Undo (turn 1): Combat — Knights, Boyars: Knights loses 1 SP; Boyars retreats 2 hexes');
    expect(undoLabel(later, 'bound')).toMatch(/^Undo \(bound 1\): Combat/);
    expect(undoTag(view([]))).toBeUndefined();
  });
});

describe('mappingOf', () => {
  it('maps each target of a fight to its roster units, a target with none to an empty list', () => {
    expect(mappingOf({ attacker: [1, 2], 'hex:19.05': undefined })).toEqual({ attacker: [1, 2], 'hex:19.05': [] });
  });
});
