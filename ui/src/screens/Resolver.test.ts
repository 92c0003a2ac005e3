// The resolver against Tauri's IPC mocks: the figure scale from Settings, the fight picked on the
// roster, the result applied once (a second tap lands on “Applied ✓”; Undo is beside it), and a refused situation.
import { clearMocks } from '@tauri-apps/api/mocks';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BattleView, Resolution, SystemInfo } from '../generated/api';
import { app } from '../lib/app.svelte';
import { mockCommands, unit, view, type Calls } from '../test-fixtures';
import Resolver from './Resolver.svelte';

const dbmm = {
  id: 'dbmm', name: 'DBMM', dice: 'd6 v d6', fingerprint: 'f', layers: [],
  actions: [{ id: 'distance', name: 'Distances', rule: 'p. 21', group: 'tables', fights: false, from_roster: false, rolls: false }, { id: 'melee', name: 'Melee', rule: '4.5', group: 'combat', fights: true, from_roster: false, rolls: true }],
  main_action: 'melee', common_situations: [], side_fields: [], derived_values: true, turn_word: 'turn',
  choices: [{ field: 'scale', options: [{ key: '15mm', label: '15 mm' }, { key: '25mm', label: '25 mm' }] }], phases: [],
} as unknown as SystemInfo;

const schema = { type: 'object', properties: { paces: { type: 'integer' }, scale: { type: 'string' } }, required: ['paces'] };

const resolution = (outcome: boolean): Resolution => ({
  system: 'dbmm', action: 'melee', dice: '2d6', totals: [], modifiers: [], total_modifier: 0, forecast: [], checks: [], notes: [],
  faces: [{ sides: 6 }, { sides: 6 }], names: { DX: 'DX' },
  distribution: [{ result: 'DX', meaning: 'destroyed', rolls: '2–12', probability: '1/1', p: 1, effects: [{ target: 'defender', change: { kind: 'destroy_all' }, text: 'The defender is destroyed', what: 'destroyed', rule: '4.5' }] }],
  outcome: outcome ? { dice: [3, 4], roll: 7, modified: 7, result: 'DX', meaning: 'destroyed', effects: [{ target: 'defender', change: { kind: 'destroy_all' }, text: 'The defender is destroyed', what: 'destroyed', rule: '4.5' }] } : undefined,
} as unknown as Resolution);

beforeEach(() => {
  app.rules = { systems: [dbmm], house_rules: [], problems: [] };
  app.view = view({ ruleset: 'dbmm' });
  app.screen = 'battle';
  app.tab = 'resolve';
  // Each test is a battle opened afresh: the resolver keeps no work from the last.
  app.opened += 1;
  app.fight = undefined;
});
afterEach(() => clearMocks());

