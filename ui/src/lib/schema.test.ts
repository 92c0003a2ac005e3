import { describe, expect, it } from 'vitest';
import { blank, chosenValue, field, getAt, pathKey, pointer, prominent, prominentKeys, removeAt, schemaAt, setAt, shapeKey, toggled, type Schema } from './schema';
import { morale } from '../test-fixtures';

const lists = { terrain: [{ key: 'clear', label: 'Clear' }, { key: 'forest', label: 'Forest' }] };

describe('the situation form', () => {
  it('names a box by a JSON pointer, as the API takes it', () => {
    expect(pointer(['side_a', 0, 'flanked'])).toBe('/side_a/0/flanked');
    expect(pointer(['a/b', 'c~d'])).toBe('/a~1b/c~0d');
  });

  it('knows each field kind from the schema and the ruleset choices', () => {
    expect(field(morale.properties!.events, morale, 'events', lists).kind).toBe('array');
    expect(field(morale.properties!.track, morale, 'track', lists).kind).toBe('integer');
    const terrain = field(morale.properties!.terrain, morale, 'terrain', lists);
    expect([terrain.kind, terrain.nullable, terrain.options.length]).toEqual(['select', true, 2]);
    expect(field(morale.properties!.contact_movement, morale, 'contact_movement', lists).kind).toBe('list');
    const kind = field(morale.$defs!.MoraleEvent.properties!.kind, morale, 'kind', {});
    expect(kind.options.map((o) => o.key)).toEqual(['elimination', 'banner_fall']);
  });

  it('picks a unit the fight lists by name where the field is its number', () => {
    const modifying: Schema = { type: ['integer', 'null'], minimum: 0, description: 'Which unit’s modifiers count.' };
    const named = { modifying_a: [{ key: '0', label: 'Immortals' }, { key: '1', label: 'Sparabara' }] };
    const f = field(modifying, modifying, 'modifying_a', named);
    expect([f.kind, f.options.map((o) => o.label)]).toEqual(['select', ['Immortals', 'Sparabara']]);
    expect(chosenValue(f, '1')).toBe(1);
    expect(chosenValue(f, '')).toBeUndefined();
    // Without the fight's list it stays a number.
    expect(field(modifying, modifying, 'modifying_a', {}).kind).toBe('integer');
    expect(chosenValue(field(morale.properties!.terrain, morale, 'terrain', lists), 'forest')).toBe('forest');
  });

  it('gives a box for each choice when a list of words has a known list', () => {
    const effects: Schema = { type: 'array', items: { type: 'string' }, description: 'The weather effects that hold.' };
    const weather = { effects: [{ key: 'strong_wind', label: 'Strong wind' }, { key: 'dazzle', label: 'Dazzle' }] };
    const f = field(effects, effects, 'effects', weather);
    expect([f.kind, f.options.map((o) => o.label)]).toEqual(['checks', ['Strong wind', 'Dazzle']]);
    // Without a list it stays a typed list; numbers never become boxes.
    expect(field(effects, effects, 'effects', {}).kind).toBe('list');
    expect(field({ type: 'array', items: { type: 'integer' } }, effects, 'effects', weather).kind).toBe('list');
    // The items' own enum is a list too.
    const own = field({ type: 'array', items: { type: 'string', enum: ['front', 'flank'] } }, effects, 'edges', {});
    expect([own.kind, own.options.map((o) => o.key)]).toEqual(['checks', ['front', 'flank']]);
    expect(blank(effects, effects, weather, 'effects')).toEqual([]);
  });

  it('ticks and unticks a choice, keeping the list order and any value the list lacks', () => {
    const options = [{ key: 'a', label: 'A' }, { key: 'b', label: 'B' }, { key: 'c', label: 'C' }];
    expect(toggled(['c'], 'a', true, options)).toEqual(['a', 'c']);
    expect(toggled(['a', 'c'], 'a', false, options)).toEqual(['c']);
    expect(toggled(undefined, 'b', true, options)).toEqual(['b']);
    expect(toggled(['old', 'b'], 'b', true, options)).toEqual(['b', 'old']);
    expect(toggled(['a'], 'a', true, options)).toEqual(['a']);
  });

  it('starts new values with their required fields and defaults', () => {
    expect(blank(morale, morale)).toEqual({ events: [{ kind: 'elimination', to: 'a' }] });
    expect(blank(morale.$defs!.MoraleEvent, morale)).toEqual({ kind: 'elimination', to: 'a' });
    expect(blank(morale.properties!.track, morale)).toBe(0);
  });

  it('reads and writes values by path, removing emptied optional fields', () => {
    const v: Record<string, unknown> = { events: [{ kind: 'elimination', to: 'a' }] };
    setAt(v, ['events', 0, 'count'], 3);
    expect(getAt(v, ['events', 0, 'count'])).toBe(3);
    setAt(v, ['events', 0, 'count'], undefined);
    expect(v.events).toEqual([{ kind: 'elimination', to: 'a' }]);
    removeAt(v, ['events', 0]);
    expect(v.events).toEqual([]);
    expect(pathKey(['a', 1, 'b'])).toBe('a.1.b');
    expect(schemaAt(morale, ['events', 0]).properties?.kind).toBeDefined();
  });

  it('names choices in words and keeps optional fields at their default out of the way', () => {
    const kind = field(morale.$defs!.MoraleEvent.properties!.kind, morale, 'kind', {});
    expect(kind.options.map((o) => o.label)).toEqual(['An enemy unit eliminated', 'Banner fall']);
    expect(prominent('track', { default: 0 }, 0, false)).toBe(false);
    expect(prominent('track', { default: 0 }, 2, false)).toBe(true);
    expect(prominent('events', {}, [], true)).toBe(true);
  });
});

describe('fields kept up front', () => {
  it('are those holding something when the form opened, by their key without list indices', () => {
    const schema = {
      type: 'object',
      properties: {
        hexes: { type: 'array', items: { type: 'object', properties: { rear: { type: 'boolean' }, range: { type: 'integer', default: 1 } } } },
        night: { type: 'boolean' },
      },
    };
    const keys = prominentKeys(schema, { hexes: [{ rear: false, range: 1 }, { rear: true, range: 3 }], night: false });
    expect([...keys].sort()).toEqual(['hexes', 'hexes.range', 'hexes.rear']);
    expect(shapeKey(['hexes', 1, 'rear'])).toBe('hexes.rear');
  });
});
