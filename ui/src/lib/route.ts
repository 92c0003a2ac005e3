// A list of the situation picked place by place from the roster (a Medieval retreat route, hex by
// hex): the places on it in order, the roster's places still offered, and the situation with one
// added or taken off. Pure, so it is unit-tested; the picker is components/RoutePicker.svelte.
import type { PlaceList } from '../generated/api';
import { getAt, setAt, shapeKey } from './schema';

type Item = Record<string, unknown>;

/** The list's place in the situation, an index among a side's hexes as a number ("defenders",
 * 1, "retreat_hexes"): a fighting hex's own route (R-MED-50). */
export function pathOf(list: PlaceList): (string | number)[] {
  return list.path.map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

/** The items of the list as the situation holds them now. */
export function itemsOf(situation: unknown, list: PlaceList): Item[] {
  const items = getAt(situation, pathOf(list));
  return Array.isArray(items) ? (items as Item[]) : [];
}

/** The names of the places on the route, in order (a place not yet named: empty). */
export function routeNames(situation: unknown, list: PlaceList): string[] {
  return itemsOf(situation, list).map((item) => String(item?.[list.name_key] ?? ''));
}

/** The route in one line, for the folded picker: "14.05 → 15.05", or that none is picked. */
export function routeLine(situation: unknown, list: PlaceList): string {
  const names = routeNames(situation, list).map((name, i) => name || `hex ${i + 1}`);
  return names.length ? names.join(' → ') : 'none picked';
}

/** The roster's places not yet on the route. */
export function offered(situation: unknown, list: PlaceList): PlaceList['places'] {
  const taken = new Set(routeNames(situation, list));
  return list.places.filter((p) => !taken.has(p.name));
}

/** The roster's place of that name, else a new place by its name alone (blank: none). */
export function itemFor(list: PlaceList, name: string): Item | undefined {
  const typed = name.trim();
  if (!typed) return undefined;
  const known = list.places.find((p) => p.name === typed);
  return known ? structuredClone(known.item as Item) : { [list.name_key]: typed };
}

/** The situation with the place added at the end of the route; one already on it is not added twice. */
export function withPlace(situation: unknown, list: PlaceList, name: string): unknown {
  const item = itemFor(list, name);
  if (!item || routeNames(situation, list).includes(name.trim())) return situation;
  return setAt(situation, pathOf(list), [...itemsOf(situation, list), item]);
}

/** The situation with the route's place at `index` taken off. */
export function withoutPlace(situation: unknown, list: PlaceList, index: number): unknown {
  const items = itemsOf(situation, list).filter((_, i) => i !== index);
  return setAt(situation, pathOf(list), items);
}

/** The form's keys the pickers hold: each list is neither added to nor taken from in the form
 * and its places' names are read-only there — the route is the picker's alone. */
export function heldByPickers(lists: PlaceList[]): Set<string> {
  return new Set(lists.flatMap((l) => [shapeKey(pathOf(l)), shapeKey([...pathOf(l), l.name_key])]));
}

/** The fields shown up front without the lists the pickers hold: a route's hexes (their terrain
 * still to set) stay under the form's other situations, a pursuit's as a retreat's. */
export function upFrontBesidePickers(keep: Set<string> | undefined, lists: PlaceList[]): Set<string> | undefined {
  if (!keep) return keep;
  const held = lists.map((l) => shapeKey(pathOf(l)));
  return new Set([...keep].filter((k) => !held.some((h) => k === h || k.startsWith(`${h}.`))));
}
