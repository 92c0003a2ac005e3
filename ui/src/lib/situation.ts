// The form's state and the situation JSON it stands for: pure, so it is unit-tested.
import type { AttackPosition, ItacsFireSituation, ItacsMeleeSituation, ItacsUnit, ScarpLine } from '../generated/api';

export type ActionId = 'melee' | 'missile' | 'defensive_fire';

/** The actions this form enters; the others come with the battle screens (issue 8). */
export const FORM_ACTIONS: readonly string[] = ['missile', 'defensive_fire', 'melee'];

export interface UnitRow {
  type: string;
  count: number;
  cls: string;
  combat: string;
  fire: string;
  elite: boolean;
  shields: 'type' | 'yes' | 'no';
}

export interface FormState {
  action: ActionId;
  attackers: UnitRow[];
  defenders: UnitRow[];
  terrain: string;
  stream: boolean;
  road: boolean;
  square: boolean;
  /** D markers already on the defending hex, for the chained forecast (5.1). */
  dMarkers: number;
  rear: boolean;
  attackFrom: AttackPosition;
  attackerLeader: number;
  defenderLeader: number;
  range: number;
  scarp: ScarpLine;
  leaderWithFirers: boolean;
}

export const unitRow = (type: string, count = 1): UnitRow => ({
  type, count, cls: '', combat: '', fire: '', elite: false, shields: 'type',
});

/** Opens on the 4.5.13 example, so a new umpire sees a full resolution at once. */
export function initialState(): FormState {
  return {
    action: 'melee',
    attackers: [unitRow('SD', 6)],
    defenders: [unitRow('PS', 2)],
    terrain: 'clear', stream: false, road: false, square: false, dMarkers: 0, rear: true,
    attackFrom: 'ground', attackerLeader: 0, defenderLeader: 0,
    range: 1, scarp: 'none', leaderWithFirers: false,
  };
}

/** Only what the umpire entered: empty fields fall back to the unit type's values. */
export function toUnit(row: UnitRow): ItacsUnit {
  const unit: ItacsUnit = { count: row.count };
  if (row.type) unit.type = row.type;
  if (row.cls) unit.class = row.cls;
  if (row.combat.trim()) unit.combat = row.combat.trim();
  if (row.fire.trim() !== '') unit.fire = Number(row.fire);
  if (row.elite) unit.elite = true;
  if (row.shields !== 'type') unit.shields = row.shields === 'yes';
  return unit;
}

export function toSituation(s: FormState): ItacsMeleeSituation | ItacsFireSituation {
  if (s.action === 'melee') {
    return {
      attackers: [{ rear: s.rear, units: s.attackers.map(toUnit) }],
      defenders: [{ terrain: s.terrain, stream: s.stream, road: s.road, square: s.square, d_markers: s.dMarkers, units: s.defenders.map(toUnit) }],
      attack_from: s.attackFrom,
      attacker_leader_bonus: s.attackerLeader,
      defender_leader_bonus: s.defenderLeader,
    };
  }
  return {
    firing_hexes: [{ range: s.range, rear: s.rear, leader: s.leaderWithFirers, units: s.attackers.map(toUnit) }],
    target: { terrain: s.terrain, stream: s.stream, road: s.road, scarp: s.scarp, square: s.square, d_markers: s.dMarkers, units: s.defenders.map(toUnit) },
  };
}

/** Faces typed by the umpire, if both are whole numbers; the core checks their range. */
export function enteredDice(faces: string[]): number[] | undefined {
  const values = faces.map((f) => f.trim());
  if (values.some((v) => !/^\d+$/.test(v))) return undefined;
  return values.map(Number);
}

/** The form control a situation error's field path points at, as a CSS selector. */
export function selectorForField(field: string | undefined): string | undefined {
  if (!field) return undefined;
  const unit = /^(attackers|defenders|firing_hexes|target)(?:\[\d+\])?\.units\[(\d+)\]\.(\w+)$/.exec(field);
  if (unit) {
    const side = unit[1] === 'attackers' || unit[1] === 'firing_hexes' ? 'attackers' : 'defenders';
    const name = unit[3] === 'class' ? 'cls' : unit[3];
    return `.unit[data-side="${side}"][data-index="${unit[2]}"] [data-field="${name}"]`;
  }
  const ids: Record<string, string> = {
    terrain: '#terrain', range: '#range', attack_from: '#attack-from', scarp: '#scarp', dice: '#die-0',
    square: '#square', d_markers: '#d-markers',
  };
  const last = field.split('.').pop()?.replace(/\[\d+\]$/, '') ?? '';
  return ids[last];
}
