// The battles screen against Tauri's IPC mocks: what each tap sends and what the screen shows.
import { clearMocks } from '@tauri-apps/api/mocks';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Preset } from '../generated/api';
import { app } from '../lib/app.svelte';
import { itacs, gts, mockCommands, view } from '../test-fixtures';
import Battles from './Battles.svelte';

const preset: Preset = {
  id: 'itacs-cannae', name: 'The 4.5.13 melee', ruleset: 'itacs', rule: '4.5.13', description: 'Six SD attack two PS.', builtin: true,
  sides: [{ name: 'Romans', commands: [], panic_level: 10 }, { name: 'Carthaginians', commands: [] }],
  units: [{ label: '17.03', side: 'Romans', stats: { type: 'PS', count: 2 } }, { label: '17.04', side: 'Carthaginians', stats: { type: 'SD', count: 4 } }],
};

beforeEach(() => {
  app.rules = { systems: [itacs, gts], house_rules: [], problems: [] };
  app.screen = 'battles';
  app.view = undefined;
});
afterEach(() => clearMocks());

describe('the battles screen', () => {
  it('shows the empty state, then begins a battle with its sides, commands and ITACS settings', async () => {
    const calls = mockCommands((cmd) => (cmd === 'battles_list' || cmd === 'battles_deleted' ? [] : cmd === 'presets_list' ? { presets: [], problems: [] } : cmd === 'battle_create' ? view() : null));
    render(Battles);
    expect(await screen.findByText(/No battles yet/)).toBeInTheDocument();
    await fireEvent.input(screen.getByLabelText('Name', { selector: '#new-name' }), { target: { value: 'Cannae' } });
    await fireEvent.input(document.querySelector('#new-side-a')!, { target: { value: 'Romans' } });
    await fireEvent.input(document.querySelector('#commands-a')!, { target: { value: 'Left, Centre' } });
    await fireEvent.input(document.querySelector('#panic-a')!, { target: { value: '10' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Begin' }));
    await waitFor(() => expect(calls.some(([c]) => c === 'battle_create')).toBe(true));
    const request = calls.find(([c]) => c === 'battle_create')![1].request as { name: string; sides: unknown[] };
    expect(request.name).toBe('Cannae');
    expect(request.sides[0]).toEqual({ name: 'Romans', commands: ['Left', 'Centre'], panic_level: 10, stacking_limit: undefined });
    // The battle shows once its answer is in.
    await waitFor(() => expect(app.screen).toBe('battle'));
    expect(app.tab).toBe('roster');
  });

  it('refuses a panic level beside itself, sends nothing while it is wrong, and says the API’s refusal there too', async () => {
    let refuse = true;
    const calls = mockCommands((cmd) => {
      if (cmd === 'battles_list' || cmd === 'battles_deleted') return [];
      if (cmd === 'presets_list') return { presets: [], problems: [] };
      if (cmd === 'battle_create') {
        if (refuse) throw { code: 'battle.invalid_setup', message: 'Stacking limit must be a whole number from 1 to 10,000 (0 is not).', field: 'sides[1].stacking_limit', rule: '4.3.3' };
        return view();
      }
      return null;
    });
    render(Battles);
    await screen.findByText(/No battles yet/);
    const begin = screen.getByRole('button', { name: 'Begin' });
    for (const bad of ['-5', '5000000000', '2.5', '-']) {
      await fireEvent.input(document.querySelector('#panic-a')!, { target: { value: bad } });
      expect(document.querySelector('#panic-a-error')).toHaveTextContent('Panic level must be a whole number from 0 to 10,000.');
      expect((document.querySelector('#panic-a') as HTMLInputElement).value).toBe(bad);
      expect(begin).toBeDisabled();
      expect(document.querySelector('#create-battle-waiting')).toHaveTextContent('Correct the first side’s panic level first');
    }
    await fireEvent.input(document.querySelector('#new-name')!, { target: { value: '' } });
    expect(document.querySelector('#new-name-error')).toHaveTextContent('Name the battle: it cannot be left empty.');
    await fireEvent.submit(document.querySelector('#new-battle')!);
    expect(calls.some(([c]) => c === 'battle_create')).toBe(false);
    // Made right: the refusals go and Begin is free.
    await fireEvent.input(document.querySelector('#panic-a')!, { target: { value: '20' } });
    await fireEvent.input(document.querySelector('#new-name')!, { target: { value: 'Cannae' } });
    expect(document.querySelector('#panic-a-error')).toBeNull();
    expect(document.querySelector('#new-name-error')).toBeNull();
    expect(begin).toBeEnabled();
    // What the API refuses is said beside the field it names, and goes once that field changes.
    await fireEvent.click(begin);
    await waitFor(() => expect(document.querySelector('#new-battle')).toHaveTextContent('Stacking limit must be a whole number from 1 to 10,000 (0 is not).'));
    expect(document.querySelector('#battles-message')).toHaveTextContent('');
    await fireEvent.input(document.querySelector('#stacking-b')!, { target: { value: '2' } });
    expect(document.querySelector('#new-battle')).not.toHaveTextContent('(0 is not)');
    refuse = false;
    await fireEvent.click(begin);
    await waitFor(() => expect(app.screen).toBe('battle'));
    const request = calls.filter(([c]) => c === 'battle_create').pop()![1].request as { sides: { panic_level?: number; stacking_limit?: number }[] };
    expect(request.sides.map((s) => [s.panic_level, s.stacking_limit])).toEqual([[20, undefined], [undefined, 2]]);
  });

  it('shows the ITACS panic level and stacking limit only while ITACS is the chosen system', async () => {
    mockCommands((cmd) => (cmd === 'battles_list' || cmd === 'battles_deleted' ? [] : cmd === 'presets_list' ? { presets: [], problems: [] } : null));
    render(Battles);
    await screen.findByText(/No battles yet/);
    expect(document.querySelector('#panic-a')).not.toBeNull();
    await fireEvent.change(document.querySelector('#new-ruleset')!, { target: { value: 'gts' } });
    expect(document.querySelector('#panic-a')).toBeNull();
    expect(screen.getByText(/general and baggage/)).toBeInTheDocument();
  });

  it('begins from a preset: its preview, then its sides and units sent in one request', async () => {
    const calls = mockCommands((cmd) => (cmd === 'battles_list' || cmd === 'battles_deleted' ? [] : cmd === 'presets_list' ? { presets: [preset], problems: [] } : cmd === 'battle_create' ? view() : null));
    render(Battles);
    await waitFor(() => expect(document.querySelector('#new-preset option[value="itacs-cannae"]')).not.toBeNull());
    await fireEvent.change(document.querySelector('#new-preset')!, { target: { value: 'itacs-cannae' } });
    const preview = document.querySelector('#preset-preview')!;
    expect(preview).toHaveTextContent('Six SD attack two PS.');
    expect(preview).toHaveTextContent('Romans 1 unit');
    expect((document.querySelector('#new-name') as HTMLInputElement).value).toBe('The 4.5.13 melee');
    await fireEvent.click(screen.getByRole('button', { name: 'Begin' }));
    await waitFor(() => expect(calls.some(([c]) => c === 'battle_create')).toBe(true));
    const request = calls.find(([c]) => c === 'battle_create')![1].request as { units: unknown[]; sides: { name: string; panic_level?: number }[] };
    expect(request.units).toEqual(preset.units);
    expect(request.sides.map((s) => [s.name, s.panic_level])).toEqual([['Romans', 10], ['Carthaginians', undefined]]);
    await waitFor(() => expect(app.tab).toBe('dashboard'));
  });

  it('deletes a battle only on the second tap, keeps it among the recently deleted, and restores it', async () => {
    const cannae = { id: 3, name: 'Cannae', ruleset: 'itacs', fingerprint: 'f', created_at: '2026-11-21T10:00:00Z', updated_at: '2026-11-21T10:05:00Z', events: 1 };
    let rows = [cannae];
    let deleted: unknown[] = [];
    const calls = mockCommands((cmd) => {
      if (cmd === 'battles_list') return rows;
      if (cmd === 'battles_deleted') return deleted;
      if (cmd === 'presets_list') return { presets: [], problems: [] };
      if (cmd === 'battle_delete') {
        rows = [];
        deleted = [{ battle: cannae, deleted_at: new Date().toISOString(), kept_until: '2026-12-23T10:00:00.000Z' }];
        return null;
      }
      if (cmd === 'battle_restore') { rows = [cannae]; deleted = []; return null; }
      return null;
    });
    render(Battles);
    expect(await screen.findByText(/ITACS · 1 event · 2026-11-21 10:05/)).toBeInTheDocument();
    expect(screen.queryByText(/Recently deleted/)).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Delete Cannae' }));
    expect(calls.some(([c]) => c === 'battle_delete')).toBe(false);
    await fireEvent.click(screen.getByRole('button', { name: 'Really delete? Cannae' }));
    await waitFor(() => expect(calls.some(([c]) => c === 'battle_delete')).toBe(true));
    expect(await screen.findByText(/No battles yet/)).toBeInTheDocument();
    expect(await screen.findByText('Recently deleted (1)')).toBeInTheDocument();
    expect(screen.getByText(/Deleted today · can be restored until 23 December/)).toBeInTheDocument();
    const restore = screen.getByRole('button', { name: 'Restore Cannae' });
    await Promise.all([fireEvent.click(restore), fireEvent.click(restore)]);
    await waitFor(() => expect(calls.find(([c]) => c === 'battle_restore')?.[1]).toEqual({ battle: 3 }));
    expect(calls.filter(([c]) => c === 'battle_restore')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByText(/Recently deleted/)).toBeNull());
    expect(screen.getByText(/ITACS · 1 event/)).toBeInTheDocument();
  });

  it('shows a refused command as a sentence, its code nowhere on screen', async () => {
    mockCommands((cmd) => {
      if (cmd === 'battles_list' || cmd === 'battles_deleted') return [];
      if (cmd === 'presets_list') return { presets: [], problems: [] };
      if (cmd === 'battle_create') throw { code: 'battle.invalid_setup', message: 'a battle needs two sides with `different` names', field: 'sides' };
      return null;
    });
    render(Battles);
    await screen.findByText(/No battles yet/);
    await fireEvent.click(screen.getByRole('button', { name: 'Begin' }));
    const alert = await screen.findByRole('alert');
    expect(alert.querySelector('strong')).toHaveTextContent('Sides: A battle needs two sides with different names.');
    expect(alert).not.toHaveTextContent('battle.invalid_setup');
    expect(alert).toHaveAttribute('data-code', 'battle.invalid_setup');
    expect(app.screen).toBe('battles');
  });
});
