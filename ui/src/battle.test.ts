// @vitest-environment happy-dom
// The battle screens' logic against Tauri's IPC mocks: what each tap sends to the app's commands
// and what the screen shows back.
import { mockIPC, clearMocks } from '@tauri-apps/api/mocks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BattleView, SystemInfo } from './generated/api';
import { onBattleClick, onBattleInput, onBattleSubmit, setSystems, showBattles } from './battle';

const itacs = { id: 'itacs', name: 'ITACS', dice: '2d6', fingerprint: 'f', layers: [], actions: [{ id: 'melee', name: 'Melee combat', rule: '4.5' }], choices: [], phases: [] } as unknown as SystemInfo;

function view(over: Partial<BattleView['state']> = {}): BattleView {
  return {
    id: 7, events: 2, log: [{ seq: 1, at: '2026-11-21T10:00:00.000Z', kind: 'created', text: 'Battle “Cannae” begins', undone: false, edited: false, changes: [] }],
    undo: 2,
    state: {
      name: 'Cannae', ruleset: 'itacs', fingerprint: 'f', turn: 1, morale_track: 0, conflicts: [],
      sides: [{ name: 'Romans', commands: ['Left'], points_awarded: 0, panicked: false }, { name: 'Carthage', commands: [], points_awarded: 0, panicked: false }],
      units: { 1: { id: 1, label: '17.04', side: 'Romans', role: 'unit', stats: { type: 'SD', count: 4 }, strength: 4, starting: 4, d_markers: 0, broken: false, rout: false, scattered: false, disordered: false, hits: 0, lost: false, moves: [] } },
      ...over,
    },
    standing: { gauges: [{ side: 'Romans', label: 'Victory points', value: '0', reached: false, rule: '7.0' }], resolutions: [] },
  } as unknown as BattleView;
}

let calls: [string, Record<string, unknown>][] = [];

beforeEach(() => {
  document.body.innerHTML = '<div id="battles-screen"></div><div id="battle-screen"></div>';
  calls = [];
  setSystems([itacs]);
});
afterEach(() => clearMocks());

describe('the battles screen', () => {
  it('shows the empty state, then begins a battle with its sides, commands and ITACS settings', async () => {
    mockIPC((cmd, args) => {
      calls.push([cmd, args as Record<string, unknown>]);
      if (cmd === 'battles_list') return [];
      if (cmd === 'battle_create') return view();
      return null;
    });
    await showBattles();
    expect(document.querySelector('#battle-list')!.textContent).toContain('No battles yet');
    (document.querySelector('#new-name') as HTMLInputElement).value = 'Cannae';
    (document.querySelector('#new-side-a') as HTMLInputElement).value = 'Romans';
    (document.querySelector('#commands-a') as HTMLInputElement).value = 'Left, Centre';
    (document.querySelector('#panic-a') as HTMLInputElement).value = '10';
    (document.querySelector('#stacking-b') as HTMLInputElement).value = '3';
    await onBattleSubmit(document.querySelector('#new-battle') as HTMLFormElement);
    const [, args] = calls.find(([c]) => c === 'battle_create')!;
    expect(args.request).toEqual({
      name: 'Cannae',
      ruleset: 'itacs',
      sides: [
        { name: 'Romans', commands: ['Left', 'Centre'], panic_level: 10, stacking_limit: undefined },
        { name: 'Side B', commands: [], panic_level: undefined, stacking_limit: 3 },
      ],
    });
    // The new battle opens on its roster.
    expect(document.querySelector('#roster')!.textContent).toContain('17.04');
    expect(document.body.dataset.screen).toBe('battle');
  });

  it('shows the ITACS panic level and stacking limit only while ITACS is the chosen system', async () => {
    setSystems([{ ...itacs, id: 'dbmm', name: 'DBMM' }, itacs]);
    mockIPC((cmd) => (cmd === 'battles_list' ? [] : null));
    await showBattles();
    const shown = () => [...document.querySelectorAll<HTMLElement>('.itacs-only')].map((x) => !x.hidden);
    expect(shown()).toEqual([false, false]);
    const select = document.querySelector('#new-ruleset') as HTMLSelectElement;
    select.value = 'itacs';
    await onBattleInput(select);
    expect(shown()).toEqual([true, true]);
  });

  it('deletes a battle only on the second tap', async () => {
    mockIPC((cmd, args) => {
      calls.push([cmd, args as Record<string, unknown>]);
      if (cmd === 'battles_list') return [{ id: 7, name: 'Cannae', ruleset: 'itacs', fingerprint: 'f', created_at: 'x', updated_at: '2026-11-21T10:00:00Z', events: 2 }];
      return null;
    });
    await showBattles();
    const del = document.querySelector('[data-delete="7"]') as HTMLElement;
    await onBattleClick(del);
    expect(calls.some(([c]) => c === 'battle_delete')).toBe(false);
    expect(del.textContent).toBe('Really delete?');
    await onBattleClick(del);
    expect(calls.find(([c]) => c === 'battle_delete')![1]).toEqual({ battle: 7 });
  });
});

