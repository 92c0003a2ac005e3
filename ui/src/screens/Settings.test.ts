// Settings against Tauri's IPC mocks: every preference with its choice, the rulings and house
// rules as boxes ticked when in force, in words (no file names, no fingerprints).
import { clearMocks } from '@tauri-apps/api/mocks';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HouseRuleInfo, SystemInfo } from '../generated/api';
import { app } from '../lib/app.svelte';
import { mockCommands } from '../test-fixtures';
import Settings from './Settings.svelte';

const itacs = { id: 'itacs', name: 'ITACS — Improved Tactical System', fingerprint: 'ab'.repeat(32), layers: ['rulesets/itacs.toml', 'rulesets/switches/forbid.toml'] } as SystemInfo;
const forbid: HouseRuleInfo = { file: 'rulesets/switches/forbid.toml', extends: 'itacs', name: 'Forbid attacks below 1:2', ruling: 'R-ITACS-1', description: 'Refused.', switch: true, on: true };
const club: HouseRuleInfo = { file: '/data/rulesets/club.toml', extends: 'itacs', name: 'Our <club>', switch: false, on: false };

beforeEach(() => {
  app.rules = { systems: [itacs], house_rules: [forbid, club], problems: [] };
});
afterEach(() => clearMocks());

describe('settings', () => {
  it('list every preference, and the rulings and house-rule files as boxes ticked when in force, in words', () => {
    mockCommands(() => null);
    render(Settings);
    expect(screen.getByLabelText(/Before a result is applied/)).toHaveValue('false');
    const boxes = screen.getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes.map((b) => b.checked)).toEqual([true, false]);
    expect(boxes[0].closest('label')).toHaveTextContent('ITACS · R-ITACS-1 Forbid attacks below 1:2');
    expect(boxes[1].closest('label')).toHaveTextContent('Our <club>');
    const text = document.body.textContent ?? '';
    expect(text).toContain('ITACS — Improved Tactical System: the rules, with R-ITACS-1 Forbid attacks below 1:2');
    expect(text).not.toMatch(/\.toml|abab|docs\//);
  });

  it('puts a house rule in force when ticked, and says so', async () => {
    const calls = mockCommands((cmd) => (cmd === 'rulesets_choose' ? { systems: [itacs], house_rules: [forbid, { ...club, on: true }], problems: [] } : cmd === 'preferences_load' ? {} : null));
    render(Settings);
    await fireEvent.click(screen.getAllByRole('checkbox')[1]);
    await waitFor(() => expect(calls.find(([c]) => c === 'rulesets_choose')?.[1]).toEqual({ choice: { on: ['/data/rulesets/club.toml'], off: [] } }));
    expect(await screen.findByText('Saved: in force — Our <club>.')).toBeInTheDocument();
  });

  it('lists the backups by time and reason, and restores one only after a confirmation', async () => {
    const daily = { id: 'referee-20261123T090000000Z-daily.db', taken_at: '2026-11-23T09:00:00Z', reason: 'daily', battles: 2, bytes: 4096 };
    const older = { ...daily, id: 'referee-20261122T090000000Z-on-demand.db', taken_at: '2026-11-22T09:00:00Z', reason: 'on_demand', battles: 1 };
    const calls = mockCommands((cmd) => {
      if (cmd === 'backups_list') return { backups: [daily, older], problem: null };
      if (cmd === 'backup_restore') return { backups: [{ ...daily, id: 'x', reason: 'before_restore' }, daily, older], problem: null };
      return null;
    });
    app.view = { id: 9 } as never;
    render(Settings);
    expect(await screen.findByText(/22 November 2026, \d\d:\d\d — backed up on request · 1 battle$/)).toBeInTheDocument();
    const text = document.body.textContent ?? '';
    expect(text).not.toMatch(/referee-|\.db\b|on_demand/);
    await fireEvent.click(screen.getAllByRole('button', { name: /^Restore the backup of/ })[1]);
    expect(calls.some(([c]) => c === 'backup_restore')).toBe(false);
    expect(screen.getByRole('alertdialog')).toHaveTextContent(/kept as a backup first/);
    await fireEvent.click(screen.getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(calls.find(([c]) => c === 'backup_restore')?.[1]).toEqual({ backup: older.id }));
    expect(await screen.findByText(/^Restored: the battles as they were on/)).toBeInTheDocument();
    expect(screen.getByText(/before a backup was restored/)).toBeInTheDocument();
    expect(app.view).toBeUndefined();
  });

  it('says when the last automatic backup failed', async () => {
    mockCommands((cmd) => (cmd === 'backups_list' ? { backups: [], problem: { code: 'store.disk_full', message: 'The disk is full.' } } : null));
    render(Settings);
    expect(await screen.findByText('The last automatic backup failed: The disk is full.')).toBeInTheDocument();
  });
});
