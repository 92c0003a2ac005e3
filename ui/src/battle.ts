// The battles screen and a battle's screens (dashboard, roster, resolver, log): events from the
// DOM → API calls → re-render. Rendering is in views.ts (pure); the situation form in form.ts.
import * as api from './api';
import { blank, getAt, parseInput, parsePath, pathKey, removeAt, renderSituationForm, schemaAt, setAt, type Kind, type Path, type Schema } from './form';
import type { BattleView, Choice, RefereeError, Resolution, SystemInfo, UnitSpec, UnitState } from './generated/api';
import { escape, renderError, renderResolution, sizeBars } from './render';
import { applyPanel, battleRows, diceFields, logEntries, oddsStrip, outlookRows, phaseOptions, phaseSteps, possibleEffects, rosterList, standing, targetKey, targetKeys, worth } from './views';
import examples from './generated/examples.json';
import { changesFor, chooseHouseRules, scaleFor, settings } from './settings';

type Tab = 'dashboard' | 'roster' | 'resolve' | 'log';

interface Resolver {
  action: string;
  schema?: Schema;
  situation: unknown;
  faces: string[];
  seed?: number;
  resolution?: Resolution;
  mapping: Record<string, number[]>;
  choices: Record<string, number[]>;
  /** Roster units picked into the situation: path of the list → unit ids. */
  picks: Record<string, number[]>;
}

const ui = {
  systems: [] as SystemInfo[],
  view: undefined as BattleView | undefined,
  tab: 'dashboard' as Tab,
  filter: '',
  resolver: undefined as Resolver | undefined,
  pending: 0,
  rolledBy: '',
};

const $ = <T extends HTMLElement>(sel: string) => document.querySelector<T>(sel)!;
const system = (): SystemInfo | undefined => ui.systems.find((s) => s.id === ui.view?.state.ruleset);
const lists = (): Record<string, Choice[]> => Object.fromEntries((system()?.choices ?? []).map((c) => [c.field, c.options]));

function showError(where: string, e: unknown): void {
  const el = document.querySelector(where);
  if (el) el.innerHTML = renderError(e as RefereeError);
}

export function setSystems(systems: SystemInfo[]): void {
  ui.systems = systems;
}

// ---------------------------------------------------------------- battles screen

export async function showBattles(): Promise<void> {
  ui.view = undefined;
  const screen = $('#battles-screen');
  const rulesets = ui.systems.map((s) => `<option value="${escape(s.id)}">${escape(s.name)}</option>`).join('');
  screen.innerHTML = `
    <h2>Battles</h2>
    <div id="battle-list" aria-live="polite"></div>
    <form id="new-battle" class="panel" autocomplete="off">
      <h3>Begin a battle</h3>
      <label>Rule system <select id="new-ruleset">${rulesets}</select></label>
      <label>Name <input id="new-name" required value="New battle"></label>
      ${sideFieldset('a', 'First side', 'Side A', ui.systems[0]?.id === 'itacs')}
      ${sideFieldset('b', 'Second side', 'Side B', ui.systems[0]?.id === 'itacs')}
      <p class="muted">GTS: give the army's general and baggage the roles <em>general</em> and <em>baggage</em> on the roster; they lower the army break point when lost (8.0). DBMM: give each element its command, and the general's element <code>"general": true</code>; each command's morale is counted apart (p. 42–43).</p>
      <button class="primary" id="create-battle" type="submit">Begin</button>
    </form>
    <div class="panel"><h3>Import a battle file</h3>
      <label>Battle file <input type="file" id="import-file" accept=".json,application/json"></label></div>
    <div id="battles-message" aria-live="polite"></div>
    <div id="export-box"></div>`;
  await refreshBattleList();
}

async function refreshBattleList(): Promise<void> {
  try {
    $('#battle-list').innerHTML = battleRows(await api.battles());
  } catch (e) {
    showError('#battle-list', e);
  }
}

async function createBattle(): Promise<void> {
  const ruleset = $<HTMLSelectElement>('#new-ruleset').value;
  const panic = (id: string) => {
    const v = $<HTMLInputElement>(id).value;
    return ruleset === 'itacs' && v !== '' ? Number(v) : undefined;
  };
  const commands = (id: string) => $<HTMLInputElement>(id).value.split(',').map((c) => c.trim()).filter(Boolean);
  try {
    const view = await api.createBattle({
      name: $<HTMLInputElement>('#new-name').value,
      ruleset,
      sides: [
        { name: $<HTMLInputElement>('#new-side-a').value, commands: commands('#commands-a'), panic_level: panic('#panic-a'), stacking_limit: panic('#stacking-a') },
        { name: $<HTMLInputElement>('#new-side-b').value, commands: commands('#commands-b'), panic_level: panic('#panic-b'), stacking_limit: panic('#stacking-b') },
      ],
    });
    openView(view, 'roster');
  } catch (e) {
    showError('#battles-message', e);
  }
}

