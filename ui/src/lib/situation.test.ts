import { describe, expect, it } from 'vitest';
import { enteredDice, initialState, selectorForField, toSituation, toUnit, unitRow } from './situation';

describe('situation', () => {
  it('opens on the 4.5.13 melee example', () => {
    const s = toSituation(initialState());
    expect(s).toMatchObject({
      attackers: [{ rear: true, units: [{ type: 'SD', count: 6 }] }],
      defenders: [{ terrain: 'clear', units: [{ type: 'PS', count: 2 }] }],
    });
  });

  it('sends only what the umpire entered', () => {
    expect(toUnit(unitRow('LB', 2))).toEqual({ type: 'LB', count: 2 });
    const row = { ...unitRow(''), cls: 'C', combat: ' [4] ', fire: '0', elite: true, shields: 'no' as const };
    expect(toUnit(row)).toEqual({ count: 1, class: 'C', combat: '[4]', fire: 0, elite: true, shields: false });
  });

  it('builds a fire situation with range, target terrain and scarp', () => {
    const state = { ...initialState(), action: 'missile' as const, range: 3, scarp: 'firing_up' as const, terrain: 'mud' };
    expect(toSituation(state)).toMatchObject({
      firing_hexes: [{ range: 3, rear: true }],
      target: { terrain: 'mud', scarp: 'firing_up' },
    });
  });

  it('sends the D markers already on the defending hex, for the forecast', () => {
    const melee = toSituation({ ...initialState(), dMarkers: 2 });
    expect(melee).toMatchObject({ defenders: [{ d_markers: 2 }] });
    const fire = toSituation({ ...initialState(), action: 'missile' as const, dMarkers: 1 });
    expect(fire).toMatchObject({ target: { d_markers: 1 } });
  });

  it('reads dice only when both faces are whole numbers', () => {
    expect(enteredDice(['4', '1'])).toEqual([4, 1]);
    expect(enteredDice(['4', ''])).toBeUndefined();
    expect(enteredDice(['x', '1'])).toBeUndefined();
  });
});

describe('selectorForField', () => {
  it('points a situation error at its form control', () => {
    expect(selectorForField('defenders[0].units[1].combat')).toBe('.unit[data-side="defenders"][data-index="1"] [data-field="combat"]');
    expect(selectorForField('firing_hexes[0].units[0].class')).toBe('.unit[data-side="attackers"][data-index="0"] [data-field="cls"]');
    expect(selectorForField('target.terrain')).toBe('#terrain');
    expect(selectorForField('firing_hexes[0].range')).toBe('#range');
    expect(selectorForField(undefined)).toBeUndefined();
  });
});
