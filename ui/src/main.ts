// The app shell: the battles screens (battle.ts) and the quick ITACS combat form below — pick an
// ITACS action, enter units and situation, see cited modifiers, the exact odds of every result,
// and the result of entered or app-rolled dice, without a battle.
import * as api from './api';
import { onBattleClick, onBattleInput, onBattleKey, onBattleSubmit, setSystems, showBattles } from './battle';
import { applyTheme, chooseHouseRules, houseRuleChoice, loadSettings, onRulesChange, readSetting, renderSettings, saveSettings, settings, type SettingKey } from './settings';
import type { Choice, RefereeError, RulesetList, SystemInfo } from './generated/api';
import { escape, renderError, renderResolution, sizeBars } from './render';
import { FORM_ACTIONS, enteredDice, initialState, selectorForField, toSituation, unitRow, type ActionId, type FormState, type UnitRow } from './situation';

const state: FormState = initialState();
let system: SystemInfo | undefined;
let dice: string[] = ['', ''];
let rolledSeed: number | undefined;

const $ = <T extends HTMLElement>(sel: string) => document.querySelector<T>(sel)!;

function choices(field: string): Choice[] {
  return system?.choices.find((c) => c.field === field)?.options ?? [];
}

function options(list: Choice[], selected: string, blank?: string): string {
  const first = blank !== undefined ? `<option value="">${escape(blank)}</option>` : '';
  return first + list.map((c) => `<option value="${escape(c.key)}"${c.key === selected ? ' selected' : ''}>${escape(c.label)}</option>`).join('');
}

const isFire = () => state.action !== 'melee';

function unitRows(side: 'attackers' | 'defenders'): string {
  const rows = state[side]
    .map((u, i) => `<div class="unit" data-side="${side}" data-index="${i}">
      <label>Type <select data-field="type" aria-label="${side} unit ${i + 1} type">${options(choices('unit_type'), u.type, '— from counter —')}</select></label>
      <label>Count <input data-field="count" type="number" min="1" max="12" inputmode="numeric" value="${u.count}" aria-label="${side} unit ${i + 1} count"></label>
      <label>Class <select data-field="cls">${options(choices('unit_class'), u.cls, 'type’s')}</select></label>
      <label>Combat <input data-field="combat" size="4" placeholder="type’s" value="${escape(u.combat)}" title="A number, . (dot) or [n] (bracketed), 2.4.6"></label>
      ${side === 'attackers' && isFire() ? `<label>Fire <input data-field="fire" type="number" min="0" placeholder="type’s" value="${escape(u.fire)}"></label>` : ''}
      ${side === 'defenders' && isFire() ? `<label>Shields <select data-field="shields">${options([{ key: 'type', label: 'type’s' }, { key: 'yes', label: 'yes' }, { key: 'no', label: 'no' }], u.shields)}</select></label>` : ''}
      <label class="check"><input data-field="elite" type="checkbox"${u.elite ? ' checked' : ''}> Elite</label>
      <button class="ghost" data-remove aria-label="Remove unit"${state[side].length === 1 ? ' disabled' : ''}>✕</button>
    </div>`)
    .join('');
  return `${rows}<button class="ghost add" data-add="${side}">+ unit</button>`;
}

function check(id: string, label: string, on: boolean, rule: string): string {
  return `<label class="check"><input type="checkbox" id="${id}"${on ? ' checked' : ''}> ${escape(label)} <span class="rule">§ ${rule}</span></label>`;
}