// ---------------------------------------------------------------- a battle

function openView(view: BattleView, tab: Tab = ui.tab): void {
  // Another battle starts with a fresh resolver and filter (its system and roster differ).
  if (ui.view?.id !== view.id) {
    ui.resolver = undefined;
    ui.filter = '';
  }
  ui.view = view;
  ui.tab = tab;
  document.body.dataset.screen = 'battle';
  renderBattle();
}

export async function openBattle(id: number): Promise<void> {
  try {
    openView(await api.viewBattle(id), 'dashboard');
  } catch (e) {
    showError('#battles-message', e);
  }
}

function renderBattle(): void {
  const v = ui.view!;
  const tabs: [Tab, string][] = [['dashboard', 'Dashboard'], ['roster', 'Roster'], ['resolve', 'Resolve'], ['log', 'Log']];
  $('#battle-screen').innerHTML = `
    <div class="battle-head">
      <button class="ghost" id="to-battles" aria-label="Back to the battles">←</button>
      <h2>${escape(v.state.name)}</h2>
      <span class="muted">${escape(system()?.name ?? v.state.ruleset)} · turn <strong id="turn">${v.state.turn}</strong></span>
      <span class="head-actions">
        <button id="undo" ${v.undo ? '' : 'disabled'} title="Undo (Ctrl+Z)">↶ Undo</button>
        <button id="redo" ${v.redo ? '' : 'disabled'} title="Redo (Ctrl+Shift+Z)">↷ Redo</button>
      </span>
    </div>
    ${v.ruleset_changed ? `<div class="error" role="alert">${escape(v.ruleset_changed)}${v.began_under ? ' <button id="rules-began-under">Play it under the rules it began under</button>' : ''}</div>` : ''}
    <nav class="tabs" role="tablist">${tabs.map(([k, label]) => `<button role="tab" data-tab="${k}" aria-selected="${k === ui.tab}">${label}</button>`).join('')}</nav>
    <div id="battle-message" aria-live="polite"></div>
    <div id="tab-body"></div>`;
  renderTab();
}

function renderTab(): void {
  const v = ui.view!;
  const body = $('#tab-body');
  switch (ui.tab) {
    case 'dashboard':
      body.innerHTML = `
        <div class="turn-bar panel">
          <label>Phase <select id="phase">${phaseOptions(system(), v.state.phase)}</select></label>
          <button id="next-turn">Next turn</button>
          <button class="primary big" data-tab="resolve">Resolve…</button>
          <div class="phase-steps">${phaseSteps(system(), v.state.phase)}</div>
        </div>
        <div id="standing">${standing(v)}</div>
        <h3>Last events</h3>${logEntries(v.log, 6)}`;
      sizeBars(body);
      break;
    case 'roster':
      body.innerHTML = `
        <label class="search">Find <input id="roster-filter" type="search" value="${escape(ui.filter)}" placeholder="label, type, side…"></label>
        <div id="roster">${rosterList(v, ui.filter)}</div>
        ${addUnitForm()}
        <div class="panel"><h3>Roster file</h3>
          <label>Side <select id="roster-side">${v.state.sides.map((s) => `<option>${escape(s.name)}</option>`).join('')}</select></label>
          <label>CSV roster <input type="file" id="roster-file" accept=".csv,text/csv"></label>
          <p class="muted">A header row with <code>label</code> and the unit's fields (docs/rosters.md); saved, then copied onto the side.</p></div>`;
      break;
    case 'resolve':
      void renderResolver();
      break;
    case 'log':
      body.innerHTML = `${logEntries(v.log)}${v.events > v.log.length ? `<p class="muted">Showing the latest ${v.log.length} of ${v.events} events.</p>` : ''}<div id="edit-roll"></div>`;
      break;
  }
}

/** The action that lists a roster unit's values from the tables: GTS's unit builder, DBMM's
 * troop model (the outcome's `state` is the roster's, not the element's). */
function derivation(ruleset: string, stats: unknown): { ruleset: string; action: string; situation: unknown } {
  if (ruleset === 'dbmm') {
    const { state: _state, ...element } = (stats ?? {}) as Record<string, unknown>;
    return { ruleset, action: 'element', situation: { element } };
  }
  return { ruleset, action: 'unit', situation: stats };
}

