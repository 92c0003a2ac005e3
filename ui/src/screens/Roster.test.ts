// The roster and its unit editor against Tauri's IPC mocks: units come from the ruleset's lists,
// never typed as JSON; each edit, copy and removal is one command.
import { clearMocks } from '@tauri-apps/api/mocks';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UnitForm, UnitSpec } from '../generated/api';
import { app } from '../lib/app.svelte';
import { gts, itacs, itacsForm, mockCommands, unit, view } from '../test-fixtures';
import Roster from './Roster.svelte';

beforeEach(() => {
  app.rules = { systems: [itacs], house_rules: [], problems: [] };
  app.view = view();
  app.screen = 'battle';
  app.tab = 'roster';
});
afterEach(() => clearMocks());

function commands(extra: (cmd: string, args: Record<string, unknown>) => unknown = () => null) {
  return mockCommands((cmd, args) => {
    if (cmd === 'unit_form') return itacsForm;
    if (cmd === 'unit_preview') return { summary: `${(args.stats as { count?: number }).count ?? 1} × Spear-armed drilled foot`, values: [{ label: 'Combat', value: '3', rule: '2.4.5' }] };
    if (cmd === 'battle_add_unit') return view();
    return extra(cmd, args);
  });
}

describe('the roster', () => {
  it('picks a fight: the first side tapped attacks, a unit of the other defends, Resolve opens the resolver on them', async () => {
    commands();
    app.view = view({ units: { 1: unit({ id: 1, label: '17.04', side: 'Romans' }), 2: unit({ id: 2, label: '17.03', side: 'Carthage' }), 3: unit({ id: 3, label: '18.05', side: 'Romans' }) } });
    render(Roster);
    await fireEvent.click(await screen.findByRole('button', { name: 'Pick for a fight: 17.03' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Pick for a fight: 17.04' }));
    expect(screen.getByRole('button', { name: 'Attacks: 17.03' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Defends: 17.04' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'The fight picked' })).toHaveTextContent('Carthage: 17.03 against Romans: 17.04');
    await fireEvent.click(screen.getByRole('button', { name: 'Resolve' }));
    expect(app.fight).toEqual({ attackers: [2], defenders: [1] });
    expect(app.tab).toBe('resolve');
    expect(app.picks).toEqual({ attackers: [], defenders: [] });
  });

  it('shows each unit with its type by full name and its state, with no JSON anywhere', async () => {
    commands();
    render(Roster);
    const row = await screen.findByText('17.04');
    const li = row.closest('li')!;
    await waitFor(() => expect(li).toHaveTextContent('Spear-armed drilled foot (SD)'));
    expect(li.querySelector('[data-testid="unit-state"]')).toHaveTextContent('4/4');
    expect(document.body.textContent).not.toMatch(/[{}]/);
    expect(document.querySelector('textarea')).toBeNull();
  });

  it('says on its row what the results call on a unit to do on the table, and nothing when none', async () => {
    commands();
    app.view = view({ units: { 1: unit({ id: 1, label: 'Brennus', side: 'Romans', moves: ['Brennus: routs'] }), 2: unit({ id: 2, label: 'Horsemen', side: 'Romans' }) } });
    render(Roster);
    const row = (await screen.findByText('Brennus')).closest('li')!;
    expect(row.querySelector('[data-testid="unit-moves"]')).toHaveTextContent('Brennus: routs');
    expect(screen.getByText('Horsemen').closest('li')!.querySelector('[data-testid="unit-moves"]')).toBeNull();
  });

  it('adds 6 × SD in four interactions: type the code, the quantity, Add — labelled 1…6', async () => {
    const calls = commands();
    render(Roster);
    const type = await screen.findByLabelText(/Unit type/, { selector: 'input' });
    await fireEvent.input(type, { target: { value: 'SD' } });
    // The printed values it brings, before it is added.
    expect(await screen.findByText('Spear-armed drilled foot (SD)', { selector: 'strong' })).toBeInTheDocument();
    await fireEvent.input(screen.getByLabelText('How many'), { target: { value: '6' } });
    await screen.findByText('1 × Spear-armed drilled foot');
    await fireEvent.click(screen.getByRole('button', { name: 'Add 6' }));
    await waitFor(() => expect(calls.filter(([c]) => c === 'battle_add_unit').length).toBe(6));
    const sent = calls.filter(([c]) => c === 'battle_add_unit').map(([, a]) => a.unit as UnitSpec);
    expect(sent.map((u) => u.label)).toEqual(['SD 1', 'SD 2', 'SD 3', 'SD 4', 'SD 5', 'SD 6']);
    expect(sent[0]).toEqual({ label: 'SD 1', side: 'Romans', role: 'unit', command: undefined, stats: { type: 'SD', count: 1 } });
    expect(await screen.findByText('Added 6 units: SD 1 … SD 6.')).toBeInTheDocument();
    // The next add starts at one unit again.
    expect(screen.getByRole('button', { name: 'Add' })).toBeInTheDocument();
    expect(screen.getByLabelText('How many')).toHaveValue('1');
  });

  it('refuses a bad number beside its field (How many, a count, a leader’s bonus) and adds nothing while it is there', async () => {
    const calls = commands();
    render(Roster);
    await fireEvent.input(await screen.findByLabelText(/Unit type/, { selector: 'input' }), { target: { value: 'SD' } });
    const add = document.querySelector('#add-unit-button') as HTMLButtonElement;
    for (const bad of ['-3', '2.7', '', '51']) {
      await fireEvent.input(document.querySelector('#unit-quantity')!, { target: { value: bad } });
      expect(document.querySelector('#unit-quantity-error')).toHaveTextContent('The number of units to add must be a whole number from 1 to 50.');
      expect(add).toBeDisabled();
      expect(add).toHaveTextContent(/^Add$/);
      expect(document.querySelector('#add-unit-waiting')).toHaveTextContent('Correct How many first: it is marked in red.');
    }
    await fireEvent.input(document.querySelector('#unit-quantity')!, { target: { value: '2' } });
    expect(document.querySelector('#unit-quantity-error')).toBeNull();
    await fireEvent.input(document.querySelector('#unit-count')!, { target: { value: '9999999' } });
    expect(document.querySelector('#unit-count-error')).toHaveTextContent('Units in the hex must be a whole number from 1 to 12.');
    await fireEvent.submit(document.querySelector('#add-unit')!);
    await fireEvent.change(document.querySelector('#unit-role')!, { target: { value: 'leader' } });
    for (const bad of ['-5', '2.5']) {
      await fireEvent.input(document.querySelector('#unit-bonus')!, { target: { value: bad } });
      expect(document.querySelector('#unit-bonus-error')).toHaveTextContent('Leader bonus must be a whole number from 0 to 100.');
      // Kept as typed: −5 never becomes 5, 2.5 never 2.
      expect((document.querySelector('#unit-bonus') as HTMLInputElement).value).toBe(bad);
    }
    await fireEvent.submit(document.querySelector('#add-unit')!);
    expect(calls.some(([c]) => c === 'battle_add_unit')).toBe(false);
  });

  it('says the API’s refusal beside the field it names, and takes it away once the form changes', async () => {
    mockCommands((cmd) => {
      if (cmd === 'unit_form') return itacsForm;
      if (cmd === 'unit_preview') return { summary: 'Spear-armed drilled foot', values: [] };
      if (cmd === 'battle_add_unit') throw { code: 'unit.invalid', message: 'Units in the hex must be a whole number from 1 to 12.', field: 'unit.stats.count' };
      return null;
    });
    render(Roster);
    await fireEvent.input(await screen.findByLabelText(/Unit type/, { selector: 'input' }), { target: { value: 'SD' } });
    await screen.findByText('Spear-armed drilled foot', { selector: 'strong' });
    await fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    const beside = await screen.findByText('Units in the hex must be a whole number from 1 to 12.');
    expect(beside.closest('.unit-field')?.querySelector('#unit-count')).not.toBeNull();
    expect(document.querySelector('#unit-count')).toHaveAttribute('aria-invalid', 'true');
    await fireEvent.input(document.querySelector('#unit-count')!, { target: { value: '3' } });
    expect(screen.queryByText('Units in the hex must be a whole number from 1 to 12.')).toBeNull();
  });

  it('keeps a unit’s values for the next one, but not a field of one unit only (its leader)', async () => {
    const once = { ...itacsForm, fields: [...itacsForm.fields, { key: 'leader_pv', label: "Leader's valour", rule: '1.6', kind: 'number' as const, required: false, min: -2, max: 2, once: true, options: [] }] };
    const calls = mockCommands((cmd) => {
      if (cmd === 'unit_form') return once;
      if (cmd === 'unit_preview') return { summary: 'Spear-armed drilled foot', values: [] };
      if (cmd === 'battle_add_unit') return app.view;
      return null;
    });
    // (A ruleset of its own: the app keeps each ruleset's form once asked.)
    app.view = view({ ruleset: 'once-test' });
    render(Roster);
    await fireEvent.input(await screen.findByLabelText(/Unit type/, { selector: 'input' }), { target: { value: 'SD' } });
    await fireEvent.input((await screen.findAllByLabelText(/Leader's valour/))[0], { target: { value: '1' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(calls.filter(([c]) => c === 'battle_add_unit').length).toBe(1));
    expect((calls.find(([c]) => c === 'battle_add_unit')![1].unit as UnitSpec).stats).toMatchObject({ type: 'SD', leader_pv: 1 });
    await screen.findByText('Added SD.');
    await fireEvent.click(await screen.findByRole('button', { name: 'Add' }));
    await waitFor(() => expect(calls.filter(([c]) => c === 'battle_add_unit').length, document.querySelector('#add-unit')?.textContent ?? '').toBe(2));
    const second = (calls.filter(([c]) => c === 'battle_add_unit')[1][1].unit as UnitSpec).stats as Record<string, unknown>;
    expect(second.type).toBe('SD');
    expect(second.leader_pv).toBeUndefined();
  });

  it('refuses a unit type the ruleset does not have, with a sentence beside the field, and sends nothing', async () => {
    const calls = commands();
    render(Roster);
    const type = await screen.findByLabelText(/Unit type/, { selector: 'input' });
    await fireEvent.input(type, { target: { value: 'XX' } });
    expect(screen.getByText(/No unit type matches/)).toBeInTheDocument();
    await fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Unit type: Pick one from the list: the rules have no such value.')).toBeInTheDocument();
    expect(type).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some(([c]) => c === 'battle_add_unit')).toBe(false);
  });

  it('picks a type by a word of its name from the list', async () => {
    commands();
    render(Roster);
    const type = await screen.findByLabelText(/Unit type/, { selector: 'input' });
    await fireEvent.input(type, { target: { value: 'pelt' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Peltasts (PS)' }));
    expect(screen.getByText('Peltasts (PS)', { selector: 'strong' })).toBeInTheDocument();
  });

  it('edits, duplicates and deletes a unit, each one command (delete on the second tap)', async () => {
    const calls = commands();
    render(Roster);
    await screen.findByText('17.04');
    await fireEvent.click(screen.getByRole('button', { name: 'Edit 17.04' }));
    await fireEvent.click(await screen.findByRole('button', { name: 'Duplicate 17.04' }));
    await waitFor(() => expect(calls.some(([c]) => c === 'battle_add_unit')).toBe(true));
    expect((calls.find(([c]) => c === 'battle_add_unit')![1].unit as UnitSpec).label).toBe('17.05');
    await fireEvent.click(screen.getByRole('button', { name: 'Delete 17.04' }));
    expect(calls.some(([c]) => c === 'battle_remove_unit')).toBe(false);
    await fireEvent.click(screen.getByRole('button', { name: 'Really delete? 17.04' }));
    await waitFor(() => expect(calls.find(([c]) => c === 'battle_remove_unit')?.[1]).toEqual({ battle: 7, unit: 1 }));
    const editor = await screen.findByRole('form', { name: 'Edit 17.04' });
    await fireEvent.input(editor.querySelector('#unit-count')!, { target: { value: '3' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some(([c]) => c === 'battle_edit_unit')).toBe(true));
    const edit = calls.find(([c]) => c === 'battle_edit_unit')![1];
    expect(edit.unit).toBe(1);
    expect(edit.spec).toEqual({ label: '17.04', side: 'Romans', role: 'unit', command: undefined, stats: { type: 'SD', count: 3 } });
  });

  it('sends a quick edit as a logged adjustment and shows the answer', async () => {
    const calls = commands((cmd) => (cmd === 'battle_adjust' ? view({ units: { 1: unit({ summary: '4/4, 1 D' }) } }) : null));
    render(Roster);
    await screen.findByText('17.04');
    await fireEvent.click(screen.getByRole('button', { name: '+D: 17.04' }));
    await waitFor(() => expect(calls.find(([c]) => c === 'battle_adjust')?.[1]).toEqual({ battle: 7, request: { subject: { unit: 1 }, change: { kind: 'd_markers', count: 1 } } }));
    await waitFor(() => expect(document.querySelector('[data-testid="unit-state"]')).toHaveTextContent('4/4, 1 D'));
  });

  it('opens the test a change needs on the unit (a rally, 3.33) instead of making the change', async () => {
    const calls = commands();
    app.view = view({ units: { 1: unit({ id: 1, label: 'Immortals', side: 'Romans', summary: '3/4, Rout', quick_edits: [{ label: 'Rally', change: { kind: 'remove_rout' }, opens: 'response_test' }] }) } });
    render(Roster);
    await fireEvent.click(await screen.findByRole('button', { name: 'Rally: Immortals' }));
    expect(app.fight).toEqual({ attackers: [1], defenders: [] });
    expect(app.resolverAction).toBe('response_test');
    expect(app.tab).toBe('resolve');
    expect(calls.some(([c]) => c === 'battle_adjust')).toBe(false);
  });

  it('shows the units of one hex together, leaders with them, and one tap picks the stack', async () => {
    commands();
    app.view = view({ units: {
      1: unit({ id: 1, label: 'Pikes', side: 'Romans', place: 'Hex 17.03' }),
      2: unit({ id: 2, label: 'Hastati', side: 'Carthage', place: 'Hex 18.04' }),
      3: unit({ id: 3, label: 'Bows', side: 'Romans', place: 'Hex 17.03' }),
      4: unit({ id: 4, label: 'Hanno', side: 'Romans', place: 'Hex 17.03', role: 'leader', type_name: 'Leader (2L)', summary: 'bonus 2', quick_edits: [] }),
    } });
    render(Roster);
    const hex = await screen.findByRole('heading', { name: 'Hex 17.03' });
    const stack = hex.nextElementSibling!;
    expect([...stack.querySelectorAll('li strong')].map((e) => e.textContent)).toEqual(['Pikes', 'Bows', 'Hanno']);
    expect(stack).toHaveTextContent('Leader (2L)');
    await fireEvent.click(screen.getByRole('button', { name: 'Pick for a fight: Bows' }));
    expect(app.picks).toEqual({ attackers: [3, 1], defenders: [] });
    await fireEvent.click(screen.getByRole('button', { name: 'Attacks: Pikes' }));
    expect(app.picks).toEqual({ attackers: [3], defenders: [] });
  });

  it('moves a unit to another hex of its side in one choice, an undoable edit', async () => {
    const calls = commands();
    const at = (id: number, label: string, side: string, hex: string) =>
      unit({ id, label, side, place: `Hex ${hex}`, detail: { entry: { type: 'SD', count: 2, hex }, state: {} } });
    app.view = view({ units: { 1: at(1, 'Pikes', 'Romans', '17.03'), 2: at(2, 'Bows', 'Romans', '22.19'), 3: at(3, 'Hastati', 'Carthage', '18.04') } });
    render(Roster);
    const select = await screen.findByRole('combobox', { name: 'Move Pikes to another hex' });
    expect([...select.querySelectorAll('option:not([disabled])')].map((o) => o.textContent)).toEqual(['Hex 22.19', 'Another hex…']);
    await fireEvent.change(select, { target: { value: '22.19' } });
    await waitFor(() => expect(calls.some(([c]) => c === 'battle_edit_unit')).toBe(true));
    const edit = calls.find(([c]) => c === 'battle_edit_unit')![1];
    expect(edit).toEqual({ battle: 7, unit: 1, spec: { label: 'Pikes', side: 'Romans', command: undefined, role: 'unit', stats: { type: 'SD', count: 2, hex: '22.19' } } });
    expect(calls.filter(([c]) => c === 'battle_edit_unit')).toHaveLength(1);
    // Hastati has no other hex of its side to go to: only a hex typed in place.
    const other = screen.getByRole('combobox', { name: 'Move Hastati to another hex' });
    expect([...other.querySelectorAll('option:not([disabled])')].map((o) => o.textContent)).toEqual(['Another hex…']);
  });

  it('moves a unit to a hex no unit of its side stands in: typed in place, Enter, one edit', async () => {
    const calls = commands();
    const at = (id: number, label: string, side: string, hex: string) =>
      unit({ id, label, side, place: `Hex ${hex}`, detail: { entry: { type: 'SD', count: 2, hex }, state: {} } });
    app.view = view({ units: { 1: at(1, 'Pikes', 'Romans', '17.03') } });
    render(Roster);
    const select = await screen.findByRole('combobox', { name: 'Move Pikes to another hex' });
    await fireEvent.change(select, { target: { value: select.querySelector('option:last-child')!.getAttribute('value') } });
    const typed = screen.getByRole('textbox', { name: 'Hex to move Pikes to' });
    expect(typed).toHaveFocus();
    await fireEvent.input(typed, { target: { value: ' 19.06 ' } });
    await fireEvent.submit(typed.closest('form')!);
    await waitFor(() => expect(calls.some(([c]) => c === 'battle_edit_unit')).toBe(true));
    expect(calls.find(([c]) => c === 'battle_edit_unit')![1].spec).toEqual({ label: 'Pikes', side: 'Romans', command: undefined, role: 'unit', stats: { type: 'SD', count: 2, hex: '19.06' } });
    expect(calls.filter(([c]) => c === 'battle_edit_unit')).toHaveLength(1);
  });

  it('keeps a refused hex as typed and says why beside it; closes the field once the move lands', async () => {
    let refuse = true;
    const calls = commands((cmd) => {
      if (cmd !== 'battle_edit_unit') return null;
      if (refuse) throw { code: 'unit.invalid', message: 'the hex is the number the map prints on it, such as 17.03', field: 'hex' };
      return app.view;
    });
    const at = (id: number, label: string, side: string, hex: string) =>
      unit({ id, label, side, place: `Hex ${hex}`, detail: { entry: { type: 'SD', count: 2, hex }, state: {} } });
    app.view = view({ units: { 1: at(1, 'Pikes', 'Romans', '17.03') } });
    render(Roster);
    const select = await screen.findByRole('combobox', { name: 'Move Pikes to another hex' });
    await fireEvent.change(select, { target: { value: select.querySelector('option:last-child')!.getAttribute('value') } });
    const typed = screen.getByRole('textbox', { name: 'Hex to move Pikes to' }) as HTMLInputElement;
    await fireEvent.input(typed, { target: { value: '19,6' } });
    await fireEvent.submit(typed.closest('form')!);
    const said = await screen.findByRole('alert');
    expect(said).toHaveTextContent('The hex is the number the map prints on it, such as 17.03.');
    expect(screen.getByRole('textbox', { name: 'Hex to move Pikes to' })).toHaveValue('19,6');
    expect(typed).toHaveAttribute('aria-invalid', 'true');
    refuse = false;
    await fireEvent.input(typed, { target: { value: '19.06' } });
    await fireEvent.submit(typed.closest('form')!);
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Hex to move Pikes to' })).toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls.filter(([c]) => c === 'battle_edit_unit')).toHaveLength(2);
  });

  it('opens the rout move its markers call for from its row, that unit alone', async () => {
    commands();
    app.rules = { systems: [{ ...itacs, actions: [...itacs.actions, { id: 'move', name: 'Movement', rule: '4.3', group: 'movement', fights: false, from_roster: false, rolls: false, moves: true }] }], house_rules: [], problems: [] } as unknown as typeof app.rules;
    app.view = view({ units: { 4: unit({ id: 4, label: 'Hastati', side: 'Romans', place: 'Hex 18.04', summary: '2/3, 3 D, Rout', opens_move: 'Rout move' }), 5: unit({ id: 5, label: 'Pikes', side: 'Romans', place: 'Hex 17.03' }) } });
    render(Roster);
    await fireEvent.click(await screen.findByRole('button', { name: 'Rout move: Hastati' }));
    expect(app.fight).toEqual({ attackers: [4], defenders: [] });
    expect(app.resolverAction).toBe('move');
    expect(app.tab).toBe('resolve');
    // A unit whose markers call for no move has no such button.
    expect(document.querySelector('[data-open-move="5"]')).toBeNull();
  });

  it('opens the rout move of a stack of several entries on them all, to move as one', async () => {
    commands();
    app.rules = { systems: [{ ...itacs, actions: [...itacs.actions, { id: 'move', name: 'Movement', rule: '4.3', group: 'movement', fights: false, from_roster: false, rolls: false, moves: true }] }], house_rules: [], problems: [] } as unknown as typeof app.rules;
    app.view = view({ units: {
      4: unit({ id: 4, label: 'Hastati', side: 'Romans', place: 'Hex 18.04', summary: '2/3, 3 D, Rout', opens_move: 'Rout move' }),
      6: unit({ id: 6, label: 'Velites', side: 'Romans', place: 'Hex 18.04', summary: '1/1, 3 D, Rout', opens_move: 'Rout move' }),
      5: unit({ id: 5, label: 'Pikes', side: 'Romans', place: 'Hex 17.03' }),
    } });
    render(Roster);
    await fireEvent.click(await screen.findByRole('button', { name: 'Rout move: Hastati' }));
    expect(app.fight).toEqual({ attackers: [4, 6], defenders: [] });
    expect(app.resolverAction).toBe('move');
  });

  it('adds a leader with the values of his counter and his hex', async () => {
    const calls = commands();
    render(Roster);
    await screen.findByLabelText(/Unit type/, { selector: 'input' });
    await fireEvent.change(document.querySelector('#unit-role')!, { target: { value: 'leader' } });
    expect(screen.queryByLabelText(/Unit type/, { selector: 'input' })).toBeNull();
    await fireEvent.input(document.querySelector('#unit-bonus')!, { target: { value: '2' } });
    await fireEvent.input(document.querySelector('#unit-hex')!, { target: { value: '17.03' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(calls.some(([c]) => c === 'battle_add_unit')).toBe(true));
    const sent = calls.find(([c]) => c === 'battle_add_unit')![1].unit as UnitSpec;
    expect(sent).toEqual({ label: 'Leader', side: 'Romans', role: 'leader', command: undefined, stats: { bonus: 2, hex: '17.03' } });
  });

  it('moves a leader to another unit from his own row in one edit, and names him on the unit he leads', async () => {
    const leads = { key: 'leads', label: 'Leads', rule: '1.5', kind: 'unit' as const, required: false, options: [] };
    const form: UnitForm = { ruleset: 'gts', fields: [], leader_fields: [leads], place_field: null };
    app.rules = { systems: [{ ...gts, fingerprint: 'links' }], house_rules: [], problems: [] };
    const calls = mockCommands((cmd) => (cmd === 'unit_form' ? form : cmd === 'battle_edit_unit' ? view() : null));
    app.view = view({ ruleset: 'gts', units: {
      1: unit({ id: 1, label: 'Immortals', side: 'Romans', quick_edits: [] }),
      2: unit({ id: 2, label: 'Sparabara', side: 'Romans', quick_edits: [] }),
      3: unit({ id: 3, label: 'Artaphernes', side: 'Romans', role: 'leader', type_name: 'Leader, PV +1', summary: 'leads Immortals', quick_edits: [], detail: { entry: { pv: 1, leads: 'Immortals' }, state: {} } }),
      4: unit({ id: 4, label: 'Hoplites', side: 'Carthage', quick_edits: [] }),
    } });
    render(Roster);
    const link = await screen.findByRole('combobox', { name: 'Leads: Artaphernes' });
    // Only his side's units are offered, and the unit he leads names him.
    expect([...link.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['Leads: none', 'Leads Immortals', 'Leads Sparabara']);
    expect(screen.getByText('Immortals').closest('li')!.querySelector('[data-testid="unit-with"]')).toHaveTextContent('with Artaphernes');
    expect(screen.getByText('Sparabara').closest('li')!.querySelector('[data-testid="unit-with"]')).toBeNull();
    await fireEvent.change(link, { target: { value: 'Sparabara' } });
    await waitFor(() => expect(calls.filter(([c]) => c === 'battle_edit_unit').length).toBe(1));
    const sent = calls.find(([c]) => c === 'battle_edit_unit')![1].spec as UnitSpec;
    expect(sent).toEqual({ label: 'Artaphernes', side: 'Romans', command: undefined, role: 'leader', stats: { pv: 1, leads: 'Sparabara' } });
  });
});
