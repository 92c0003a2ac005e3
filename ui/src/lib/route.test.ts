import { describe, expect, it } from 'vitest';
import type { PlaceList } from '../generated/api';
import { heldByPickers, itemFor, offered, routeLine, routeNames, upFrontBesidePickers, withPlace, withoutPlace } from './route';

const route: PlaceList = {
  path: ['defender', 'retreat_hexes'],
  title: "Lithuanians' retreat route",
  rule: '5.4',
  ruling: 'R-MED-44',
  name_key: 'label',
  places: [
    { name: '14.05', words: 'Spears (1 SP)', item: { label: '14.05', friendly: [{ type: 'light_infantry', sp: 1 }] } },
    { name: '14.06', words: 'enemy: Sergeants', item: { label: '14.06', enemy: true } },
  ],
};

describe('a retreat route picked from the roster', () => {
  it('adds a roster hex with what stands there, then a new hex by its name', () => {
    let s: unknown = { defender: { banner: true } };
    s = withPlace(s, route, '14.05');
    s = withPlace(s, route, ' 15.05 ');
    expect(s).toEqual({
      defender: {
        banner: true,
        retreat_hexes: [{ label: '14.05', friendly: [{ type: 'light_infantry', sp: 1 }] }, { label: '15.05' }],
      },
    });
    expect(routeNames(s, route)).toEqual(['14.05', '15.05']);
    expect(offered(s, route).map((p) => p.name)).toEqual(['14.06']);
  });

  it("gives a fighting hex's own route to that hex alone (R-MED-50)", () => {
    const second: PlaceList = { ...route, path: ['defenders', '1', 'retreat_hexes'], title: "Lithuanians' retreat route from 13.06 (Horsemen)" };
    let s: unknown = { defenders: [{ label: 'Boyars' }, { label: 'Horsemen' }] };
    s = withPlace(s, second, '14.06');
    expect(s).toEqual({ defenders: [{ label: 'Boyars' }, { label: 'Horsemen', retreat_hexes: [{ label: '14.06', enemy: true }] }] });
    expect(routeLine(s, second)).toBe('14.06');
    expect(heldByPickers([second])).toEqual(new Set(['defenders.retreat_hexes', 'defenders.retreat_hexes.label']));
  });

  it('never adds a hex twice nor a blank one', () => {
    const once = withPlace({}, route, '14.05');
    expect(withPlace(once, route, '14.05')).toEqual(once);
    expect(withPlace(once, route, '  ')).toEqual(once);
    expect(itemFor(route, '')).toBeUndefined();
  });

  it('takes a hex off the route, the rest kept in order', () => {
    let s: unknown = {};
    for (const name of ['14.05', '14.06', '15.05']) s = withPlace(s, route, name);
    expect(routeNames(withoutPlace(s, route, 1), route)).toEqual(['14.05', '15.05']);
  });

  it('keeps the offered item apart from the route: editing one leaves the other', () => {
    const s = withPlace({}, route, '14.05') as { defender: { retreat_hexes: { friendly: unknown[] }[] } };
    s.defender.retreat_hexes[0].friendly.push({ type: 'cavalry', sp: 1 });
    expect((route.places[0].item as { friendly: unknown[] }).friendly).toHaveLength(1);
  });

  it('says the route in one line for the folded picker, a hex not yet named by its place', () => {
    expect(routeLine({}, route)).toBe('none picked');
    let s: unknown = withPlace({}, route, '14.05');
    s = withPlace(s, route, '15.05');
    expect(routeLine(s, route)).toBe('14.05 → 15.05');
    const pursuit: PlaceList = { ...route, path: ['path'] };
    expect(routeLine({ path: [{}, { label: '14.05' }] }, pursuit)).toBe('hex 1 → 14.05');
  });
});

describe('a route the picker holds', () => {
  const pursuit: PlaceList = { ...route, path: ['path'], title: "Knights' pursuit route", rule: '5.5', ruling: 'R-MED-45', places: [] };

  it('is neither added to nor taken from in the form, its hexes named by the picker alone', () => {
    expect(heldByPickers([route, pursuit])).toEqual(new Set(['defender.retreat_hexes', 'defender.retreat_hexes.label', 'path', 'path.label']));
    expect(heldByPickers([])).toEqual(new Set());
  });

  it('is not shown up front in the form: the pursuit path with its first hex, nor its hexes terrain', () => {
    const keep = new Set(['pursuer', 'pursuer.type', 'path', 'path.label', 'path.terrain', 'paths_other']);
    expect(upFrontBesidePickers(keep, [pursuit])).toEqual(new Set(['pursuer', 'pursuer.type', 'paths_other']));
    expect(upFrontBesidePickers(undefined, [pursuit])).toBeUndefined();
  });
});