/** One side of a new battle: name, commands and the ITACS-only panic level and stacking limit. */
function sideFieldset(key: 'a' | 'b', legend: string, name: string, itacs: boolean): string {
  return `<fieldset><legend>${legend}</legend>
        <label>Name <input id="new-side-${key}" required value="${name}"></label>
        <label>Commands <input id="commands-${key}" placeholder="e.g. Left wing, Centre"></label>
        <span class="itacs-only"${itacs ? '' : ' hidden'}><label>Panic level <input id="panic-${key}" type="number" min="0" inputmode="numeric" placeholder="—"> <span class="rule">§ 5.4</span></label>
        <label>Stacking limit <input id="stacking-${key}" type="number" min="1" inputmode="numeric" placeholder="—"> <span class="rule">§ 4.3.3</span></label></span>
      </fieldset>`;
}

const UNIT_TEMPLATES: Record<string, string> = {
  itacs: '{ "type": "SD", "count": 4 }',
  medieval: '{ "type": "heavy_cavalry", "sp": 2, "cf": 2 }',
  gts: '{ "class": "infantry", "weapon": "SP", "armour": "M", "stands": 4 }',
  dbmm: '{ "type": "Bd", "grade": "O" }',
};

function addUnitForm(): string {
  const v = ui.view!;
  return `<form id="add-unit" class="panel" autocomplete="off"><h3>Add a unit</h3>
    <label>Label <input id="unit-label" required placeholder="e.g. 17.04 or Legio I"></label>
    <label>Side <select id="unit-side">${v.state.sides.map((s) => `<option>${escape(s.name)}</option>`).join('')}</select></label>
    ${commandSelect()}
    <label>Role <select id="unit-role"><option value="unit">unit</option><option value="leader">leader</option><option value="general">general</option><option value="baggage">baggage</option></select></label>
    <label class="wide">Stats <textarea id="unit-stats" rows="2" spellcheck="false">${escape(UNIT_TEMPLATES[v.state.ruleset] ?? '{}')}</textarea></label>
    <button class="primary" type="submit" id="add-unit-button">Add</button>
    <div id="add-unit-message" aria-live="polite"></div></form>`;
}

function commandSelect(): string {
  const all = ui.view!.state.sides.flatMap((s) => s.commands.map((c) => `<option value="${escape(c)}">${escape(s.name)}: ${escape(c)}</option>`));
  return all.length ? `<label>Command <select id="unit-command"><option value="">—</option>${all.join('')}</select></label>` : '';
}

async function addUnit(): Promise<void> {
  let stats: unknown;
  try {
    stats = JSON.parse($<HTMLTextAreaElement>('#unit-stats').value);
  } catch {
    showError('#add-unit-message', { code: 'input.invalid_json', message: 'The stats are not JSON: write them as {"field": value, …}.', field: 'stats' });
    return;
  }
  const unit: UnitSpec = {
    label: $<HTMLInputElement>('#unit-label').value,
    side: $<HTMLSelectElement>('#unit-side').value,
    role: $<HTMLSelectElement>('#unit-role').value as UnitSpec['role'],
    command: document.querySelector<HTMLSelectElement>('#unit-command')?.value || undefined,
    stats,
  };
  try {
    ui.view = await api.addUnit(ui.view!.id, unit);
    $('#roster').innerHTML = rosterList(ui.view, ui.filter);
    $<HTMLInputElement>('#unit-label').value = '';
    $('#add-unit-message').innerHTML = `<p class="ok">Added ${escape(unit.label)}.</p>`;
    refreshHead();
  } catch (e) {
    showError('#add-unit-message', e);
  }
}

function refreshHead(): void {
  const v = ui.view!;
  $<HTMLButtonElement>('#undo').disabled = !v.undo;
  $<HTMLButtonElement>('#redo').disabled = !v.redo;
  $("#turn").textContent = String(v.state.turn);
}

// ---------------------------------------------------------------- resolver

function defaultSituation(action: string, schema: Schema): unknown {
  const key = `${ui.view!.state.ruleset}/${action}`;
  const example = (examples as Record<string, unknown>)[key];
  const situation = example !== undefined ? structuredClone(example) : blank(schema, schema, lists());
  // A figure scale field starts at the table's scale from Settings.
  const scales = (lists().scale ?? []).map((c) => c.key);
  const scale = scaleFor(settings().figureScale, scales);
  if (schema.properties?.scale && scale && situation && typeof situation === 'object') (situation as Record<string, unknown>).scale = scale;
  return situation;
}