function renderForm(): void {
  const fire = isFire();
  $('#situation').innerHTML = `
    <fieldset><legend>${fire ? 'Firing units' : 'Attacking units'}</legend>
      ${unitRows('attackers')}
      <div class="toggles">
        ${check('rear', fire ? 'Firing through a rear hex' : 'Attacking through a rear hex', state.rear, fire ? '4.2.4' : '4.5.8')}
        ${fire
          ? `<label>Range <input id="range" type="number" min="1" value="${state.range}"> <span class="rule">§ 4.2.7</span></label>
             ${state.action === 'defensive_fire' ? check('leader-firers', 'Leader in the firing hex', state.leaderWithFirers, '4.4.1') : ''}`
          : `<label>Leader bonus <input id="attacker-leader" type="number" min="0" value="${state.attackerLeader}"> <span class="rule">§ 6.1.3</span></label>
             <label>Attacking from <select id="attack-from">${options([{ key: 'ground', label: 'adjacent hex' }, { key: 'ladder_or_tower', label: 'ladder or siege tower' }, { key: 'wall', label: 'adjacent wall hex' }], state.attackFrom)}</select> <span class="rule">§ 3.1.4</span></label>`}
      </div>
    </fieldset>
    <fieldset><legend>${fire ? 'Target hex' : 'Defending units'}</legend>
      ${unitRows('defenders')}
      <div class="toggles">
        <label>Terrain <select id="terrain">${options(choices('terrain'), state.terrain)}</select> <span class="rule">§ 10.3</span></label>
        ${check('stream', 'Stream or river', state.stream, '3.1.2')}
        ${check('road', 'Road', state.road, '3.1.1')}
        ${check('square', 'Square formation', state.square, '2.6.1')}
        <label>D markers <input id="d-markers" type="number" min="0" max="9" inputmode="numeric" value="${state.dMarkers}"> <span class="rule">§ 5.1</span></label>
        ${fire
          ? `<label>Scarp <select id="scarp">${options([{ key: 'none', label: 'none' }, { key: 'firing_down', label: 'firing down' }, { key: 'firing_up', label: 'firing up' }], state.scarp)}</select> <span class="rule">§ 3.2.1</span></label>`
          : `<label>Leader bonus <input id="defender-leader" type="number" min="0" value="${state.defenderLeader}"> <span class="rule">§ 6.1.3</span></label>`}
      </div>
    </fieldset>
    <fieldset class="dice"><legend>Dice (2d6)</legend>
      <label>Die 1 <input id="die-0" class="die" type="number" min="1" max="6" inputmode="numeric" value="${dice[0]}"></label>
      <label>Die 2 <input id="die-1" class="die" type="number" min="1" max="6" inputmode="numeric" value="${dice[1]}"></label>
      <button id="roll" class="primary">Roll</button>
      <button id="clear-dice" class="ghost">Clear</button>
      <span id="seed" class="muted">${rolledSeed !== undefined ? `rolled by the app, seed ${rolledSeed}` : 'enter physical dice or roll'}</span>
    </fieldset>`;
}

function renderTabs(): void {
  const actions = (system?.actions ?? []).filter((a) => FORM_ACTIONS.includes(a.id));
  $('#actions').innerHTML = actions
    .map((a) => `<button role="tab" data-action="${escape(a.id)}" aria-selected="${a.id === state.action}">${escape(a.name)} <span class="rule">§ ${escape(a.rule)}</span></button>`)
    .join('');
}

let pending = 0;
async function update(): Promise<void> {
  const ticket = ++pending;
  const out = $('#resolution');
  document.querySelectorAll('[aria-invalid]').forEach((el) => el.removeAttribute('aria-invalid'));
  try {
    const r = await api.resolve({ ruleset: 'itacs', action: state.action, situation: toSituation(state), dice: enteredDice(dice) });
    if (ticket !== pending) return;
    out.innerHTML = renderResolution(r);
    sizeBars(out);
  } catch (e) {
    if (ticket !== pending) return;
    const error = e as RefereeError;
    out.innerHTML = renderError(error);
    const selector = selectorForField(error.field);
    if (selector) document.querySelector(selector)?.setAttribute('aria-invalid', 'true');
  }
}

function readUnit(row: UnitRow, field: string, el: HTMLInputElement | HTMLSelectElement): void {
  if (field === 'count') row.count = Math.max(0, Math.trunc(Number(el.value)) || 0);
  else if (field === 'elite') row.elite = (el as HTMLInputElement).checked;
  else if (field === 'type') row.type = el.value;
  else if (field === 'cls') row.cls = el.value;
  else if (field === 'combat') row.combat = el.value;
  else if (field === 'fire') row.fire = el.value;
  else if (field === 'shields') row.shields = el.value as UnitRow['shields'];
}