describe('the resolver', () => {
  it('starts a figure scale field at the scale chosen in Settings (15 mm)', async () => {
    const calls = mockCommands((cmd, args) => {
      if (cmd === 'situation_schema') return schema;
      if (cmd === 'resolve') return resolution(!!(args.request as { dice?: number[] }).dice);
      return [];
    });
    render(Resolver);
    await waitFor(() => expect(calls.some(([c]) => c === 'resolve')).toBe(true));
    const request = calls.find(([c]) => c === 'resolve')![1].request as { situation: { scale?: string } };
    expect(request.situation.scale).toBe('15mm');
  });

  it('opens on the fight picked, applies its result to the picked units once, and the button then undoes it', async () => {
    app.view = view({ ruleset: 'dbmm', units: { 1: unit({ id: 1, label: 'Kn 1', side: 'Normans' }), 2: unit({ id: 2, label: 'Fyrd 1', side: 'Saxons' }) } });
    app.fight = { attackers: [1], defenders: [2] };
    const calls = mockCommands((cmd, args) => {
      if (cmd === 'situation_schema') return schema;
      if (cmd === 'battle_fight') return { action: 'melee', situation: { paces: 40 }, targets: { defender: [2], attacker: [1] }, asks: [] };
      if (cmd === 'resolve') return resolution(!!(args.request as { dice?: number[] }).dice);
      const entry = { seq: 3, at: '2026-11-21T10:02:00Z', kind: 'applied', text: 'Melee: DX (dice 3, 4; physical dice)', undone: false, edited: false, changes: ['Fyrd 1: destroyed'] };
      if (cmd === 'battle_apply') return { ...app.view!, events: 3, undo: 3, log: [entry] };
      if (cmd === 'battle_undo') return { ...app.view!, events: 4, undo: 2, log: [{ ...entry, undone: true }] };
      return [];
    });
    render(Resolver);
    // The main combat with exactly the units picked.
    await waitFor(() => expect(calls.some(([c]) => c === 'battle_fight')).toBe(true));
    expect(calls.find(([c]) => c === 'battle_fight')![1]).toEqual({ battle: 7, request: { action: 'melee', attackers: [1], defenders: [2] } });
    expect(await screen.findByText('Kn 1')).toBeInTheDocument();
    // "34" typed in one go fills both dice.
    await fireEvent.input(await screen.findByLabelText('Dice'), { target: { value: '34' } });
    await fireEvent.click(await screen.findByRole('button', { name: 'Apply DX' }));
    await waitFor(() => expect(calls.filter(([c]) => c === 'battle_apply').length).toBe(1));
    const sent = calls.find(([c]) => c === 'battle_apply')![1].request as { dice: unknown; mapping: { targets: unknown }; apply_key: string };
    expect(sent.dice).toEqual({ kind: 'physical', faces: [3, 4] });
    expect(sent.mapping.targets).toEqual({ defender: [2], attacker: [1] });
    expect(sent.apply_key).toBeTruthy();
    expect(await screen.findByText(/On the roster: Melee: DX/)).toBeInTheDocument();
    // A second tap lands on the disabled “Applied ✓”; Undo beside it takes the result back.
    expect(screen.getByRole('button', { name: 'Applied ✓' })).toBeDisabled();
    // The dice are the roster's now: a face tapped changes nothing.
    expect(screen.getByRole('button', { name: 'Die 1 shows 5' })).toBeDisabled();
    // A double tap's second tap, landing on Undo as it takes Apply's place, undoes nothing …
    const undoButton = screen.getByRole('button', { name: 'Undo: Melee: DX (dice 3, 4; physical dice)' });
    await fireEvent.click(undoButton);
    expect(calls.filter(([c]) => c === 'battle_undo').length).toBe(0);
    expect(screen.getByRole('button', { name: 'Applied ✓' })).toBeDisabled();
    // … a tap a moment later does.
    await new Promise((done) => setTimeout(done, 1050));
    await fireEvent.click(undoButton);
    await waitFor(() => expect(calls.filter(([c]) => c === 'battle_undo').length).toBe(1));
    expect(calls.filter(([c]) => c === 'battle_apply').length).toBe(1);
    expect(await screen.findByRole('button', { name: 'Apply DX' })).toBeEnabled();
  });

  it('takes a tap on Apply made while the typed throw’s result is on its way, and applies that result once it comes', async () => {
    app.view = view({ ruleset: 'dbmm', units: { 1: unit({ id: 1, label: 'Kn 1', side: 'Normans' }), 2: unit({ id: 2, label: 'Fyrd 1', side: 'Saxons' }) } });
    app.fight = { attackers: [1], defenders: [2] };
    let release: (() => void) | undefined;
    const calls = mockCommands((cmd, args) => {
      if (cmd === 'situation_schema') return schema;
      if (cmd === 'battle_fight') return { action: 'melee', situation: { paces: 40 }, targets: { defender: [2], attacker: [1] }, asks: [] };
      if (cmd === 'resolve') {
        if (!(args.request as { dice?: number[] }).dice) return resolution(false);
        // The throw's result takes its time (a debug build on two busy cores).
        return new Promise((done) => { release = () => done(resolution(true)); });
      }
      if (cmd === 'battle_apply') return { ...app.view!, events: 3, undo: 3, log: [{ seq: 3, at: '', kind: 'applied', text: 'Melee: DX', undone: false, edited: false, changes: [] }] };
      return [];
    });
    render(Resolver);
    await fireEvent.input(await screen.findByLabelText('Dice'), { target: { value: '34' } });
    const apply = screen.getByRole('button', { name: 'Apply' });
    expect(apply).toBeEnabled();
    // Tapped at once, twice: nothing is sent before the result is in.
    await fireEvent.click(apply);
    await fireEvent.click(apply);
    await waitFor(() => expect(release).toBeDefined());
    expect(calls.some(([c]) => c === 'battle_apply')).toBe(false);
    release!();
    await waitFor(() => expect(calls.filter(([c]) => c === 'battle_apply')).toHaveLength(1));
    expect((calls.find(([c]) => c === 'battle_apply')![1].request as { dice: unknown }).dice).toEqual({ kind: 'physical', faces: [3, 4] });
    expect(await screen.findByRole('button', { name: 'Applied ✓' })).toBeDisabled();
    expect(calls.filter(([c]) => c === 'battle_apply')).toHaveLength(1);
  });

  it('opens a step of the whole battle from the roster even with a fight still picked (a pursuit after its combat)', async () => {
    app.rules = { systems: [{ ...dbmm, actions: [...dbmm.actions, { id: 'pursuit', name: 'Pursuit test', rule: '5.5', group: 'combat', fights: false, from_roster: true, rolls: true }] } as unknown as SystemInfo], house_rules: [], problems: [] };
    app.view = view({ ruleset: 'dbmm', units: { 1: unit({ id: 1, label: 'Kn 1', side: 'Normans' }), 2: unit({ id: 2, label: 'Fyrd 1', side: 'Saxons' }) } });
    app.fight = { attackers: [1], defenders: [2] };
    const calls = mockCommands((cmd, args) => {
      if (cmd === 'situation_schema') return schema;
      if (cmd === 'battle_fight') {
        const action = (args.request as { action: string }).action;
        return action === 'pursuit'
          ? { action, situation: { paces: 3 }, targets: {}, asks: ['Kn 1 pursues: add the hexes beyond the first.'] }
          : { action, situation: { paces: 40 }, targets: { defender: [2], attacker: [1] }, asks: [] };
      }
      if (cmd === 'resolve') return resolution(false);
      return [];
    });
    render(Resolver);
    await waitFor(() => expect(calls.some(([c]) => c === 'battle_fight')).toBe(true));
    await fireEvent.change(await screen.findByLabelText(/What to resolve/), { target: { value: 'pursuit' } });
    await waitFor(() => expect(calls.some(([c, a]) => c === 'battle_fight' && (a.request as { action: string }).action === 'pursuit')).toBe(true));
    const asked = calls.find(([c, a]) => c === 'battle_fight' && (a.request as { action: string }).action === 'pursuit')![1];
    expect(asked).toEqual({ battle: 7, request: { action: 'pursuit', attackers: [], defenders: [] } });
    expect(await screen.findByText('Kn 1 pursues: add the hexes beyond the first.')).toBeInTheDocument();
    expect(document.querySelector('#from-roster')).not.toBeNull();
  });

  it('shows and applies only the throw in the dice box: cleared or wrong, no result and nothing to apply', async () => {
    app.resolverAction = 'melee';
    const calls = mockCommands((cmd, args) => {
      if (cmd === 'situation_schema') return schema;
      if (cmd === 'resolve') return resolution(!!(args.request as { dice?: number[] }).dice);
      if (cmd === 'battle_apply') return { ...app.view!, events: 3, undo: 3, log: [{ seq: 3, at: '', kind: 'applied', text: 'Melee: DX', undone: false, edited: false, changes: [] }] };
      return [];
    });
    render(Resolver);
    const box = await screen.findByLabelText('Dice');
    await fireEvent.input(box, { target: { value: '34' } });
    expect(await screen.findByRole('button', { name: 'Apply DX' })).toBeEnabled();
    expect(document.querySelector('[data-testid="outcome-result"]')).not.toBeNull();
    // Cleared: the result goes with the dice, and Apply has nothing to apply.
    await fireEvent.input(box, { target: { value: '' } });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Apply DX' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
    expect(document.querySelector('[data-testid="outcome-result"]')).toBeNull();
    // Three dice for two: refused beside the box, nothing applied.
    await fireEvent.input(box, { target: { value: '4 3 2' } });
    expect(await screen.findByText('That is 3 dice; this throw is 2 dice, e.g. 34.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
    // "9" typed over a throw: no d6 shows it, and the old result does not stay.
    await fireEvent.input(box, { target: { value: '9' } });
    expect(await screen.findByText('A d6 shows 1 to 6; 9 is not one of its faces.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
    // A new throw: resolved with it, and applied with it.
    await fireEvent.input(box, { target: { value: '56' } });
    await fireEvent.click(await screen.findByRole('button', { name: 'Apply DX' }));
    await fireEvent.click(await screen.findByRole('button', { name: 'Apply anyway' }));
    await waitFor(() => expect(calls.filter(([c]) => c === 'battle_apply').length).toBe(1));
    const sent = calls.find(([c]) => c === 'battle_apply')![1].request as { dice: unknown; mapping: { targets: unknown } };
    expect(sent.dice).toEqual({ kind: 'physical', faces: [5, 6] });
    // "Apply anyway": the defender no roster unit stands for is sent as none, not asked for again.
    expect(sent.mapping.targets).toEqual({ defender: [] });
    const resolved = calls.filter(([c]) => c === 'resolve').map(([, a]) => (a.request as { dice?: number[] }).dice);
    expect(resolved).toContainEqual([5, 6]);
  });

  it('asks a chain’s dice in turn: each stage appears once the faces before it are in, and the whole chain is applied', async () => {
    app.resolverAction = 'melee';
    // The core's answer for the faces so far: the roll-off, then the Levies' stand-loss check.
    const rollOff = [{ sides: 10, thrower: 'a', purpose: 'roll-off' }, { sides: 10, thrower: 'b', purpose: 'roll-off' }];
    const check = { sides: 10, thrower: 'a', label: 'Levies', purpose: 'stand-loss check' };
    const chain = (dice?: number[]): Resolution => {
      const r = resolution((dice?.length ?? 0) >= 3);
      return { ...r, in_turn: true, faces: (dice?.length ?? 0) >= 2 ? [...rollOff, check] : rollOff } as unknown as Resolution;
    };
    const calls = mockCommands((cmd, args) => {
      if (cmd === 'situation_schema') return schema;
      if (cmd === 'resolve') return chain((args.request as { dice?: number[] }).dice);
      if (cmd === 'battle_apply') return { ...app.view!, events: 3, undo: 3, log: [{ seq: 3, at: '', kind: 'applied', text: 'Melee: DX', undone: false, edited: false, changes: [] }] };
      return [];
    });
    render(Resolver);
    await fireEvent.input(await screen.findByLabelText('Dice'), { target: { value: '1 1' } });
    // The roll-off is in: its faces are resolved and the check's die is asked, named for it.
    const padFace = await screen.findByRole('button', { name: 'Levies’ d10 · stand-loss check shows 5' });
    const sentDice = () => calls.filter(([c]) => c === 'resolve').map(([, a]) => (a.request as { dice?: number[] }).dice);
    expect(sentDice()).toContainEqual([1, 1]);
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
    await fireEvent.click(padFace);
    await fireEvent.click(await screen.findByRole('button', { name: 'Apply DX' }));
    await fireEvent.click(await screen.findByRole('button', { name: 'Apply anyway' }));
    await waitFor(() => expect(calls.filter(([c]) => c === 'battle_apply').length).toBe(1));
    const sent = calls.find(([c]) => c === 'battle_apply')![1].request as { dice: unknown };
    expect(sent.dice).toEqual({ kind: 'physical', faces: [1, 1, 5] });
  });

  it('clears a chain’s later dice when an earlier face changes', async () => {
    app.resolverAction = 'melee';
    const rollOff = [{ sides: 10, thrower: 'a', purpose: 'roll-off' }, { sides: 10, thrower: 'b', purpose: 'roll-off' }];
    const check = { sides: 10, thrower: 'a', label: 'Levies', purpose: 'stand-loss check' };
    const calls = mockCommands((cmd, args) => {
      if (cmd === 'situation_schema') return schema;
      if (cmd === 'resolve') {
        const dice = (args.request as { dice?: number[] }).dice;
        return { ...resolution((dice?.length ?? 0) >= 3), in_turn: true, faces: (dice?.length ?? 0) >= 2 ? [...rollOff, check] : rollOff } as unknown as Resolution;
      }
      return [];
    });
    render(Resolver);
    await fireEvent.input(await screen.findByLabelText('Dice'), { target: { value: '1 1' } });
    await fireEvent.click(await screen.findByRole('button', { name: 'Levies’ d10 · stand-loss check shows 5' }));
    expect(await screen.findByRole('button', { name: 'Apply DX' })).toBeEnabled();
    // Once the check is asked, the roll-off's dice are shown small with their faces; a tap
    // reopens the first, and a new face on it blanks the check asked for the faces before.
    const thrown = screen.getAllByRole('button', { name: /d10: 1 \(roll-off; tap to throw it again\)/ });
    expect(thrown).toHaveLength(2);
    await fireEvent.click(thrown[0]);
    const opener = await screen.findByRole('button', { name: /d10 · roll-off shows 3/ });
    await fireEvent.click(opener);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Levies’ d10 · stand-loss check shows 5' })).toHaveAttribute('aria-pressed', 'false'));
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
    // Resolved with the roll-off alone, as it now fell.
    await waitFor(() => expect(calls.filter(([c]) => c === 'resolve').map(([, a]) => (a.request as { dice?: number[] }).dice?.join(' '))).toContain(opener.closest('.pad')!.matches('.owner-b') ? '1 3' : '3 1'));
  });

  it('opens empty without a fight: the rule’s example is one button away', async () => {
    app.resolverAction = 'melee';
    const calls = mockCommands((cmd, args) => {
      if (cmd === 'situation_schema') return schema;
      if (cmd === 'resolve') return resolution(!!(args.request as { dice?: number[] }).dice);
      return [];
    });
    render(Resolver);
    await waitFor(() => expect(calls.some(([c]) => c === 'resolve')).toBe(true));
    expect(calls.some(([c]) => c === 'battle_fight')).toBe(false);
    expect((calls.find(([c]) => c === 'resolve')![1].request as { situation: { paces: number } }).situation.paces).toBe(0);
  });

  it('takes a refused second apply as applied', async () => {
    app.resolverAction = 'melee';
    const calls = mockCommands((cmd, args) => {
      if (cmd === 'situation_schema') return schema;
      if (cmd === 'resolve') return resolution(!!(args.request as { dice?: number[] }).dice);
      if (cmd === 'battle_apply') throw { code: 'battle.already_applied', message: 'This result is already on the roster.' };
      return [];
    });
    render(Resolver);
    await fireEvent.click(await screen.findByRole('button', { name: 'Die 1 shows 3' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Die 2 shows 4' }));
    await fireEvent.click(await screen.findByRole('button', { name: 'Apply DX' }));
    await fireEvent.click(await screen.findByRole('button', { name: 'Apply anyway' }));
    expect(await screen.findByRole('button', { name: 'Applied ✓' })).toBeDisabled();
    expect(calls.filter(([c]) => c === 'battle_apply').length).toBe(1);
  });

  it('drops what is on its way when it leaves the screen: no answer read after it, no warning', async () => {
    const boxes = { type: 'object', properties: { paces: { type: 'integer' }, ...Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((k) => [k, { type: 'boolean' }])) }, required: ['paces'] };
    const warned = vi.spyOn(console, 'warn');
    const calls = mockCommands((cmd, args) => {
      if (cmd === 'situation_schema') return boxes;
      if (cmd === 'resolve') return new Promise((done) => setTimeout(() => done(resolution(!!(args.request as { dice?: number[] }).dice)), 5));
      if (cmd === 'resolve_flips') return new Promise((done) => setTimeout(() => done([]), 30));
      return [];
    });
    const { unmount } = render(Resolver);
    // The first answer in: what each box is worth is being asked.
    await waitFor(() => expect(calls.some(([c]) => c === 'resolve_flips')).toBe(true));
    unmount();
    const asked = calls.length;
    await new Promise((done) => setTimeout(done, 60));
    expect(calls.length).toBeLessThanOrEqual(asked);
    expect(warned.mock.calls.flat().join(' ')).not.toMatch(/derived_inert/);
    warned.mockRestore();
  });

  it('asks what every box is worth in one call, and shows each with its sign', async () => {
    const boxes = { type: 'object', properties: { paces: { type: 'integer' }, rear: { type: 'boolean' }, stream: { type: 'boolean' } }, required: ['paces'] };
    const flipped = (box: string, on: boolean, total: number) => ({ box, on, total_modifier: total, distribution: [{ result: 'DX', p: 1 }], names: { DX: 'DX' } });
    const calls = mockCommands((cmd, args) => {
      if (cmd === 'situation_schema') return boxes;
      if (cmd === 'resolve') return resolution(!!(args.request as { dice?: number[] }).dice);
      if (cmd === 'resolve_flips') return [flipped('/rear', false, 2), flipped('/stream', false, 0)];
      return [];
    });
    render(Resolver);
    await waitFor(() => expect(calls.some(([c]) => c === 'resolve_flips')).toBe(true));
    const asked = calls.filter(([c]) => c === 'resolve_flips');
    expect(asked.length).toBe(1);
    expect((asked[0][1].request as { boxes: string[] }).boxes).toEqual(['/rear', '/stream']);
    // One resolve for the odds, none per box.
    expect(calls.filter(([c]) => c === 'resolve').length).toBe(1);
    await waitFor(() => expect(document.body.textContent).toContain('if on: +2 on the dice'));
  });

  it('opens the action picked last: a schema that answers after another action was picked is dropped', async () => {
    app.resolverAction = 'melee';
    const slow = { type: 'object', properties: { range: { type: 'integer' } }, required: ['range'] };
    const calls = mockCommands((cmd, args) => {
      if (cmd === 'situation_schema') return (args as { action: string }).action === 'distance' ? new Promise((done) => setTimeout(() => done(slow), 40)) : schema;
      if (cmd === 'resolve') return resolution(false);
      return [];
    });
    render(Resolver);
    await waitFor(() => expect(document.querySelector('#f-paces')).not.toBeNull());
    // Distances picked, then melee again before the distances' form has come.
    const picker = document.querySelector('#action') as HTMLSelectElement;
    await fireEvent.change(picker, { target: { value: 'distance' } });
    await fireEvent.change(picker, { target: { value: 'melee' } });
    await new Promise((done) => setTimeout(done, 80));
    expect(document.querySelector('#f-range')).toBeNull();
    expect(document.querySelector('#f-paces')).not.toBeNull();
    const last = calls.filter(([c]) => c === 'resolve').pop()![1].request as { action: string; situation: Record<string, unknown> };
    expect([last.action, Object.keys(last.situation)]).toEqual(['melee', ['paces', 'scale']]);
  });

  it('shows a refused situation as a sentence naming the field', async () => {
    mockCommands((cmd) => {
      if (cmd === 'situation_schema') return schema;
      if (cmd === 'resolve') throw { code: 'situation.invalid', message: 'the distance in paces must be `0` or more', field: 'paces' };
      return [];
    });
    render(Resolver);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Paces: The distance in paces must be 0 or more.');
    expect(document.querySelector('#f-paces')).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('a fight with contacts (DBMM)', () => {
  const contact = (kind: string, label: string, counts: string, rule: string) => ({ kind, parts: ['attackers', 'defenders'], at_most: kind === 'overlap' ? 2 : 1, label, counts, rule, ruling: 'R-DBMM-38' });
  const withContacts = {
    ...dbmm,
    actions: [{
      id: 'close_combat', name: 'Close combat', rule: 'p. 35–42', group: 'combat', fights: true, from_roster: false, rolls: true, asks_bound: true,
      contacts: [
        contact('overlap', 'Overlapping {enemy}', '{enemy} is overlapped on that flank.', 'p. 35'),
        contact('on_enemy_flank', 'On the flank of {enemy}', 'An enemy front edge on the flank of {enemy}; it recoils with {front}.', 'p. 37–38'),
      ],
    }],
    main_action: 'close_combat',
  } as unknown as SystemInfo;
  const schema = { type: 'object', properties: { b: { type: 'object', properties: { overlaps: { type: 'integer' }, going: { type: 'string' } } }, bound: { type: 'string' } } };
  type Request = { attackers: number[]; defenders: number[]; on_enemy_flank?: number[]; bound_of?: string };
  // The situation the core would open: the overlaps and friends on the flank counted on the
  // Soldurii, the bound as named.
  const opened = (r: Request) => ({ b: { overlaps: r.attackers.length - 1 + (r.on_enemy_flank?.length ?? 0) }, bound: r.bound_of === 'Gauls' ? 'b' : 'a' });
  const resolved = (situation: { b: { overlaps: number } }): Resolution => ({
    ...resolution(false), action: 'close_combat',
    modifiers: situation.b.overlaps ? [{ label: `Soldurii: Each flank overlapped (×${situation.b.overlaps})`, value: -situation.b.overlaps, rule: 'p. 37, p. 35' }] : [],
  });

  beforeEach(() => {
    app.rules = { systems: [withContacts], house_rules: [], problems: [] };
    app.view = view({
      ruleset: 'dbmm',
      sides: [{ name: 'Romans', commands: [], points_awarded: 0, panicked: false }, { name: 'Gauls', commands: [], points_awarded: 0, panicked: false }],
      units: {
        1: unit({ id: 1, label: 'Hastati', side: 'Romans', type_name: 'Blade' }),
        2: unit({ id: 2, label: 'Principes', side: 'Romans', type_name: 'Blade' }),
        3: unit({ id: 3, label: 'Equites', side: 'Romans', type_name: 'Cavalry' }),
        4: unit({ id: 4, label: 'Soldurii', side: 'Gauls', type_name: 'Blade' }),
      },
    } as Partial<BattleView['state']>);
    app.bounds = {};
    app.fight = { attackers: [1], defenders: [4] };
  });

  function commands() {
    return mockCommands((cmd, args) => {
      if (cmd === 'situation_schema') return schema;
      if (cmd === 'battle_fight') {
        const r = args.request as Request;
        return { action: 'close_combat', situation: opened(r), targets: { attacker: r.attackers, defender: r.defenders }, asks: [`Fought in the bound of ${r.bound_of ?? 'Romans'}.`] };
      }
      if (cmd === 'resolve') return resolved((args.request as { situation: { b: { overlaps: number } } }).situation);
      if (cmd === 'battle_outlook') return [];
      return [];
    });
  }
  const fights = (calls: Calls) => calls.filter(([c]) => c === 'battle_fight').map(([, a]) => a.request);

  it('picks an overlap and a friend on the flank from the side’s elements, each sent once and showing what it brings', async () => {
    const calls = commands();
    render(Resolver);
    const overlap = await screen.findByRole('combobox', { name: 'Overlapping Soldurii: pick an element of Romans' });
    // Only the Romans not yet in the fight are offered.
    expect([...overlap.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['None', 'Principes — Blade', 'Equites — Cavalry']);
    await fireEvent.change(overlap, { target: { value: '2' } });
    await waitFor(() => expect(fights(calls)).toContainEqual({ action: 'close_combat', attackers: [1, 2], defenders: [4] }));
    // What it counts for on both elements, and the factor it brings (the fight opened without it, compared).
    const pick = () => document.querySelector('[data-contact-unit="2"]');
    await waitFor(() => expect(pick()).toHaveTextContent('Soldurii is overlapped on that flank.'));
    await waitFor(() => expect(pick()).toHaveTextContent('Soldurii: Each flank overlapped −1'));
    const flank = await screen.findByRole('combobox', { name: 'On the flank of Soldurii: pick an element of Romans' });
    expect([...flank.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['None', 'Equites — Cavalry']);
    await fireEvent.change(flank, { target: { value: '3' } });
    await waitFor(() => expect(fights(calls)).toContainEqual({ action: 'close_combat', attackers: [1, 2], defenders: [4], on_enemy_flank: [3] }));
    await waitFor(() => expect(document.querySelector('[data-contact-unit="3"]')).toHaveTextContent('it recoils with Hastati.'));
    // The front units only on the card; the overlap is in contact with them.
    expect(document.querySelector('[data-part="a"]')).not.toHaveTextContent('Principes');
    // Taken out: opened again without it.
    await fireEvent.click(screen.getByRole('button', { name: 'Take Principes out: Overlapping Soldurii' }));
    await waitFor(() => expect(fights(calls).at(-1)).toEqual({ action: 'close_combat', attackers: [1], defenders: [4], on_enemy_flank: [3] }));
  });

  it('keeps the umpire’s own changes to the situation when a contact is picked', async () => {
    const calls = commands();
    render(Resolver);
    const going = await screen.findByLabelText('Going');
    await fireEvent.input(going, { target: { value: 'rough' } });
    await fireEvent.change(going, { target: { value: 'rough' } });
    await fireEvent.change(await screen.findByRole('combobox', { name: 'Overlapping Soldurii: pick an element of Romans' }), { target: { value: '2' } });
    await waitFor(() => expect(fights(calls)).toContainEqual({ action: 'close_combat', attackers: [1, 2], defenders: [4] }));
    await waitFor(() => {
      const last = calls.filter(([c]) => c === 'resolve').at(-1)![1].request as { situation: unknown };
      expect(last.situation).toEqual({ b: { overlaps: 1, going: 'rough' }, bound: 'a' });
    });
  });

  it('asks whose bound it is once and fights the bound’s next fight in it', async () => {
    const calls = commands();
    const first = render(Resolver);
    expect(await screen.findByText(/Until you say, the attackers’ \(Romans\)/)).toBeInTheDocument();
    await fireEvent.click(screen.getByRole('button', { name: 'Gauls' }));
    await waitFor(() => expect(fights(calls).at(-1)).toEqual({ action: 'close_combat', attackers: [1], defenders: [4], bound_of: 'Gauls' }));
    expect(screen.getByRole('button', { name: 'Gauls' })).toHaveAttribute('aria-pressed', 'true');
    expect(app.bounds[7]).toEqual({ turn: 1, side: 'Gauls' });
    first.unmount();
    // The next fight of the bound: the Gauls' bound without asking.
    app.fight = { attackers: [2], defenders: [4] };
    render(Resolver);
    await waitFor(() => expect(fights(calls).at(-1)).toEqual({ action: 'close_combat', attackers: [2], defenders: [4], bound_of: 'Gauls' }));
    expect(screen.queryByText(/Until you say/)).toBeNull();
    // The next bound asks again.
    expect(app.bounds[7]!.turn).toBe(1);
  });
});
