// A battle's screen against Tauri's IPC mocks: the dashboard's gauges and verdicts in words, the
// alert when a change reaches a break point, undo naming what it takes back, the rules it began
// under put back in one tap, and a citation opening its section.
import { clearMocks } from '@tauri-apps/api/mocks';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Gauge } from '../generated/api';
import { app } from '../lib/app.svelte';
import { itacs, mockCommands, unit, view } from '../test-fixtures';
import App from '../App.svelte';
import Battle from './Battle.svelte';

const panic: Gauge = { side: 'Romans', label: 'Panic level', value: 'enemy has 4 of 10 points', to_go: '6 points to panic', progress: 0.4, reached: false, rule: '5.4', ruling: 'R-ITACS-23' };

beforeEach(() => {
  app.rules = { systems: [itacs], house_rules: [], problems: [] };
  app.view = view({}, [panic]);
  app.screen = 'battle';
  app.tab = 'dashboard';
  app.alerts = [];
  app.problem = undefined;
});
afterEach(() => clearMocks());

describe('a battle', () => {
  it('reads each gauge as one line with its rule, and names what undo takes back', async () => {
    mockCommands(() => null);
    render(Battle);
    const card = document.querySelector('.side-card[data-side="Romans"]')!;
    expect(card).toHaveTextContent('Panic level · enemy has 4 of 10 points · 6 points to panic');
    expect(card.querySelector('button.cite')).toHaveTextContent('§ 5.4 · R-ITACS-23');
    expect(screen.getByRole('button', { name: 'Undo: Added 17.04' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Redo' })).toBeDisabled();
  });

  it('groups a side\'s units by hex on the dashboard, and one tap picks the stack', async () => {
    mockCommands(() => null);
    app.view = view({ units: {
      1: unit({ id: 1, label: 'Pikes', place: 'Hex 17.03' }),
      2: unit({ id: 2, label: 'Hastati', side: 'Carthage', place: 'Hex 18.04' }),
      3: unit({ id: 3, label: 'Bows', place: 'Hex 17.03' }),
      4: unit({ id: 4, label: 'Loose' }),
    } }, [panic]);
    app.picks = { attackers: [], defenders: [] };
    render(Battle);
    const hex = document.querySelector('.unit-strip [data-place="Hex 17.03"]')!;
    expect([...hex.querySelectorAll('button strong')].map((e) => e.textContent)).toEqual(['Pikes', 'Bows']);
    expect(hex).toHaveTextContent('Hex 17.03');
    expect(document.querySelector('.unit-strip [data-place="Hex 18.04"]')).toHaveTextContent('Hastati');
    await fireEvent.click(hex.querySelector('button[data-pick-unit="3"]')!);
    expect(app.picks).toEqual({ attackers: [3, 1], defenders: [] });
  });

  it('says at once when an undo (or any change) reaches a break point, with the rule', async () => {
    // The core's gauge says the army panicked; the banner says it in the gauge's words.
    const after = view({ sides: [{ name: 'Romans', commands: [], points_awarded: 0, panicked: true }, { name: 'Carthage', commands: [], points_awarded: 0, panicked: false }] }, [{ ...panic, status: 'panicked', reached: true, value: 'enemy has 10 of 10 points', progress: 1 }]);
    const calls = mockCommands((cmd) => (cmd === 'battle_undo' ? after : null));
    render(Battle);
    await fireEvent.click(screen.getByRole('button', { name: 'Undo: Added 17.04' }));
    await waitFor(() => expect(calls.some(([c]) => c === 'battle_undo')).toBe(true));
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Romans: Panic level — panicked · enemy has 10 of 10 points · reached');
    await fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a refused command as a sentence, leaving the screen as it was', async () => {
    mockCommands((cmd) => {
      if (cmd === 'battle_turn') throw { code: 'battle.invalid_turn', message: 'the turn cannot go back: use undo' };
      return null;
    });
    render(Battle);
    await fireEvent.click(screen.getByRole('button', { name: 'Next turn' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The turn cannot go back: use undo.');
    expect(document.querySelector('#turn')).toHaveTextContent('1');
  });

  it('offers to put back the rules a battle began under, as preferences, and reopens it', async () => {
    app.view = { ...view(), ruleset_changed: 'began under rulesets/itacs.toml + switches', began_under: { on: ['rulesets/switches/forbid.toml'], off: [] } };
    const calls = mockCommands((cmd) => {
      if (cmd === 'rulesets_choose') return { systems: [itacs], house_rules: [], problems: [] };
      if (cmd === 'battle_view') return view();
      return null;
    });
    render(Battle);
    expect(screen.getByText(/began under other rules/)).not.toHaveTextContent('rulesets/');
    await fireEvent.click(screen.getByRole('button', { name: 'Play it under the rules it began under' }));
    await waitFor(() => expect(calls.find(([c]) => c === 'rulesets_choose')?.[1]).toEqual({ choice: { on: ['rulesets/switches/forbid.toml'], off: [] } }));
    await waitFor(() => expect(calls.some(([c]) => c === 'battle_view')).toBe(true));
  });

  it('opens a citation’s section: its title and the rule’s words', async () => {
    HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) { this.open = true; };
    HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) { this.open = false; };
    const calls = mockCommands((cmd) => {
      if (cmd === 'rule_section') return { ruleset: 'itacs', section: '5.4', title: 'Panic', text: 'When an army has lost units worth its panic level…' };
      if (cmd === 'rulesets_choose') return { systems: [itacs], house_rules: [], problems: [] };
      if (cmd === 'preferences_load') return {};
      return null;
    });
    render(App);
    const cite = await screen.findByRole('button', { name: '§ 5.4 · R-ITACS-23' });
    await fireEvent.click(cite);
    await waitFor(() => expect(calls.find(([c]) => c === 'rule_section')?.[1]).toEqual({ ruleset: 'itacs', section: '5.4' }));
    expect(await screen.findByText('When an army has lost units worth its panic level…')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'ITACS § 5.4 — Panic' })).toBeInTheDocument();
  });
});
