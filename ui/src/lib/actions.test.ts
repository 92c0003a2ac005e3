import { describe, expect, it } from 'vitest';
import type { SystemInfo } from '../generated/api';
import type { UnitState } from '../generated/api';
import { actionGroups, awaitingPath, fightAction, fights, forAUnit, fromRoster, mainAction, moveAction, moveOffered, movesAlong } from './actions';

const system = {
  id: 'gts', main_action: 'melee',
  actions: [
    { id: 'unit', name: 'Unit builder', rule: '2.10', group: 'tables', fights: false },
    { id: 'fire', name: 'Missile fire', rule: '5', group: 'combat', fights: true },
    { id: 'response_test', name: 'Response test', rule: '4.4', group: 'checks', fights: false, for_a_unit: true },
    { id: 'melee', name: 'Melee', rule: '6', group: 'combat', fights: true },
    { id: 'melee_round', name: 'One melee round', rule: '6–7', group: 'combat', fights: true },
    { id: 'recovery', name: 'Recovery', rule: '4.6', group: 'checks', fights: false, from_roster: true },
  ],
  phases: [
    { key: 'missile', name: 'Missile', actions: ['fire'] },
    { key: 'recovery', name: 'Recovery', actions: ['recovery'] },
    { key: 'melee', name: 'Melee', actions: ['response_test', 'melee'] },
    { key: 'round', name: 'Melee', actions: ['melee', 'melee_round'], steps: [{ text: 'Each combat: the roll-off, then recoil', rule: '6.12', action: 'melee_round' }, { text: 'Rally', rule: '3.33', action: 'response_test' }] },
  ],
} as unknown as SystemInfo;

describe('actions as the umpire looks for them', () => {
  it('groups them in the order of play with the main combat first', () => {
    const groups = actionGroups(system);
    expect(groups.map((g) => g.name)).toEqual(['Combat', 'Morale and checks', 'Tables and army']);
    expect(groups[0].actions.map((a) => a.id)).toEqual(['melee', 'fire', 'melee_round']);
  });
  it('knows the move a unit\'s row opens, where the system has one', () => {
    const moving = { ...system, actions: [...system.actions, { id: 'move', name: 'Movement', rule: '4.3', group: 'movement', fights: false, moves: true }] } as unknown as SystemInfo;
    expect(moveAction(moving)).toBe('move');
    expect(movesAlong(moving, 'move')).toBe(true);
    expect(movesAlong(moving, 'melee')).toBe(false);
    expect(moveAction(system)).toBeUndefined();
  });
  it('offers a row\'s rout move when no phase is set or in a phase that moves; a broken stack\'s in any', () => {
    const moving = {
      ...system,
      actions: [...system.actions, { id: 'move', name: 'Movement', rule: '4.3', group: 'movement', fights: false, moves: true }],
      phases: [...system.phases, { key: 'movement', name: 'Movement', actions: ['move'] }],
    } as unknown as SystemInfo;
    const unit = (opens: string | undefined, state: unknown = { broken: false }) => ({ id: 1, label: 'Hastati', lost: false, opens_move: opens, detail: { entry: {}, state } }) as unknown as UnitState;
    expect(moveOffered(moving, undefined, unit('Rout move'))).toBe('Rout move');
    expect(moveOffered(moving, 'movement', unit('Rout move'))).toBe('Rout move');
    expect(moveOffered(moving, 'missile', unit('Rout move'))).toBeUndefined();
    expect(moveOffered(moving, 'melee', unit('Rout move (Break)', { broken: true }))).toBe('Rout move (Break)');
    expect(moveOffered(moving, 'movement', unit(undefined))).toBeUndefined();
    expect(moveOffered(system, undefined, unit('Rout move'))).toBeUndefined();
    expect(moveOffered(moving, undefined, { ...unit('Rout move'), lost: true })).toBeUndefined();
  });
  it('knows the main combat and which actions take the picked units', () => {
    expect(mainAction(system)).toBe('melee');
    expect(mainAction({ ...system, main_action: '' })).toBe('fire');
    expect(fights(system, 'fire')).toBe(true);
    expect(fights(system, 'unit')).toBe(false);
  });
  it('resolves the picked units with the phase\'s combat, else the main one', () => {
    expect(fightAction(system, 'missile')).toBe('fire');
    expect(fightAction(system, 'melee')).toBe('melee');
    expect(fightAction(system, 'recovery')).toBe('melee');
    expect(fightAction(system, undefined)).toBe('melee');
    // A step of the phase names its fight: the whole round, not the phase's first combat.
    expect(fightAction(system, 'round')).toBe('melee_round');
    expect(fromRoster(system, 'recovery')).toBe(true);
    expect(fromRoster(system, 'melee')).toBe(false);
  });
  it('knows the tests a unit takes from its roster row (a rally)', () => {
    expect(forAUnit(system, 'response_test')).toBe(true);
    expect(forAUnit(system, 'melee')).toBe(false);
    expect(forAUnit(system, 'recovery')).toBe(false);
  });
});

describe('a move opened from a row before its hexes are typed', () => {
  const missing = { code: 'situation.missing_field', field: 'path', message: 'enter at least one hex of the path' };
  it('waits for the hexes instead of showing the refusal', () => {
    expect(awaitingPath(true, [], missing)).toBe(true);
  });
  it('shows the refusal once hexes are typed, for another field, or outside a move', () => {
    expect(awaitingPath(true, ['19.05'], missing)).toBe(false);
    expect(awaitingPath(true, [], { ...missing, field: 'unit.count' })).toBe(false);
    expect(awaitingPath(false, [], missing)).toBe(false);
  });
});
