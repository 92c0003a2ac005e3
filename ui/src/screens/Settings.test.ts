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
    const calls = mockCommands((cmd) => (cmd === 'rulesets_choose' ? { systems: [itacs], house_rules: [forbid, { ...club, on: true }], problems: [] } : cmd === 'plugin:store|load' ? 1 : null));
    render(Settings);
    await fireEvent.click(screen.getAllByRole('checkbox')[1]);
    await waitFor(() => expect(calls.find(([c]) => c === 'rulesets_choose')?.[1]).toEqual({ choice: { on: ['/data/rulesets/club.toml'], off: [] } }));
    expect(await screen.findByText('Saved: in force — Our <club>.')).toBeInTheDocument();
  });
});
