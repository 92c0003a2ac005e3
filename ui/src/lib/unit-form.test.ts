import { describe, expect, it } from 'vitest';
import type { UnitForm } from '../generated/api';
import { afterTypeChange, asked, carriedToNext, commandFor, defaultLabel, forRole, initialValues, missing, search, statsOf, typeDependent, valuesOf } from './unit-form';

const form: UnitForm = {
  ruleset: 'itacs',
  fields: [
    { key: 'type', label: 'Unit type', rule: '2.4.5', kind: 'choice', required: true, options: [
      { key: 'SD', label: 'Spear-armed drilled foot (SD)', fills: ['class'], printed: [{ label: 'Combat', value: '3', rule: '2.4.5' }] },
      { key: 'PS', label: 'Pike-armed skirmishers (PS)', fills: [], printed: [] },
      { key: 'LB', label: 'Longbowmen (LB)', fills: ['class'], printed: [] },
    ] },
    { key: 'class', label: 'Class', rule: '2.4.6', kind: 'choice', required: true, options: [{ key: 'A', label: 'A', fills: [], printed: [] }] },
    { key: 'count', label: 'Units in the hex', rule: '2.4', kind: 'number', required: true, default: 1, min: 1, max: 12, options: [] },
    { key: 'elite', label: 'Elite', rule: '2.4.7', kind: 'toggle', required: false, options: [] },
  ],
  leader_fields: [],
  place_field: null,
};

describe('the unit form', () => {
  it('asks only what the chosen type does not give', () => {
    expect(asked(form, { type: 'SD' }).map((f) => f.key)).toEqual(['type', 'count', 'elite']);
    expect(asked(form, { type: 'PS' }).map((f) => f.key)).toEqual(['type', 'class', 'count', 'elite']);
  });

  it('starts at the defaults and sends only what holds a value', () => {
    expect(initialValues(form)).toEqual({ count: 1 });
    expect(statsOf(form, { type: 'SD', count: 4, elite: false, class: 'A' })).toEqual({ type: 'SD', count: 4 });
    // What the unit carried and the form does not ask stays (a unit's hits are its hits).
    expect(statsOf(form, { ...valuesOf({ type: 'PS', count: 2, hits: 1 }), class: 'A' })).toEqual({ hits: 1, type: 'PS', class: 'A', count: 2 });
  });

  it('carries to the next unit only what is not one unit’s own (a GTS unit’s order)', () => {
    // GTS: Persian cavalry added after close-order Immortals must not be in close order too
    // (it would move 14" instead of its 15", Table 2.10).
    const choice = (key: string, once: boolean) => ({ key, label: key, rule: '2.10', kind: 'choice' as const, required: false, once, options: [] });
    const gts = [choice('class', false), choice('weapon', false), choice('order', true), choice('morale', true)];
    const immortals = { class: 'infantry', weapon: 'SP', order: 'CO', morale: 'C', stands: 4 };
    const next = carriedToNext(gts, immortals);
    expect(next).toEqual({ class: 'infantry', weapon: 'SP', stands: 4 });
    expect(statsOf({ ...form, fields: gts }, { ...next, class: 'cavalry' })).not.toHaveProperty('order');
    // The values of the unit just added are left as they were.
    expect(immortals.order).toBe('CO');
  });

  it('asks a general’s tag on his own row only (GTS 1.2)', () => {
    const tag = { key: 'pc', label: 'General’s personal command (PC)', rule: '1.2', kind: 'number' as const, required: false, general_only: true, options: [] };
    const gts = { ...form, fields: [...form.fields, tag] };
    expect(asked(forRole(gts, {}, 'general').form, {}).map((f) => f.key)).toContain('pc');
    const unit = forRole(gts, { type: 'PS', class: 'A', count: 1, pc: 3 }, 'unit');
    expect(asked(unit.form, unit.values).map((f) => f.key)).not.toContain('pc');
    // A value typed while the row was a general's is not sent for a unit.
    expect(statsOf(unit.form, unit.values)).toEqual({ type: 'PS', class: 'A', count: 1 });
  });

  it('edits a unit from its entry as the core gives it (the strength it began with)', () => {
    expect(valuesOf({ type: 'SD', count: 4 })).toEqual({ type: 'SD', count: 4 });
    expect(valuesOf({ class: 'infantry', stands: 3, hits: 1 })).toEqual({ class: 'infantry', stands: 3, hits: 1 });
    expect(valuesOf(undefined)).toEqual({});
    expect(valuesOf([1, 2])).toEqual({});
  });

  it('says what is missing or wrong, by the field’s label', () => {
    expect(missing(form, { count: 1 }).map((m) => m.label)).toEqual(['Unit type', 'Class']);
    expect(missing(form, { count: 1 })[0].text).toBe('Pick one from the list.');
    expect(missing(form, { type: 'XX', count: 1 })[0].text).toMatch(/no such value/);
    expect(missing(form, { type: 'SD', count: 0 })).toEqual([{ key: 'count', label: 'Units in the hex', text: 'Enter 1 or more.' }]);
    expect(missing(form, { type: 'SD', count: 2.5 })[0].text).toBe('Enter a whole number.');
    expect(missing(form, { type: 'SD', count: 6 })).toEqual([]);
  });

  it('finds a type by its code first, then by its name', () => {
    const options = form.fields[0].options;
    expect(search(options, 'sd').map((o) => o.key)).toEqual(['SD']);
    expect(search(options, 'bow').map((o) => o.key)).toEqual(['LB']);
    expect(search(options, 'p').map((o) => o.key)).toEqual(['PS', 'SD']);
    expect(search(options, '').length).toBe(3);
    expect(defaultLabel(form, { type: 'LB' })).toBe('LB');
    // A type whose code is an id, not a name, gives its name in words.
    const medieval = { ...form, fields: [{ ...form.fields[0], options: [{ key: 'heavy_cavalry', label: 'Heavy cavalry', unit_label: 'Heavy cavalry', fills: [], printed: [] }] }] };
    expect(defaultLabel(medieval, { type: 'heavy_cavalry' })).toBe('Heavy cavalry');
  });

  it('clears what one type was entered with when another type is picked', () => {
    expect([...typeDependent(form)]).toEqual(['class']);
    // Class A typed for the PS (which prints none): the SD prints its own; the LB asks again.
    const typed = { type: 'PS', class: 'A', count: 3, elite: true };
    expect(afterTypeChange(form, { ...typed, type: 'LB' }, 'PS', 'LB')).toEqual({ type: 'LB', count: 3, elite: true });
    // The same type again, or the first pick: nothing is cleared.
    expect(afterTypeChange(form, typed, 'PS', 'PS')).toEqual(typed);
    expect(afterTypeChange(form, typed, undefined, 'PS')).toEqual(typed);
  });

  it('keeps a command only on the side that has it', () => {
    expect(commandFor(['Perseus'], 'Paullus')).toBe('Perseus');
    expect(commandFor(['Legion', 'Horse'], 'Perseus')).toBe('');
    expect(commandFor(['Legion', 'Horse'], 'Horse')).toBe('Horse');
    expect(commandFor(['Legion'], '')).toBe('');
  });
});