function onInput(ev: Event): void {
  const el = ev.target as HTMLInputElement | HTMLSelectElement;
  if (!el.closest('#quick-screen')) return;
  const unit = el.closest<HTMLElement>('.unit');
  if (unit && el.dataset.field) {
    const side = unit.dataset.side as 'attackers' | 'defenders';
    readUnit(state[side][Number(unit.dataset.index)], el.dataset.field, el);
  } else if (el.id.startsWith('die-')) {
    dice[Number(el.id.slice(4))] = el.value;
    rolledSeed = undefined;
    $('#seed').textContent = 'physical dice';
  } else {
    const checked = (el as HTMLInputElement).checked;
    const number = Math.max(0, Math.trunc(Number(el.value)) || 0);
    switch (el.id) {
      case 'rear': state.rear = checked; break;
      case 'stream': state.stream = checked; break;
      case 'road': state.road = checked; break;
      case 'square': state.square = checked; break;
      case 'leader-firers': state.leaderWithFirers = checked; break;
      case 'range': state.range = number; break;
      case 'attacker-leader': state.attackerLeader = number; break;
      case 'd-markers': state.dMarkers = number; break;
      case 'defender-leader': state.defenderLeader = number; break;
      case 'terrain': state.terrain = el.value; break;
      case 'scarp': state.scarp = el.value as FormState['scarp']; break;
      case 'attack-from': state.attackFrom = el.value as FormState['attackFrom']; break;
    }
  }
  void update();
}

let rulesetList: RulesetList = { systems: [], house_rules: [], problems: [] };

/** The rulesets in force, as the referee answered them: every screen reads its systems here. */
function useRulesets(list: RulesetList): void {
  rulesetList = list;
  setSystems(list.systems);
  system = list.systems.find((s) => s.id === 'itacs');
  $('#system').textContent = system ? `${system.name} · ruleset ${system.fingerprint}` : '';
  if (list.problems.length) $('#resolution').innerHTML = list.problems.map(renderError).join('');
}

/** A house rule ticked or unticked in Settings: saved, put in force, the screen redrawn. */
async function onHouseRule(el: HTMLInputElement): Promise<void> {
  const file = el.dataset.houseRule!;
  const message = () => $('#settings-message');
  let failed: RefereeError | undefined;
  try {
    await chooseHouseRules({ [file]: el.checked });
  } catch (e) {
    failed = e as RefereeError;
  }
  // Redrawn from what is in force, so a box that could not be saved shows its real state.
  $('#settings-screen').innerHTML = renderSettings(settings(), rulesetList);
  document.querySelector<HTMLInputElement>(`[data-house-rule="${CSS.escape(file)}"]`)?.focus();
  if (failed) {
    message().innerHTML = renderError(failed.code ? failed : { code: 'settings.unsaved', message: `The choice could not be saved: ${String(failed)}` });
    return;
  }
  const rule = rulesetList.house_rules.find((h) => h.file === file);
  const problems = rulesetList.problems.map(renderError).join('');
  message().innerHTML = `<p class="ok">Saved: ${rule?.on ? 'in force' : 'left out'} — ${escape(rule?.name ?? file)}.</p>${problems}`;
}

function showScreen(screen: 'battles' | 'battle' | 'quick' | 'settings'): void {
  document.body.dataset.screen = screen;
  document.querySelectorAll<HTMLButtonElement>('[data-nav]').forEach((b) => b.setAttribute('aria-current', String(b.dataset.nav === screen || (screen === 'battle' && b.dataset.nav === 'battles'))));
}