describe('a battle', () => {
  it('sends a quick edit as a logged adjustment and shows the answer', async () => {
    mockIPC((cmd, args) => {
      calls.push([cmd, args as Record<string, unknown>]);
      if (cmd === 'battles_list') return [{ id: 7, name: 'Cannae', ruleset: 'itacs', fingerprint: 'f', created_at: 'x', updated_at: '2026-11-21T10:00:00Z', events: 2 }];
      if (cmd === 'battle_view') return view();
      if (cmd === 'battle_adjust') {
        const v = view();
        v.state.units[1]!.d_markers = 1;
        return v;
      }
      return null;
    });
    await showBattles();
    await onBattleClick(document.querySelector('[data-open="7"]') as HTMLElement);
    await onBattleClick(document.querySelector('[data-tab="roster"]') as HTMLElement);
    await onBattleClick(document.querySelector('[data-quick="1"]') as HTMLElement);
    expect(calls.find(([c]) => c === 'battle_adjust')![1]).toEqual({ battle: 7, request: { subject: { unit: 1 }, change: { kind: 'd_markers', count: 1 } } });
    expect(document.querySelector('[data-testid="unit-state"]')!.textContent).toBe('4/4, 1 D');
  });

  it('shows a refused command as the core’s error, leaving the screen as it was', async () => {
    mockIPC((cmd) => {
      if (cmd === 'battles_list') return [{ id: 7, name: 'Cannae', ruleset: 'itacs', fingerprint: 'f', created_at: 'x', updated_at: '2026-11-21T10:00:00Z', events: 2 }];
      if (cmd === 'battle_view') return view();
      if (cmd === 'battle_undo') throw { code: 'battle.nothing_to_undo', message: 'nothing to undo: this is how the battle began' };
      return null;
    });
    await showBattles();
    await onBattleClick(document.querySelector('[data-open="7"]') as HTMLElement);
    await onBattleClick(document.querySelector('#undo') as HTMLElement);
    const error = document.querySelector('#battle-message .error')!;
    expect(error.getAttribute('data-code')).toBe('battle.nothing_to_undo');
    expect(document.querySelector('.side-card')!.textContent).toContain('Victory points');
  });

  it('starts a figure scale field at the scale chosen in Settings (15 mm), not the example\'s', async () => {
    const dbmm = {
      id: 'dbmm', name: 'DBMM', dice: 'd6 v d6', fingerprint: 'f', layers: [], phases: [],
      actions: [{ id: 'distances', name: 'Distances', rule: 'p. 29' }],
      choices: [{ field: 'scale', options: [{ key: '15mm', label: '15 mm and smaller' }, { key: '25mm', label: '20–28 mm' }] }],
    } as unknown as SystemInfo;
    setSystems([dbmm]);
    const schema = { type: 'object', properties: { element: { type: 'object', properties: { type: { type: 'string' } } }, scale: { type: ['string', 'null'], default: null } }, required: ['element'] };
    mockIPC((cmd, args) => {
      calls.push([cmd, args as Record<string, unknown>]);
      if (cmd === 'battles_list') return [{ id: 7, name: 'Zama', ruleset: 'dbmm', fingerprint: 'f', created_at: 'x', updated_at: '2026-11-21T10:00:00Z', events: 2 }];
      if (cmd === 'battle_view') return view({ ruleset: 'dbmm' });
      if (cmd === 'situation_schema') return schema;
      if (cmd === 'resolve') throw { code: 'test.stop', message: 'only the request matters here' };
      return null;
    });
    await showBattles();
    await onBattleClick(document.querySelector('[data-open="7"]') as HTMLElement);
    await onBattleClick(document.querySelector('[data-tab="resolve"]') as HTMLElement);
    await new Promise((r) => setTimeout(r, 50));
    const resolve = calls.find(([c]) => c === 'resolve');
    expect(resolve, JSON.stringify(calls.map(([c]) => c))).toBeDefined();
    const situation = (resolve![1].request as { situation: { scale: string; element: unknown } }).situation;
    // The docs example (generated/examples.json) says 25mm; Settings default to 15 mm figures.
    expect(situation.scale).toBe('15mm');
    expect(situation.element).toEqual({ type: 'LH', grade: 'O' });
  });

  it('offers to put back the rules a battle began under, as preferences, and reopens it', async () => {
    const changed = { ...view(), ruleset_changed: 'this battle began under other ruleset or house-rule files with forbid.toml', began_under: { on: ['forbid.toml'], off: ['hills.toml'] } };
    let chosen: unknown;
    mockIPC((cmd, args) => {
      calls.push([cmd, args as Record<string, unknown>]);
      if (cmd === 'battles_list') return [{ id: 7, name: 'Cannae', ruleset: 'itacs', fingerprint: 'f', created_at: 'x', updated_at: '2026-11-21T10:00:00Z', events: 2 }];
      if (cmd === 'battle_view') return chosen ? view() : changed;
      if (cmd === 'plugin:store|load') return 1;
      if (cmd === 'rulesets_choose') {
        chosen = (args as { choice: unknown }).choice;
        return { systems: [itacs], house_rules: [], problems: [] };
      }
      return null;
    });
    await showBattles();
    await onBattleClick(document.querySelector('[data-open="7"]') as HTMLElement);
    expect(document.querySelector('#battle-screen .error')!.textContent).toContain('began under other');
    await onBattleClick(document.querySelector('#rules-began-under') as HTMLElement);
    expect(document.querySelector('#battle-message .error')).toBeNull();
    expect(chosen).toEqual({ on: ['forbid.toml'], off: ['hills.toml'] });
    const saved = calls.find(([c]) => c === 'plugin:store|set')![1] as { value: { houseRules: unknown } };
    expect(saved.value.houseRules).toEqual({ 'forbid.toml': true, 'hills.toml': false });
    expect(document.querySelector('#rules-began-under')).toBeNull();
  });
});
