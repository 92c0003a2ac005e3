// A system's actions as the umpire looks for them: grouped (combat, morale and checks, movement,
// tables), the main combat first. Pure, so it is unit-tested.
import type { ActionGroup, ActionInfo, SystemInfo, UnitState } from '../generated/api';

export const groupNames: Record<ActionGroup, string> = {
  combat: 'Combat',
  checks: 'Morale and checks',
  movement: 'Movement',
  tables: 'Tables and army',
};
const order: ActionGroup[] = ['combat', 'checks', 'movement', 'tables'];

export interface ActionGroupList {
  group: ActionGroup;
  name: string;
  actions: ActionInfo[];
}

export function actionGroups(system: SystemInfo | undefined): ActionGroupList[] {
  if (!system) return [];
  const main = mainAction(system);
  return order
    .map((group) => ({
      group,
      name: groupNames[group],
      actions: system.actions.filter((a) => (a.group ?? 'tables') === group).sort((x, y) => Number(y.id === main) - Number(x.id === main)),
    }))
    .filter((g) => g.actions.length);
}

/** The system's main combat: what "Resolve" opens on. */
export function mainAction(system: SystemInfo | undefined): string {
  if (!system) return '';
  return system.main_action || system.actions.find((a) => a.fights)?.id || system.actions[0]?.id || '';
}

/** Whether an action takes the picked units of both sides. */
export const fights = (system: SystemInfo | undefined, action: string): boolean => !!system?.actions.find((a) => a.id === action)?.fights;

/** Whether an action moves one picked unit along the places the umpire names (an ITACS move). */
export const movesAlong = (system: SystemInfo | undefined, action: string): boolean => !!system?.actions.find((a) => a.id === action)?.moves;

/** A move opened from a unit's row asks for its hexes first: until one is typed, the core's
 * "enter at least one hex of the path" is the question the form asks, not an error to show. */
export const awaitingPath = (moving: boolean, path: readonly string[], error: unknown): boolean =>
  moving && path.length === 0 && (error as { field?: string } | undefined)?.field === 'path';

/** The system's move opened from a unit's row (a rout or break move), if it has one. */
export const moveAction = (system: SystemInfo | undefined): string | undefined => system?.actions.find((a) => a.moves)?.id;

/** The move a unit's row offers now, if any: the system's move where the unit's markers call
 * for one, when no phase is set or the phase is one that moves (ITACS's movement phase: a rout
 * move, 5.3.1); a stack under a Break marker in any phase, since it may make its rout move
 * straight after combat (5.2). */
export function moveOffered(system: SystemInfo | undefined, phase: string | null | undefined, unit: UnitState): string | undefined {
  const move = moveAction(system);
  if (!move || unit.lost || !unit.opens_move) return undefined;
  const p = system?.phases.find((x) => x.key === phase);
  const broken = (unit.detail.state as { broken?: unknown } | null | undefined)?.broken === true;
  return !p || p.actions.includes(move) || broken ? unit.opens_move : undefined;
}

/** Whether an action is filled in from the whole roster, without picks (a recovery phase). */
export const fromRoster = (system: SystemInfo | undefined, action: string): boolean => !!system?.actions.find((a) => a.id === action)?.from_roster;

/** Whether an action is a test of one unit, opened from its roster row (a GTS rally). */
export const forAUnit = (system: SystemInfo | undefined, action: string): boolean => !!system?.actions.find((a) => a.id === action)?.for_a_unit;

/** The combat "Resolve" opens the picked units on: the fight a step of the phase names (GTS's
 * melee phase: the whole round), else the phase's first action that fights, else the system's
 * main combat (in ITACS's missile phase, missile combat). */
export function fightAction(system: SystemInfo | undefined, phase: string | null | undefined): string {
  const p = system?.phases.find((x) => x.key === phase);
  const stepped = (p?.steps ?? []).map((s) => s.action).find((a): a is string => !!a && fights(system, a));
  return stepped ?? (p?.actions ?? []).find((a) => fights(system, a)) ?? mainAction(system);
}