async function onClick(ev: Event): Promise<void> {
  const el = (ev.target as HTMLElement).closest<HTMLElement>('button');
  if (!el) return;
  if (el.dataset.nav === 'battles') {
    showScreen('battles');
    await showBattles();
    return;
  }
  if (el.dataset.nav === 'settings') {
    showScreen('settings');
    $('#settings-screen').innerHTML = renderSettings(settings(), rulesetList);
    return;
  }
  if (el.dataset.nav === 'quick') {
    showScreen('quick');
    await update();
    return;
  }
  if (el.id === 'theme') {
    const theme = document.documentElement.dataset.theme === 'light' ? 'dark' : 'light';
    applyTheme(theme);
    await saveSettings({ ...settings(), theme }).catch(() => undefined);
    return;
  }
  if (!el.closest('#quick-screen')) {
    if (await onBattleClick(el)) showScreen(document.body.dataset.screen === 'battle' ? 'battle' : 'battles');
    return;
  }
  if (el.dataset.action) {
    state.action = el.dataset.action as ActionId;
    if (isFire() && state.attackers.every((u) => u.type === 'SD')) state.attackers = [unitRow('LB', 2)];
    renderTabs();
    renderForm();
  } else if (el.dataset.add) {
    const side = el.dataset.add as 'attackers' | 'defenders';
    state[side].push(unitRow(''));
    renderForm();
  } else if (el.hasAttribute('data-remove')) {
    const unit = el.closest<HTMLElement>('.unit')!;
    state[unit.dataset.side as 'attackers' | 'defenders'].splice(Number(unit.dataset.index), 1);
    renderForm();
  } else if (el.id === 'roll') {
    try {
      const roll = await api.rollDice(system?.dice ?? '2d6');
      dice = roll.faces.map(String);
      rolledSeed = roll.seed;
      renderForm();
    } catch (e) {
      $('#resolution').innerHTML = renderError(e as RefereeError);
      return;
    }
  } else if (el.id === 'clear-dice') {
    dice = ['', ''];
    rolledSeed = undefined;
    renderForm();
  } else {
    return;
  }
  await update();
}

async function start(): Promise<void> {
  // Preferences from the store plugin's file (defaults if it is missing or damaged).
  applyTheme((await loadSettings()).theme);
  document.addEventListener('input', (ev) => {
    const el = ev.target as HTMLInputElement;
    // Selects, checkboxes and files answer on change; text and numbers as they are typed.
    if (el.closest('#quick-screen')) onInput(ev);
    else if (el.tagName !== 'SELECT' && el.type !== 'checkbox' && el.type !== 'file') void onBattleInput(el);
  });
  document.addEventListener('change', (ev) => {
    const el = ev.target as HTMLInputElement;
    if (el.dataset.houseRule) {
      void onHouseRule(el);
      return;
    }
    if (el.dataset.setting) {
      const key = el.dataset.setting as SettingKey;
      saveSettings({ ...settings(), [key]: readSetting(key, el.value) })
        .then(() => { $('#settings-message').innerHTML = '<p class="ok">Saved.</p>'; })
        .catch((e) => { $('#settings-message').innerHTML = renderError({ code: 'settings.unsaved', message: `The preferences could not be saved: ${String(e)}` }); });
      return;
    }
    if (el.closest('#quick-screen')) {
      if (el.tagName === 'SELECT') onInput(ev);
    } else if (el.tagName === 'SELECT' || el.type === 'checkbox' || el.type === 'file') {
      void onBattleInput(el);
    }
  });
  document.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void onBattleSubmit(ev.target as HTMLFormElement).then(() => showScreen(document.body.dataset.screen === 'battle' ? 'battle' : 'battles'));
  });
  document.addEventListener('click', (ev) => void onClick(ev));
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'r' && ev.altKey) (document.querySelector<HTMLElement>('#quick-screen:not([hidden]) #roll') ?? document.querySelector<HTMLElement>('#battle-roll'))?.click();
    onBattleKey(ev);
  });
  showScreen('battles');
  try {
    // The house rules and switchable rulings chosen in Settings go in force before anything else.
    onRulesChange(useRulesets);
    useRulesets(await api.chooseRulesets(houseRuleChoice(settings())));
  } catch (e) {
    $('#resolution').innerHTML = renderError(e as RefereeError);
  }
  await showBattles();
  renderTabs();
  renderForm();
}

void start();