async function renderResolver(): Promise<void> {
  const sys = system();
  const actions = sys?.actions ?? [];
  if (!ui.resolver) ui.resolver = { action: actions[0]?.id ?? '', situation: {}, faces: [], mapping: {}, choices: {}, picks: {} };
  const r = ui.resolver;
  const phase = sys?.phases.find((p) => p.key === ui.view?.state.phase);
  const inPhase = (id: string) => !phase || phase.actions.includes(id);
  $('#tab-body').innerHTML = `
    <div class="resolver">
      <section class="panel">
        <label>Action <select id="action">${actions
          .map((a) => `<option value="${escape(a.id)}"${a.id === r.action ? ' selected' : ''}>${inPhase(a.id) ? '' : '· '}${escape(a.name)} (§ ${escape(a.rule)})</option>`)
          .join('')}</select></label>
        <form id="situation-form" autocomplete="off"></form>
        <fieldset class="dice" id="dice-box"></fieldset>
      </section>
      <section id="battle-resolution" aria-live="polite"></section>
      <a class="odds-strip" id="odds-strip" href="#battle-resolution" aria-label="The odds; tap for the details"></a>
    </div>`;
  if (!r.schema) {
    try {
      r.schema = (await api.situationSchema(ui.view!.state.ruleset, r.action)) as Schema;
      r.situation = defaultSituation(r.action, r.schema);
    } catch (e) {
      showError('#battle-resolution', e);
      return;
    }
  }
  renderSituation();
  await resolveNow();
}

function rosterPicker(path: Path): string {
  const key = pathKey(path);
  const units = Object.values(ui.view!.state.units).filter((u): u is UnitState => !!u && !u.lost && u.role !== 'leader');
  if (!/(units|unit|firer|target|side_a|side_b)$/.test(key) || units.length === 0) return '';
  return `<select class="pick" data-pick="${escape(key)}" aria-label="Add a roster unit to ${escape(key)}"><option value="">+ from roster…</option>${units
    .map((u) => `<option value="${u.id}">${escape(u.label)} (${escape(u.side)})</option>`)
    .join('')}</select>`;
}

function renderSituation(): void {
  const r = ui.resolver!;
  $('#situation-form').innerHTML = renderSituationForm(r.schema!, r.situation, lists(), rosterPicker);
  renderDice();
}

function renderDice(): void {
  const r = ui.resolver!;
  const desc = r.resolution?.dice ?? '';
  const sides = diceFields(desc);
  const box = $('#dice-box');
  if (desc === '') {
    box.innerHTML = '<legend>Dice</legend><span class="muted">This action rolls no dice.</span>';
    return;
  }
  const inputs = sides
    ? sides.map((s, i) => `<label>Die ${i + 1} <input class="die" data-die="${i}" type="number" min="1" max="${s}" inputmode="numeric" value="${escape(r.faces[i] ?? '')}"></label>`).join('')
    : `<label>Faces <input id="faces-list" value="${escape(r.faces.join(', '))}" placeholder="comma separated"></label>`;
  // Tap the face each physical die shows (dice up to d10), or type it.
  const pads = sides && sides.every((s) => s <= 10)
    ? `<div class="face-pads">${sides
        .map((s, i) => `<div class="pad" role="group" aria-label="Die ${i + 1} face">${Array.from({ length: s }, (_, f) => `<button type="button" class="face${r.faces[i] === String(f + 1) ? ' on' : ''}" data-face="${i}:${f + 1}" aria-label="Die ${i + 1} shows ${f + 1}">${f + 1}</button>`).join('')}</div>`)
        .join('')}</div>`
    : '';
  box.innerHTML = `<legend>Dice (${escape(desc)})</legend>${inputs}
    ${sides ? '<button id="battle-roll" class="primary" type="button" title="Alt+R">Roll</button>' : ''}
    <button id="battle-clear-dice" class="ghost" type="button">Clear</button>
    <label>Rolled by <input id="rolled-by" value="${escape(ui.rolledBy)}" placeholder="who threw them" size="10"></label>
    <span class="muted" id="battle-seed">${r.seed !== undefined ? `rolled by the app, seed ${r.seed}` : 'enter physical dice or roll'}</span>${pads}`;
}

function faces(): number[] | undefined {
  const r = ui.resolver!;
  const list = r.faces.filter((f) => f !== '').map(Number);
  return list.length && list.length === r.faces.length ? list : undefined;
}

