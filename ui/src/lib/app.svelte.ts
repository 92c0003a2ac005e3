// The app's state, shared by its screens: the rulesets in force, the screen shown, the battle open
// and what its last change said. Screens read it and call the functions here; nothing else keeps
// state across screens.
import type { BattleView, RulesetList, SystemInfo, UnitForm } from '../generated/api';
import * as api from './api';
import { alerts, type Alert } from './battle';
import { noPicks, oneUnit, type Picks } from './pick';
import { fightAction, moveAction } from './actions';
import type { Bounds } from './contacts';
import { oneAtATime } from './one-at-a-time';

export type Screen = 'battles' | 'battle' | 'events' | 'event' | 'quick' | 'settings';
export type Tab = 'dashboard' | 'roster' | 'resolve' | 'log';

interface AppState {
  screen: Screen;
  rules: RulesetList;
  view: BattleView | undefined;
  tab: Tab;
  /** What the last change did to the break points, until dismissed or the next change. */
  alerts: Alert[];
  /** The last refused battle command, shown under the battle's head. */
  problem: unknown;
  /** The citation opened, as a section of a ruleset. */
  citation: { ruleset: string; section: string } | undefined;
  /** The action a step of the sequence of play opened the resolver on. */
  resolverAction: string | undefined;
  /** Counts the battles opened: the resolver starts afresh with each. */
  opened: number;
  /** Units tapped on the roster or the dashboard for the next fight. */
  picks: Picks;
  /** The fight "Resolve" opened the resolver on, once. */
  fight: Picks | undefined;
  /** By battle: whose bound it is, as the umpire last named it, for that bound's fights. */
  bounds: Bounds;
  /** The convention event open (its id), kept while a battle begun from it is played. */
  event: number | undefined;
}

export const app: AppState = $state({
  screen: 'battles',
  rules: { systems: [], house_rules: [], problems: [] },
  view: undefined,
  tab: 'dashboard',
  alerts: [],
  problem: undefined,
  citation: undefined,
  resolverAction: undefined,
  opened: 0,
  picks: noPicks(),
  fight: undefined,
  bounds: {},
  event: undefined,
});

/** Opens the resolver with the units picked: on `action`, else the phase's combat. */
export function resolvePicks(action?: string): void {
  app.fight = { attackers: [...app.picks.attackers], defenders: [...app.picks.defenders] };
  app.picks = noPicks();
  app.resolverAction = action ?? fightAction(systemOf(), app.view?.state.phase);
  app.tab = 'resolve';
}

/** Opens the resolver on the move a unit's markers call for (a rout move): the units given, a
 * stack's entries moving as one. */
export function openMove(units: number[]): void {
  const action = moveAction(systemOf());
  if (!action || !units.length) return;
  app.fight = { attackers: units, defenders: [] };
  app.picks = noPicks();
  app.resolverAction = action;
  app.tab = 'resolve';
}

/** A test of one unit opened from its roster row (a GTS rally): the resolver, with the unit. */
export function openTest(action: string, unit: number): void {
  app.fight = oneUnit(unit);
  app.picks = noPicks();
  app.resolverAction = action;
  app.tab = 'resolve';
}

/** The system of the battle open (or of the id given). */
export function systemOf(id: string | undefined = app.view?.state.ruleset): SystemInfo | undefined {
  return app.rules.systems.find((s) => s.id === id);
}

/** A battle's new view on screen, with what it did to the break points. */
export function show(view: BattleView, tab?: Tab): void {
  const said = alerts(app.view, view);
  if (app.view?.id !== view.id) {
    // Another battle: nothing picked in the last one carries over (unit ids are per battle).
    app.alerts = [];
    app.picks = noPicks();
    app.fight = undefined;
  }
  if (said.length) app.alerts = said;
  app.view = view;
  app.problem = undefined;
  app.screen = 'battle';
  if (tab) app.tab = tab;
}

const battleCommand = oneAtATime();

/** Runs a battle command: its answer on screen, or its refusal under the battle's head. A second
 * command while one is answered is a double tap, let go (false). */
export async function act(call: () => Promise<BattleView>): Promise<boolean> {
  try {
    const done = await battleCommand(call);
    if (done.ran) show(done.value);
    return done.ran;
  } catch (e) {
    app.problem = e;
    return false;
  }
}

/** The battle open is no longer known as shown (a backup was restored): back to the list. */
export function forgetBattle(): void {
  app.view = undefined;
  app.alerts = [];
  app.picks = noPicks();
  app.fight = undefined;
  app.problem = undefined;
}

export async function openBattle(id: number, tab: Tab = 'dashboard'): Promise<void> {
  app.alerts = [];
  app.resolverAction = undefined;
  app.picks = noPicks();
  app.fight = undefined;
  app.opened += 1;
  show(await api.viewBattle(id), tab);
}

const forms = new Map<string, Promise<UnitForm>>();
/** A ruleset's unit form, asked once per set of rules in force. */
export function unitFormOf(ruleset: string): Promise<UnitForm> {
  const key = `${ruleset}\u0000${systemOf(ruleset)?.fingerprint ?? ''}`;
  let form = forms.get(key);
  if (!form) {
    form = api.unitForm(ruleset);
    form.catch(() => forms.delete(key));
    forms.set(key, form);
  }
  return form;
}
