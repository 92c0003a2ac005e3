import { describe, expect, it } from 'vitest';
import { commonChips } from './chips';

describe('common situations as chips', () => {
  it('finds the flank, rear, uphill and river boxes, named by whose they are', () => {
    const schema = {
      type: 'object',
      properties: {
        attackers: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' }, rear: { type: 'boolean' }, leader: { type: 'boolean' }, double_based_rear: { type: 'boolean' } } } },
        target: { type: 'object', properties: { stream: { type: 'boolean' }, terrain: { type: 'string' } } },
        uphill: { type: 'boolean' },
        night: { type: 'boolean' },
      },
    };
    // The rule system names its common boxes and their words; a box of another name (night, an
    // element's own double_based_rear) is no chip.
    const common = [{ field: 'rear', label: 'Rear' }, { field: 'stream', label: 'Stream' }, { field: 'uphill', label: 'Uphill' }];
    const chips = commonChips(schema, { attackers: [{ label: '17.04', rear: false }, { label: '17.05', rear: true }], target: { stream: false }, uphill: false }, common);
    expect(chips.map((c) => [c.key, c.label])).toEqual([
      ['attackers.0.rear', 'Rear · 17.04'],
      ['attackers.1.rear', 'Rear · 17.05'],
      ['target.stream', 'Stream'],
      ['uphill', 'Uphill'],
    ]);
    expect(commonChips(schema, {}, [])).toEqual([]);
  });

  it('asks a required choice up front, never an optional one', () => {
    const schema = {
      type: 'object',
      properties: {
        attackers: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' }, terrain: { type: 'string' } } } },
        defenders: { type: 'array', items: { type: 'object', required: ['terrain'], properties: { label: { type: 'string' }, terrain: { type: 'string' } } } },
      },
    };
    const lists = { terrain: [{ key: 'clear', label: 'Clear' }, { key: 'forest', label: 'Forest (defender +2 CMs)' }] };
    const chips = commonChips(schema, { attackers: [{ label: 'Knights' }], defenders: [{ label: 'Boyars', terrain: 'clear' }] }, [{ field: 'terrain', label: 'Terrain' }], lists);
    expect(chips.map((c) => [c.key, c.label, c.options?.map((o) => o.key)])).toEqual([['defenders.0.terrain', 'Terrain · Boyars', ['clear', 'forest']]]);
  });
});