async function resolveNow(): Promise<void> {
  const r = ui.resolver!;
  const ticket = ++ui.pending;
  const out = $('#battle-resolution');
  try {
    const res = await api.resolve({ ruleset: ui.view!.state.ruleset, action: r.action, situation: r.situation, dice: faces() });
    if (ticket !== ui.pending) return;
    const diceChanged = res.dice !== r.resolution?.dice;
    r.resolution = res;
    if (diceChanged) {
      const n = diceFields(res.dice)?.length ?? 0;
      r.faces = r.faces.slice(0, n);
      while (r.faces.length < n) r.faces.push('');
      renderDice();
    }
    guessMapping(res);
    void showWorth(ticket, res);
    out.innerHTML = renderResolution(res) + applyPanel(res, ui.view!, r.mapping, settings().diceMode === 'app') + '<div id="apply-message" aria-live="polite"></div>';
    sizeBars(out);
    $('#odds-strip').innerHTML = oddsStrip(res);
    void refreshOutlook(ticket);
  } catch (e) {
    if (ticket !== ui.pending) return;
    r.resolution = undefined;
    out.innerHTML = renderError(e as RefereeError);
    const f = (e as RefereeError).field;
    if (f) document.getElementById(`f-${f.replace(/\[(\d+)\]/g, '.$1')}`)?.setAttribute('aria-invalid', 'true');
  }
}

/** Beside each toggle, what flipping it would do to the odds (one resolution per toggle, without
 * dice; abandoned as soon as anything changes). */
async function showWorth(ticket: number, base: Resolution): Promise<void> {
  const r = ui.resolver!;
  const toggles = [...document.querySelectorAll<HTMLInputElement>('#situation-form input[data-kind="boolean"]')];
  for (const box of toggles) {
    if (ticket !== ui.pending) return;
    const path = parsePath(box.dataset.path!);
    const flipped = setAt(structuredClone(r.situation), path, !box.checked);
    let text = '';
    try {
      text = worth(base, await api.resolve({ ruleset: ui.view!.state.ruleset, action: r.action, situation: flipped }));
    } catch {
      text = 'not allowed';
    }
    if (ticket !== ui.pending) return;
    const label = box.closest('label');
    let badge = label?.querySelector<HTMLElement>('.worth');
    if (label && !badge) {
      badge = document.createElement('span');
      badge.className = 'worth';
      label.append(badge);
    }
    if (badge) {
      badge.textContent = text ? (box.checked ? `off: ${text}` : `on: ${text}`) : '';
      badge.title = 'What flipping this toggle does to the odds';
    }
  }
}

/** The chance each break point is reached if the result is applied with the units ticked. */
async function refreshOutlook(ticket = ui.pending): Promise<void> {
  const r = ui.resolver!;
  const box = document.querySelector('#outlook');
  if (!box) return;
  try {
    const chances = await api.outlook(ui.view!.id, { action: r.action, situation: r.situation, mapping: { targets: r.mapping, choices: r.choices } });
    if (ticket !== ui.pending) return;
    box.innerHTML = outlookRows(chances);
    sizeBars(box);
  } catch {
    box.innerHTML = '';
  }
}

/** Units picked from the roster into the attacking or defending part map to that side. */
function guessMapping(res: Resolution): void {
  const r = ui.resolver!;
  const attacking = /^(attackers|firing_hexes|firer|side_a|attacker)/;
  const defending = /^(defenders|target|side_b|defender)/;
  const byRole = (re: RegExp) => Object.entries(r.picks).filter(([k]) => re.test(k)).flatMap(([, ids]) => ids);
  for (const e of possibleEffects(res)) {
    const key = targetKey(e.target);
    if (r.mapping[key]) continue;
    if (key === 'attacker') r.mapping[key] = byRole(attacking);
    else if (key === 'defender') r.mapping[key] = byRole(defending);
    else if (key.startsWith('unit:')) {
      const u = Object.values(ui.view!.state.units).find((x) => x && !x.lost && x.label === key.slice(5));
      if (u) r.mapping[key] = [u.id];
    }
  }
}

