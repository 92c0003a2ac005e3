import { describe, expect, it } from 'vitest';
import { terrainsOf, withTerrains } from './terrain-memory';

const melee = (terrain: string) => ({
  attackers: [{ label: '18.04', units: [{ type: 'SD', count: 3 }] }],
  defenders: [{ label: '17.03', terrain, units: [{ type: 'PP', count: 2 }] }, { label: '17.02', terrain: 'clear', units: [] }],
});

describe('the terrain a fight remembers', () => {
  it('reads the terrain given to each labelled hex, wherever it stands in the situation', () => {
    expect(terrainsOf(melee('woods'))).toEqual({ '17.03': 'woods', '17.02': 'clear' });
    expect(terrainsOf({ target: { label: '22.19', terrain: 'mud', units: [] }, firing_hexes: [{ label: '17.03', range: 2 }] })).toEqual({ '22.19': 'mud' });
    expect(terrainsOf({ unit: { type: 'SD' } })).toEqual({});
  });
  it('gives a new fight the terrain last given to its hexes, and leaves the others', () => {
    const opened = melee('clear');
    const next = withTerrains(opened, { '17.03': 'woods', '30.30': 'swamp' });
    expect(next.defenders[0].terrain).toBe('woods');
    expect(next.defenders[1].terrain).toBe('clear');
    expect(opened.defenders[0].terrain).toBe('clear');
  });
});
