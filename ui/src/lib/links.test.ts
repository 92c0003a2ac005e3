import { describe, expect, it } from 'vitest';
import type { UnitForm } from '../generated/api';
import { unit } from '../test-fixtures';
import { linkFields, linkOf, linkable, linkedEntry, linkedFrom, nearby } from './links';

const leads = { key: 'leads', label: 'Leads', rule: '1.5', kind: 'unit' as const, required: false, options: [] };
const escorts = { key: 'escorts', label: 'Escorts', rule: '3.16', kind: 'unit' as const, required: false, options: [] };
const form: UnitForm = {
  ruleset: 'gts',
  fields: [{ key: 'stands', label: 'Stands', rule: '2.11', kind: 'number', required: true, options: [] }, escorts],
  leader_fields: [leads, { key: 'pv', label: 'Personal valour (PV)', rule: '1.2', kind: 'number', required: true, options: [] }],
  place_field: null,
};

const units = {
  1: unit({ id: 1, label: 'Immortals', side: 'Persians', detail: { entry: { stands: 4 }, state: {} } }),
  2: unit({ id: 2, label: 'Artaphernes', side: 'Persians', role: 'leader', detail: { entry: { pv: 1, leads: 'Immortals' }, state: {} } }),
  3: unit({ id: 3, label: 'Elephants', side: 'Persians', detail: { entry: { stands: 2 }, state: {} } }),
  4: unit({ id: 4, label: 'Runners', side: 'Persians', detail: { entry: { stands: 1, escorts: 'Elephants' }, state: {} } }),
  5: unit({ id: 5, label: 'Hoplites', side: 'Greeks' }),
  6: unit({ id: 6, label: 'Levy', side: 'Persians', lost: true }),
};

describe('rows linked by label', () => {
  it('offers the side’s units on the table, leaders and the row itself apart', () => {
    expect(linkable('Persians', units)).toEqual(['Immortals', 'Elephants', 'Runners']);
    expect(linkable('Persians', units, 4)).toEqual(['Immortals', 'Elephants']);
  });
  it('shows a leader’s link always, a unit’s only when it escorts', () => {
    expect(linkFields(form, units[2]).map((f) => f.key)).toEqual(['leads']);
    expect(linkFields(form, units[4]).map((f) => f.key)).toEqual(['escorts']);
    expect(linkFields(form, units[1])).toEqual([]);
    expect(linkFields(undefined, units[2])).toEqual([]);
  });
  it('moves a leader to another unit, or to none, keeping the rest of his entry', () => {
    expect(linkOf(units[2], 'leads')).toBe('Immortals');
    expect(linkedEntry(units[2], 'leads', 'Elephants')).toEqual({ pv: 1, leads: 'Elephants' });
    expect(linkedEntry(units[2], 'leads', '')).toEqual({ pv: 1 });
    expect(linkOf(units[1], 'leads')).toBe('');
  });
});

describe('the units near a fallen leader', () => {
  it('are his side’s units on the table, picked from the roster', () => {
    expect(nearby('Artaphernes', { 'unit:Artaphernes': [2] }, units).map((u) => u.label)).toEqual(['Immortals', 'Elephants', 'Runners']);
    // Not on the roster: any side's units.
    expect(nearby('the leader', {}, units).map((u) => u.label)).toEqual(['Immortals', 'Elephants', 'Runners', 'Hoplites']);
    // A leader entered on his unit's row: the fight names the unit, which stood with him.
    expect(nearby('Immortals', { 'unit:Immortals': [1] }, units).map((u) => u.label)).toEqual(['Immortals', 'Elephants', 'Runners']);
  });
});

describe('a unit with the rows linked to it', () => {
  it('names its leader and its escort on its own row', () => {
    expect(linkedFrom(form, units[1], units)).toEqual(['Artaphernes']);
    expect(linkedFrom(form, units[3], units)).toEqual(['Runners']);
    expect(linkedFrom(form, units[5], units)).toEqual([]);
    expect(linkedFrom(undefined, units[1], units)).toEqual([]);
  });
});