async function applyResult(confirmed = false): Promise<void> {
  const r = ui.resolver!;
  // A target left without units is skipped: say so before anything is written.
  const unmapped = targetKeys(r.resolution ? possibleEffects(r.resolution) : []).filter((k) => !(r.mapping[k] ?? []).length);
  if (unmapped.length && !confirmed) {
    $('#apply-message').innerHTML = `<div class="panel warn" role="alert">No roster unit is ticked for ${unmapped.map((k) => `<strong>${escape(k)}</strong>`).join(', ')}: its effects will not be applied.
      <button class="primary" id="apply-anyway">Apply anyway</button></div>`;
    return;
  }
  if (settings().confirmApply && !confirmed) {
    $('#apply-message').innerHTML = `<div class="panel warn" role="alert">Apply ${escape(r.resolution?.outcome?.result ?? 'the result')} to the roster?
      <button class="primary" id="apply-anyway">Apply</button></div>`;
    return;
  }
  const list = faces();
  // No faces entered: the app rolls if the umpire chose that in Settings, else the core asks for them.
  const appRoll = r.seed !== undefined || (!list && settings().diceMode === 'app');
  const dice = r.resolution?.dice === '' ? { kind: 'none' as const } : appRoll ? { kind: 'app' as const, seed: r.seed } : { kind: 'physical' as const, faces: list ?? [] };
  try {
    ui.view = await api.apply(ui.view!.id, {
      action: r.action,
      situation: r.situation,
      dice,
      mapping: { targets: r.mapping, choices: r.choices },
      rolled_by: ui.rolledBy.trim() || undefined,
    });
    const last = ui.view.log[ui.view.log.length - 1];
    r.choices = {};
    refreshHead();
    // Rolled by the app just now: show the resolution with the faces it rolled.
    if (ui.view.applied?.outcome && !list) {
      r.faces = ui.view.applied.outcome.dice.map(String);
      renderDice();
      const out = $('#battle-resolution');
      out.innerHTML = renderResolution(ui.view.applied) + '<div id="apply-message" aria-live="polite"></div>';
      sizeBars(out);
    }
    $('#apply-message').innerHTML = `<p class="ok" id="applied">Applied: ${escape(last?.text ?? '')}${last?.changes.length ? ` — ${escape(last.changes.join('; '))}` : ''}</p>`;
  } catch (e) {
    const error = e as RefereeError;
    if (error.code === 'battle.choice_needed' && error.field?.startsWith('choices.')) {
      askChoice(error);
    } else {
      showError('#apply-message', e);
    }
  }
}

/** The rules leave a loss to a player: ask which units take it. */
function askChoice(error: RefereeError): void {
  const r = ui.resolver!;
  const index = error.field!.slice('choices.'.length);
  const effect = r.resolution?.outcome?.effects[Number(index)];
  const change = effect?.change as { count?: number } | undefined;
  const count = change?.count ?? 1;
  const key = effect ? targetKey(effect.target) : '';
  const candidates = (r.mapping[key] ?? []).map((id) => ui.view!.state.units[id]).filter((u): u is UnitState => !!u);
  const selects = Array.from({ length: count }, (_, i) => `<label>Loss ${i + 1} <select data-choice="${escape(index)}" data-n="${i}">${candidates
    .map((u) => `<option value="${u.id}">${escape(u.label)}</option>`)
    .join('')}</select></label>`).join('');
  $('#apply-message').innerHTML = `<div class="choice panel" role="group" aria-label="Choose the losses"><p>${escape(error.message)}</p>${selects}
    <button class="primary" id="confirm-choice" data-index="${escape(index)}">Confirm and apply</button></div>`;
}

// ---------------------------------------------------------------- events

async function act(call: () => Promise<BattleView>, where = '#battle-message'): Promise<void> {
  try {
    openView(await call());
  } catch (e) {
    showError(where, e);
  }
}

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

