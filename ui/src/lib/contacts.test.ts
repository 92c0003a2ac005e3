import { describe, expect, it } from 'vitest';
import type { ActionInfo, Modifier, Note, UnitState } from '../generated/api';
import { boundSide, carryEdits, carryPathEdits, contactRows, contactsPicked, fightRequest, filled, front, implied, pickedFor, without, withContact } from './contacts';

const el = (id: number, label: string, side: string, more: Partial<UnitState> = {}): UnitState =>
  ({ id, label, side, type_name: 'Blade', summary: 'in the line', lost: false, role: 'unit', quick_edits: [], moves: [], detail: { entry: {} }, ...more }) as unknown as UnitState;

const units: Record<number, UnitState> = {
  1: el(1, 'Hastati', 'Romans'),
  2: el(2, 'Principes', 'Romans'),
  3: el(3, 'Triarii', 'Romans'),
  4: el(4, 'Equites', 'Romans'),
  5: el(5, 'Soldurii', 'Gauls'),
  6: el(6, 'Gaesatae', 'Gauls'),
  7: el(7, 'Slingers', 'Gauls', { lost: true }),
  8: el(8, 'Brennus', 'Gauls', { role: 'leader' }),
};

const contact = (kind: string, parts: string[], at_most: number, label: string, counts: string) => ({ kind, parts, at_most, label, counts, rule: 'p. 35', ruling: 'R-DBMM-38' });
const closeCombat = {
  id: 'close_combat', name: 'Close combat', rule: 'p. 35–42', group: 'combat', fights: true, from_roster: false, rolls: true, asks_bound: true,
  contacts: [
    contact('overlap', ['attackers', 'defenders'], 2, 'Overlapping {enemy}', '{enemy} is overlapped on that flank.'),
    contact('behind', ['attackers', 'defenders'], 1, 'Behind {front}', 'Rear support for {front}.'),
    contact('on_enemy_flank', ['attackers', 'defenders'], 1, 'On the flank of {enemy}', 'It recoils with {front}.'),
  ],
} as unknown as ActionInfo;
const shooting = { ...closeCombat, id: 'shooting', contacts: [contact('behind', ['defenders'], 1, 'Behind {front}', 'The friend behind for {front}’s outcome.')] } as unknown as ActionInfo;

describe('the contacts of a fight', () => {
  it('offers each contact the action takes, for each side, in its words with the front units’ labels', () => {
    const rows = contactRows(closeCombat, { attackers: [1], defenders: [5] }, units);
    expect(rows.map((r) => [r.part, r.label])).toEqual([
      ['attackers', 'Overlapping Soldurii'], ['attackers', 'Behind Hastati'], ['attackers', 'On the flank of Soldurii'],
      ['defenders', 'Overlapping Hastati'], ['defenders', 'Behind Soldurii'], ['defenders', 'On the flank of Hastati'],
    ]);
    expect(rows[2].counts).toBe('It recoils with Hastati.');
    // Friends of the right side only, on the table, not leaders, not already in the fight.
    expect(rows[0].candidates.map((u) => u.label)).toEqual(['Principes', 'Triarii', 'Equites']);
    expect(rows[3].candidates.map((u) => u.label)).toEqual(['Gaesatae']);
  });

  it('offers shooting a friend behind the target only', () => {
    const rows = contactRows(shooting, { attackers: [1], defenders: [5] }, units);
    expect(rows.map((r) => [r.part, r.kind, r.label])).toEqual([['defenders', 'behind', 'Behind Soldurii']]);
  });

  it('offers nothing until both front units are picked, nor for an action without contacts', () => {
    expect(contactRows(closeCombat, { attackers: [1], defenders: [] }, units)).toEqual([]);
    expect(contactRows({ ...closeCombat, contacts: [] }, { attackers: [1], defenders: [5] }, units)).toEqual([]);
    expect(contactRows(undefined, { attackers: [1], defenders: [5] }, units)).toEqual([]);
  });

  it('places an overlap as a further unit of its side and a friend beside the fight, each once', () => {
    let p = withContact({ attackers: [1], defenders: [5] }, 'overlap', 'attackers', 2);
    expect(p).toEqual({ attackers: [1, 2], defenders: [5] });
    p = withContact(p, 'behind', 'attackers', 3);
    p = withContact(p, 'on_enemy_flank', 'attackers', 4);
    expect(p).toEqual({ attackers: [1, 2], defenders: [5], behind: [3], on_enemy_flank: [4] });
    // Picked again as something else: it moves, it is not in the fight twice.
    p = withContact(p, 'behind', 'attackers', 4);
    expect(p).toEqual({ attackers: [1, 2], defenders: [5], behind: [3, 4], on_enemy_flank: [] });
    expect(contactsPicked(p)).toEqual([2, 3, 4]);
    expect(pickedFor(p, 'behind', 'attackers', units)).toEqual([3, 4]);
    expect(pickedFor(p, 'behind', 'defenders', units)).toEqual([]);
    expect(without(p, 3)).toEqual({ attackers: [1, 2], defenders: [5], behind: [4], on_enemy_flank: [] });
    expect(front(p)).toEqual({ attackers: [1], defenders: [5] });
  });

  it('has no room past the most a front unit takes, and none left to pick once all are in', () => {
    const p = { attackers: [1, 2, 3], defenders: [5], behind: [4] };
    const rows = contactRows(closeCombat, p, units);
    expect(rows[0].picked.map((u) => u.label)).toEqual(['Principes', 'Triarii']);
    expect(rows[0].room).toBe(false);
    expect(rows[1].picked.map((u) => u.label)).toEqual(['Equites']);
    expect(rows[1].room).toBe(false);
    expect(rows[2].candidates).toEqual([]);
  });

  it('asks the API for the contacts beside the units, and the bound only when named', () => {
    expect(fightRequest('close_combat', { attackers: [1, 2], defenders: [5] })).toEqual({ action: 'close_combat', attackers: [1, 2], defenders: [5] });
    expect(fightRequest('close_combat', { attackers: [1], defenders: [5], behind: [3], on_enemy_flank: [] }, 'Gauls')).toEqual({
      action: 'close_combat', attackers: [1], defenders: [5], behind: [3], bound_of: 'Gauls',
    });
  });

  it('remembers whose bound it is for the same bound of the same battle only', () => {
    const bounds = { 7: { turn: 2, side: 'Romans' } };
    expect(boundSide(bounds, 7, 2, ['Gauls', 'Romans'])).toBe('Romans');
    expect(boundSide(bounds, 7, 3, ['Gauls', 'Romans'])).toBeUndefined();
    expect(boundSide(bounds, 8, 2, ['Gauls', 'Romans'])).toBeUndefined();
    expect(boundSide(bounds, 7, 2, ['Gauls', 'Britons'])).toBeUndefined();
  });

  it('fills the front units’ labels into the words', () => {
    expect(filled('On {enemy}’s flank; it recoils with {front}.', 'Equites', 'Soldurii')).toBe('On Soldurii’s flank; it recoils with Equites.');
  });
});

