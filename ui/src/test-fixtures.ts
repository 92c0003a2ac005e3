// Shapes the component tests share: a system, a battle view, a unit form, and Tauri's IPC mocked
// with a record of every command sent.
import { mockIPC } from '@tauri-apps/api/mocks';
import type { BattleView, Gauge, SystemInfo, UnitForm, UnitState } from './generated/api';
import type { Schema } from './lib/schema';

export const itacs = {
  id: 'itacs', name: 'ITACS — Improved Tactical System', dice: '2d6', fingerprint: 'f', layers: [],
  actions: [{ id: 'melee', name: 'Melee combat', rule: '4.5', group: 'combat', fights: true, from_roster: false, rolls: true }], main_action: 'melee', choices: [], phases: [],
  common_situations: [{ field: 'rear', label: 'Rear' }], derived_values: false, turn_word: 'turn',
  side_fields: [{ key: 'panic_level', label: 'Panic level', rule: '5.4', min: 0, max: 10000 }, { key: 'stacking_limit', label: 'Stacking limit', rule: '4.3.3', min: 1, max: 10000 }],
} as unknown as SystemInfo;

export const gts = {
  ...itacs, id: 'gts', name: 'GTS — Go Tell the Spartans', side_fields: [], derived_values: true,
  roster_advice: 'On the roster, give the army’s general and baggage their roles: losing them lowers the army break point (8.0).',
} as SystemInfo;

/** A roster unit as the core sends it: its words (type, state, quick edits) written by its system. */
export function unit(over: Partial<UnitState> = {}): UnitState {
  return {
    id: 1, label: '17.04', side: 'Romans', role: 'unit', strength: 4, starting: 4, lost: false, moves: [],
    detail: { entry: { type: 'SD', count: 4 }, state: { d_markers: 0 } },
    type_name: 'Spear-armed drilled foot (SD)', summary: '4/4',
    quick_edits: [
      { label: '+D', change: { kind: 'd_markers', count: 1 } },
      { label: '−D', change: { kind: 'remove_d_markers', count: 1 } },
    ],
    ...over,
  };
}

export function view(over: Partial<BattleView['state']> = {}, gauges: Gauge[] = [{ side: 'Romans', label: 'Victory points', value: '0', reached: false, rule: '7.0' }]): BattleView {
  return {
    id: 7, events: 2, undo: 2,
    log: [
      { seq: 1, at: '2026-11-21T10:00:00.000Z', kind: 'created', text: 'Battle Cannae begins', undone: false, edited: false, changes: [], turn: 1, undoable: false },
      { seq: 2, at: '2026-11-21T10:01:00.000Z', kind: 'unit_added', text: 'Added 17.04', undone: false, edited: false, changes: [], turn: 1, undoable: true },
    ],
    state: {
      name: 'Cannae', ruleset: 'itacs', fingerprint: 'f', turn: 1, morale_track: 0, morale_in_force: 0, conflicts: [],
      sides: [{ name: 'Romans', commands: ['Left'], points_awarded: 0, panicked: false }, { name: 'Carthage', commands: [], points_awarded: 0, panicked: false }],
      units: { 1: unit() },
      ...over,
    },
    standing: { gauges, resolutions: [] },
  } as BattleView;
}

export const itacsForm: UnitForm = {
  ruleset: 'itacs',
  fields: [
    {
      key: 'type', label: 'Unit type', rule: '2.4.5', kind: 'choice', required: true,
      options: [
        { key: 'SD', label: 'Spear-armed drilled foot (SD)', fills: ['class'], printed: [{ label: 'Combat', value: '3', rule: '2.4.5' }] },
        { key: 'PS', label: 'Peltasts (PS)', fills: ['class'], printed: [] },
        ...['LB', 'MS', 'HC', 'LC', 'EL', 'CH', 'BW'].map((key) => ({ key, label: `Type ${key} (${key})`, fills: ['class'], printed: [] })),
      ],
    },
    { key: 'class', label: 'Class', rule: '2.4.6', kind: 'choice', required: true, options: [{ key: 'A', label: 'Class A', fills: [], printed: [] }] },
    { key: 'count', label: 'Units in the hex', rule: '2.4', kind: 'number', required: true, default: 1, min: 1, max: 12, options: [] },
    { key: 'hex', label: 'Hex', rule: '2.4', kind: 'text', required: false, options: [] },
  ],
  place_field: 'hex',
  leader_fields: [
    { key: 'type', label: 'Leader level', rule: '6.1', kind: 'text', required: false, options: [] },
    { key: 'bonus', label: 'Leader bonus', rule: '6.1.3', kind: 'number', required: false, min: 0, max: 100, options: [] },
    { key: 'hex', label: 'Hex', rule: '2.4', kind: 'text', required: false, options: [] },
  ],
};

export type Calls = [string, Record<string, unknown>][];

/** Mocks the app's commands with `answer` and records what each call sent. */
export function mockCommands(answer: (cmd: string, args: Record<string, unknown>) => unknown): Calls {
  const calls: Calls = [];
  mockIPC((cmd, args) => {
    calls.push([cmd, args as Record<string, unknown>]);
    const out = answer(cmd, args as Record<string, unknown>);
    if (out instanceof Error) throw out;
    return out;
  });
  return calls;
}

// Shapes as schemars writes them for the situations (see `referee schema medieval morale`).
export const morale: Schema = {
  $defs: {
    MoraleEvent: {
      type: 'object',
      properties: { count: { default: 1, type: 'integer', minimum: 0 }, kind: { $ref: '#/$defs/Kind' }, to: { $ref: '#/$defs/Player', description: 'The player it benefits.' } },
      required: ['kind', 'to'],
    },
    Kind: { oneOf: [{ const: 'elimination', type: 'string', description: 'An enemy unit eliminated.' }, { const: 'banner_fall', type: 'string' }] },
    Player: { enum: ['a', 'b'], type: 'string' },
  },
  type: 'object',
  properties: {
    events: { type: 'array', items: { $ref: '#/$defs/MoraleEvent' } },
    track: { default: 0, type: 'integer', description: 'The track now: positive in player A’s favour.' },
    terrain: { type: ['string', 'null'] },
    contact_movement: { type: 'array', items: { type: 'integer' } },
  },
  required: ['events'],
};