export async function onBattleClick(el: HTMLElement): Promise<boolean> {
  const d = el.dataset;
  const v = ui.view;
  if (d.open) { await openBattle(Number(d.open)); return true; }
  if (el.id === 'rules-began-under' && v?.began_under) {
    // The battle's own rules back in force (a preference, like ticking them in Settings).
    try {
      await chooseHouseRules(changesFor(v.began_under));
      await openBattle(v.id);
    } catch (e) {
      showError('#battle-message', e);
    }
    return true;
  }
  if (d.duplicate) { await api.duplicateBattle(Number(d.duplicate)).catch((e) => showError('#battles-message', e)); await refreshBattleList(); return true; }
  if (d.delete) {
    if (el.dataset.confirm !== 'yes') {
      el.dataset.confirm = 'yes';
      el.textContent = 'Really delete?';
      return true;
    }
    await api.deleteBattle(Number(d.delete)).catch((e) => showError('#battles-message', e));
    await refreshBattleList();
    return true;
  }
  if (d.export) {
    try {
      const text = await api.exportBattle(Number(d.export));
      download(`battle-${d.export}.json`, text);
      $('#export-box').innerHTML = `<div class="panel"><h3>Battle file</h3><p class="muted">Saved as a download; the text is below to copy if your system keeps no downloads.</p><textarea readonly rows="6" id="export-text">${escape(text)}</textarea></div>`;
    } catch (e) {
      showError('#battles-message', e);
    }
    return true;
  }
  if (!v) return false;
  if (el.id === 'to-battles') { document.body.dataset.screen = 'battles'; ui.resolver = undefined; await showBattles(); return true; }
  if (d.tab) {
    // A step of the sequence of play opens the resolver on its action.
    if (d.stepAction) ui.resolver = { action: d.stepAction, situation: {}, faces: [], mapping: {}, choices: {}, picks: {} };
    ui.tab = d.tab as Tab;
    renderBattle();
    return true;
  }
  if (el.id === 'undo') { await act(() => api.undo(v.id)); return true; }
  if (el.id === 'redo') { await act(() => api.redo(v.id)); return true; }
  if (el.id === 'next-turn') { await act(() => api.turn(v.id, v.state.turn + 1, null)); return true; }
  if (d.quick) {
    await act(() => api.adjust(v.id, { subject: { unit: Number(d.quick) }, change: JSON.parse(d.change ?? '{}') }));
    return true;
  }
  if (d.add && ui.resolver) {
    const r = ui.resolver;
    const path = parsePath(d.add);
    const list = (getAt(r.situation, path) as unknown[] | undefined) ?? [];
    list.push(blank(schemaAt(r.schema!, [...path, 0]), r.schema!, lists()));
    setAt(r.situation, path, list);
    renderSituation();
    await resolveNow();
    return true;
  }
  if (d.remove && ui.resolver) {
    removeAt(ui.resolver.situation, parsePath(d.remove));
    renderSituation();
    await resolveNow();
    return true;
  }
  if (el.id === 'battle-roll' && ui.resolver) {
    try {
      const roll = await api.rollDice(ui.resolver.resolution?.dice ?? '2d6');
      ui.resolver.faces = roll.faces.map(String);
      ui.resolver.seed = roll.seed;
      renderDice();
      document.querySelectorAll('#dice-box input.die').forEach((d) => d.classList.add('rolled'));
      await resolveNow();
    } catch (e) {
      showError('#battle-resolution', e);
    }
    return true;
  }
  if (d.face && ui.resolver) {
    const [i, face] = d.face.split(':');
    ui.resolver.faces[Number(i)] = face;
    ui.resolver.seed = undefined;
    renderDice();
    await resolveNow();
    return true;
  }
  if (d.derive && v) {
    const unit = v.state.units[Number(d.derive)];
    const box = document.querySelector(`#derived-${d.derive}`);
    if (unit && box) {
      try {
        const r = await api.resolve(derivation(v.state.ruleset, unit.stats));
        box.innerHTML = `<div class="totals">${r.totals.map((t) => `<div class="total"><span class="muted">${escape(t.label)}</span> <strong>${escape(t.value)}</strong> <span class="rule">§ ${escape(t.rule)}</span></div>`).join('')}</div>`;
      } catch (e) {
        box.innerHTML = renderError(e as RefereeError);
      }
    }
    return true;
  }
  if (el.id === 'battle-clear-dice' && ui.resolver) {
    ui.resolver.faces = ui.resolver.faces.map(() => '');
    ui.resolver.seed = undefined;
    renderDice();
    await resolveNow();
    return true;
  }
  if (el.id === 'apply-result') { await applyResult(); return true; }
  if (el.id === 'apply-anyway') { await applyResult(true); return true; }
  if (el.id === 'confirm-choice' && ui.resolver) {
    const index = el.dataset.index!;
    ui.resolver.choices[index] = [...document.querySelectorAll<HTMLSelectElement>(`select[data-choice="${index}"]`)].map((s) => Number(s.value));
    await applyResult(true);
    return true;
  }
  if (d.editRoll) {
    const seq = Number(d.editRoll);
    $('#edit-roll').innerHTML = `<div class="panel" id="edit-roll-panel"><h3>Edit the roll of #${seq}</h3>
      <label>Faces <input id="edit-faces" placeholder="e.g. 6, 6"></label>
      <button id="preview-edit" data-seq="${seq}">Preview</button><div id="edit-preview"></div></div>`;
    return true;
  }
  if (el.id === 'preview-edit' || el.id === 'confirm-edit') {
    const seq = Number(el.dataset.seq);
    const list = $<HTMLInputElement>('#edit-faces').value.split(/[,\s]+/).filter(Boolean).map(Number);
    try {
      const [preview, view] = await api.editRoll(v.id, seq, list, el.id === 'preview-edit');
      if (view) { openView(view, 'log'); return true; }
      $('#edit-preview').innerHTML = `<p>New result <strong>${escape(preview.result)}</strong>.</p>${preview.differences.length
        ? `<ul>${preview.differences.map((x) => `<li>${escape(x.what)}: ${escape(x.before)} → ${escape(x.after)}</li>`).join('')}</ul>`
        : '<p class="muted">Nothing on the table changes.</p>'}<button class="primary" id="confirm-edit" data-seq="${seq}">Edit the roll</button>`;
    } catch (e) {
      showError('#edit-preview', e);
    }
    return true;
  }
  return false;
}

