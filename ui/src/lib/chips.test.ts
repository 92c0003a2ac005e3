import { describe, expect, it } from 'vitest';
import type { Odds } from './battle';
import { commonChips, picksToAsk, pickWorths, shownChips, valueKey } from './chips';

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

  describe('a chip that sets one value of a choice (ITACS 3.1.4: from a ladder, from a wall)', () => {
    const schema = {
      type: 'object',
      properties: {
        attack_from: { type: 'string', enum: ['ground', 'ladder_or_tower', 'wall'], default: 'ground' },
        defenders: { type: 'array', items: { type: 'object', required: ['terrain'], properties: { terrain: { type: 'string' } } } },
      },
    };
    const common = [
      { field: 'terrain', label: 'Terrain' },
      { field: 'attack_from', value: 'ladder_or_tower', label: 'From a ladder or siege tower' },
      { field: 'attack_from', value: 'wall', label: 'From an adjacent wall hex' },
      // A value the choice does not have is no chip.
      { field: 'attack_from', value: 'moat', label: 'From a moat' },
    ];
    const odds = (total_modifier: number, p = 0.5): Odds => ({ total_modifier, names: {}, distribution: [{ result: 'A', p }] });
    const onWall = { defenders: [{ terrain: 'wall' }] };
    const chips = commonChips(schema, onWall, common, { terrain: [{ key: 'wall', label: 'Wall' }] });
    const picks = chips.filter((c) => c.value !== undefined);

    it('is found by its choice and value, with the default that tapping it again puts back', () => {
      expect(picks.map((c) => [c.key, c.label, c.value, c.fallback])).toEqual([
        ['attack_from=ladder_or_tower', 'From a ladder or siege tower', 'ladder_or_tower', 'ground'],
        ['attack_from=wall', 'From an adjacent wall hex', 'wall', 'ground'],
      ]);
      // The default and each chip's value are asked once each.
      expect(picksToAsk(chips).map((p) => p.value)).toEqual(['ground', 'ladder_or_tower', 'wall']);
    });

    it('is worth the change from the default, or where the default is refused from the other chip, named', () => {
      // A wall hex from the ground is refused; from a ladder the wall's −6 applies, from a wall not.
      const wall = new Map<string, Odds | undefined>([[valueKey(['attack_from'], 'ground'), undefined], ['attack_from=ladder_or_tower', odds(-6)], ['attack_from=wall', odds(0)]]);
      expect(pickWorths(picks, onWall, wall)).toEqual({
        'attack_from=ladder_or_tower': 'if on: −6 on the dice vs. from an adjacent wall hex',
        'attack_from=wall': 'if on: +6 on the dice vs. from a ladder or siege tower',
      });
      expect(pickWorths(picks, { ...onWall, attack_from: 'wall' }, wall)['attack_from=wall']).toBe('on: +6 on the dice vs. from a ladder or siege tower');
      // The default allowed: the worth is against it, unnamed, and a value that changes nothing is no chip.
      const open = new Map<string, Odds | undefined>([['attack_from=ground', odds(0)], ['attack_from=ladder_or_tower', odds(0)], ['attack_from=wall', odds(0, 0.25)]]);
      expect(pickWorths(picks, {}, open)).toEqual({ 'attack_from=wall': 'if on: A −25.0 pts' });
      // Refused: shown only while set, as not allowed.
      const clear = new Map<string, Odds | undefined>([['attack_from=ground', odds(0)], ['attack_from=ladder_or_tower', odds(0)], ['attack_from=wall', undefined]]);
      expect(pickWorths(picks, {}, clear)).toEqual({});
      const set = { attack_from: 'wall' };
      const worths = pickWorths(picks, set, clear);
      expect(worths).toEqual({ 'attack_from=wall': 'not allowed' });
      expect(shownChips(chips, set, worths).map((c) => c.key)).toEqual(['attack_from=wall', 'defenders.0.terrain']);
      expect(shownChips(chips, {}, {}).map((c) => c.key)).toEqual(['defenders.0.terrain']);
    });
  });
});