describe('what a contact brings', () => {
  const m = (label: string, value: number, rule = 'p. 37'): Modifier => ({ label, value, rule });
  const n = (message: string): Note => ({ message, rule: 'p. 36' });

  it('is each factor it adds or changes, by how much, and the notes only it brings', () => {
    const withIt = { modifiers: [m('Hastati: Combat factor', 4), m('Soldurii: Each flank overlapped (×2)', -2, 'p. 35'), m('Soldurii: Each enemy front edge on flank', -1)], notes: [n('Triarii in rank 2 gives no support here')] };
    const withoutIt = { modifiers: [m('Hastati: Combat factor', 4), m('Soldurii: Each flank overlapped (×1)', -1, 'p. 35')], notes: [] };
    expect(implied(withIt, withoutIt)).toEqual([
      { label: 'Soldurii: Each flank overlapped', value: -1, rule: 'p. 35', ruling: undefined },
      { label: 'Soldurii: Each enemy front edge on flank', value: -1, rule: 'p. 37', ruling: undefined },
      { label: 'Triarii in rank 2 gives no support here', rule: 'p. 36', ruling: undefined },
    ]);
  });

  it('is a factor it takes away, as a negative change, and nothing when it changes nothing', () => {
    expect(implied({ modifiers: [], notes: [] }, { modifiers: [m('Soldurii: Rear support', 1)], notes: [] })).toEqual([{ label: 'Soldurii: Rear support', value: -1, rule: 'p. 37', ruling: undefined }]);
    expect(implied({ modifiers: [m('A', 1)], notes: [n('x')] }, { modifiers: [m('A', 1)], notes: [n('x')] })).toEqual([]);
  });
});

describe('the umpire’s changes carried onto the fight opened again', () => {
  const opened = { a: { element: { name: 'Hastati' }, overlaps: [] }, b: { element: { name: 'Soldurii' }, overlaps: [] }, bound: 'a' };

  it('keeps what the umpire set and takes the new opening’s contacts', () => {
    const now = { ...opened, a: { ...opened.a, going: 'rough', factors: ['uphill'] }, time: 'night' };
    const reopened = { ...opened, b: { ...opened.b, overlaps: [{ type: 'Bd' }], enemy_on_flank_or_rear: 1 } };
    expect(carryEdits(opened, now, reopened)).toEqual({
      a: { element: { name: 'Hastati' }, overlaps: [], going: 'rough', factors: ['uphill'] },
      b: { element: { name: 'Soldurii' }, overlaps: [{ type: 'Bd' }], enemy_on_flank_or_rear: 1 },
      bound: 'a',
      time: 'night',
    });
  });

  it('drops a change inside what the new opening no longer has, and keeps what the umpire cleared cleared', () => {
    const withSupport = { ...opened, a: { ...opened.a, support: { ranks: [{ name: 'Triarii' }], lined_up: true } }, edge: 'front' };
    const now = { ...withSupport, a: { ...withSupport.a, support: { ranks: [{ name: 'Triarii' }], lined_up: false } } } as Record<string, unknown>;
    delete now.edge;
    const reopened = { ...opened, edge: 'front' };
    expect(carryEdits(withSupport, now, reopened)).toEqual(opened);
  });

  it('takes the new opening whole when the umpire changed nothing', () => {
    const reopened = { ...opened, bound: 'b' };
    expect(carryEdits(opened, structuredClone(opened), reopened)).toEqual(reopened);
  });
});

describe('a move opened again along a path retyped', () => {
  it('keeps the umpire’s changes to each hex still in the path, and to the move', () => {
    const hex = (label: string, more: Record<string, unknown> = {}) => ({ label, terrain: 'clear', rout: false, ...more });
    const opened = { kind: 'rout', path: [hex('19.05'), hex('20.05')] };
    const now = { kind: 'rout', enemy_distance: 2, path: [hex('19.05', { terrain: 'mud', enemy_distance: 3 }), hex('20.05', { map_edge: true })] };
    // Retyped: 20.05 dropped, 19.06 added; the roster now has a Rout marker in 19.05.
    const reopened = { kind: 'rout', path: [hex('19.05', { rout: true }), hex('19.06')] };
    expect(carryPathEdits(opened, now, reopened)).toEqual({
      kind: 'rout', enemy_distance: 2,
      path: [hex('19.05', { terrain: 'mud', enemy_distance: 3, rout: true }), hex('19.06')],
    });
  });
});