export async function onBattleInput(el: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement): Promise<boolean> {
  const v = ui.view;
  if (el.id === 'new-ruleset') {
    document.querySelectorAll<HTMLElement>('.itacs-only').forEach((x) => { x.hidden = el.value !== 'itacs'; });
    return true;
  }
  if (el.id === 'import-file') {
    const file = (el as HTMLInputElement).files?.[0];
    if (!file) return true;
    try {
      openView(await api.importBattle(await file.text()), 'dashboard');
    } catch (e) {
      showError('#battles-message', e);
    }
    return true;
  }
  if (!v) return false;
  if (el.id === 'roster-filter') {
    ui.filter = el.value;
    $('#roster').innerHTML = rosterList(v, ui.filter);
    return true;
  }
  if (el.id === 'roster-file') {
    const file = (el as HTMLInputElement).files?.[0];
    if (!file) return true;
    try {
      const id = await api.importRosterCsv(file.name.replace(/\.csv$/i, ''), v.state.ruleset, await file.text());
      openView(await api.copyRoster(id, v.id, $<HTMLSelectElement>('#roster-side').value), 'roster');
    } catch (e) {
      showError('#battle-message', e);
    }
    return true;
  }
  if (el.id === 'phase') {
    await act(() => api.turn(v.id, v.state.turn, el.value || null));
    return true;
  }
  const r = ui.resolver;
  if (!r) return false;
  if (el.id === 'action') {
    r.action = el.value;
    r.schema = undefined;
    r.resolution = undefined;
    r.mapping = {};
    r.picks = {};
    r.faces = [];
    r.seed = undefined;
    await renderResolver();
    return true;
  }
  if (el.dataset.pick !== undefined) {
    const id = Number(el.value);
    const unit = v.state.units[id];
    if (unit) {
      const path = parsePath(el.dataset.pick);
      const list = (getAt(r.situation, path) as unknown[] | undefined) ?? [];
      // A list of hexes takes the unit inside a new hex; a list of units takes it as is.
      const itemSchema = schemaAt(r.schema!, [...path, 0]);
      const item = itemSchema.properties?.units ? { ...(blank(itemSchema, r.schema!, lists()) as object), label: unit.label, units: [unit.stats] } : structuredClone(unit.stats);
      if (list.length === 1 && JSON.stringify(list[0]) === JSON.stringify(blank(itemSchema, r.schema!, lists()))) list.pop();
      list.push(item);
      setAt(r.situation, path, list);
      r.picks[el.dataset.pick] = [...(r.picks[el.dataset.pick] ?? []), id];
      r.mapping = {};
    }
    renderSituation();
    await resolveNow();
    return true;
  }
  if (el.dataset.map !== undefined) {
    const key = el.dataset.map;
    r.mapping[key] = [...document.querySelectorAll<HTMLInputElement>(`input[data-map="${CSS.escape(key)}"]`)].filter((x) => x.checked).map((x) => Number(x.value));
    await refreshOutlook();
    return true;
  }
  if (el.dataset.die !== undefined) {
    r.faces[Number(el.dataset.die)] = el.value;
    r.seed = undefined;
    await resolveNow();
    return true;
  }
  if (el.id === 'rolled-by') {
    ui.rolledBy = el.value;
    return true;
  }
  if (el.id === 'faces-list') {
    r.faces = el.value.split(/[,\s]+/).filter(Boolean);
    r.seed = undefined;
    await resolveNow();
    return true;
  }
  if (el.dataset.path !== undefined) {
    const kind = el.dataset.kind as Kind;
    let value: unknown = parseInput(kind, el.value, (el as HTMLInputElement).checked, el.dataset.nullable === 'true');
    if (el.dataset.json === 'true') {
      try { value = JSON.parse(el.value); } catch { /* left as text: the core names the field */ }
    }
    document.querySelectorAll('[aria-invalid]').forEach((x) => x.removeAttribute('aria-invalid'));
    setAt(r.situation, parsePath(el.dataset.path), value);
    await resolveNow();
    return true;
  }
  return false;
}

export async function onBattleSubmit(form: HTMLFormElement): Promise<void> {
  if (form.id === 'new-battle') await createBattle();
  if (form.id === 'add-unit') await addUnit();
}

export function onBattleKey(ev: KeyboardEvent): void {
  if (!ui.view || !(ev.ctrlKey || ev.metaKey) || ev.key.toLowerCase() !== 'z') return;
  const target = ev.target as HTMLElement;
  if (target.matches('input, textarea, select')) return;
  ev.preventDefault();
  document.getElementById(ev.shiftKey ? 'redo' : 'undo')?.click();
}
