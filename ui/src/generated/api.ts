// Generated from the Rust API types by `npm run bindings`; do not edit.
// The test `bindings_are_current` fails when this file is stale.

export type ResolveRequest = { ruleset: string, action: string, 
/**
 * The action's situation, as documented in docs/api.md and `referee schema`.
 */
situation: unknown, 
/**
 * Physical dice faces, for the outcome.
 */
dice?: Array<number>, };

export type RulesetList = { systems: Array<SystemInfo>, problems: Array<RefereeError>, };

export type SystemInfo = { id: string, name: string, dice: string, fingerprint: string, 
/**
 * The files it was built from, base first.
 */
layers: Array<string>, actions: Array<ActionInfo>, 
/**
 * The values a situation field can take, from the ruleset data (`unit_type`, `terrain`).
 */
choices: Array<ChoiceList>, 
/**
 * The sequence of play, phase by phase, with the actions each phase offers.
 */
phases: Array<Phase>, };

export type ActionInfo = { id: string, name: string, rule: string, };

export type ChoiceList = { field: string, options: Array<Choice>, };

export type Choice = { key: string, label: string, };

export type Resolution = { system: string, action: string, 
/**
 * Dice notation of the roll, e.g. `2d6`.
 */
dice: string, totals: Array<Total>, modifiers: Array<Modifier>, total_modifier: number, distribution: Array<ResultOdds>, 
/**
 * Chained probabilities of what becomes of each hex or side.
 */
forecast: Array<Chance>, 
/**
 * Conditions the rules set, met or not, or for the umpire to check on the table.
 */
checks: Array<Check>, notes: Array<Note>, outcome?: Outcome, };

export type Modifier = { label: string, value: number, rule: string, ruling?: string, };

export type Total = { label: string, value: string, rule: string, ruling?: string, };

export type Note = { message: string, rule: string, ruling?: string, };

export type ResultOdds = { result: string, meaning: string, 
/**
 * The modified rolls that give it, e.g. `≤ 1`, `2–8`, `12+`.
 */
rolls: string, 
/**
 * Exact, as `n/d`.
 */
probability: string, 
/**
 * The same, as a float for display only.
 */
p: number, effects: Array<Effect>, };

export type Outcome = { dice: Array<number>, roll: number, modified: number, result: string, meaning: string, effects: Array<Effect>, };

export type Effect = { target: Target, change: Change, text: string, rule: string, ruling?: string, };

export type Target = "attacker" | "defender" | { "hex": string } | { "unit": string } | { "army": string };

export type Change = { "kind": "d_markers", count: number, } | { "kind": "remove_d_markers", count: number, } | { "kind": "lose_units", count: number, chosen_by: Chooser, } | { "kind": "destroy_all" } | { "kind": "must_break" } | { "kind": "break" } | { "kind": "remove_break" } | { "kind": "rout" } | { "kind": "remove_rout" } | { "kind": "victory_points", points: number, } | { "kind": "convert_to", unit_type: string, } | { "kind": "leader_captured" } | { "kind": "leader_freed" } | { "kind": "leader_killed" } | { "kind": "rampage", direction: string, };

export type Chooser = "attacker" | "defender";

export type Chance = { label: string, 
/**
 * Exact, as `n/d`.
 */
probability: string, 
/**
 * The same, as a float for display only.
 */
p: number, rule: string, ruling?: string, };

export type Check = { label: string, status: CheckStatus, rule: string, ruling?: string, };

export type CheckStatus = "met" | "not_met" | "umpire";

export type Phase = { key: string, name: string, rule: string, 
/**
 * The actions the phase offers, in the order they usually come.
 */
actions: Array<string>, 
/**
 * What happens in the phase, in order.
 */
steps: Array<PhaseStep>, };

export type PhaseStep = { text: string, rule: string, 
/**
 * The action that resolves this step, if any.
 */
action?: string, };

export type RefereeError = { code: string, message: string, 
/**
 * The situation field or ruleset key path at fault (`target.terrain`, `melee.columns[2]`).
 */
field?: string, 
/**
 * `file:line` for ruleset and house-rule files.
 */
location?: string, 
/**
 * The rule section the check comes from.
 */
rule?: string, ruling?: string, };

export type RollRequest = { 
/**
 * Dice notation, e.g. `2d6`.
 */
dice: string, 
/**
 * Replays a roll; a fresh seed is drawn when absent.
 */
seed?: number, };

export type DiceRoll = { dice: string, faces: Array<number>, seed: number, };

export type ItacsFireSituation = { firing_hexes: Array<FiringHex>, target: TargetHex, 
/**
 * Horse archers firing after movement (6.2): only for `horse_archer_fire`.
 */
after_movement?: AfterMovement, };

export type ItacsMeleeSituation = { attackers: Array<AttackingHex>, defenders: Array<DefendingHex>, 
/**
 * Where the attackers stand: only matters against walls (3.1.4).
 */
attack_from?: AttackPosition, 
/**
 * Sum of the bonuses of leaders stacked with the attacking formation (6.1.3).
 */
attacker_leader_bonus?: number, defender_leader_bonus?: number, };

export type FiringHex = { 
/**
 * A name for the hex, e.g. its map number `22.19`.
 */
label?: string, 
/**
 * Hexes from this hex to the target.
 */
range: number, 
/**
 * Fires through a rear hex of the target (4.2.4).
 */
rear?: boolean, 
/**
 * A leader is in this hex (4.4.1).
 */
leader?: boolean, units: Array<ItacsUnit>, };

export type TargetHex = { 
/**
 * Terrain key from the ruleset's terrain chart, e.g. `clear`, `mud`.
 */
terrain: string, stream?: boolean, road?: boolean, scarp?: ScarpLine, square?: boolean, 
/**
 * D markers already on the hex, for the chained forecast (5.1).
 */
d_markers?: number, 
/**
 * The hex already has a Rout marker.
 */
rout?: boolean, label?: string, units: Array<ItacsUnit>, };

export type AttackingHex = { label?: string, 
/**
 * Attacks through a rear hex of the defender (4.5.8).
 */
rear?: boolean, 
/**
 * The hex has D markers: its units may not attack (4.5).
 */
disrupted?: boolean, 
/**
 * The units form a square (2.6.1).
 */
square?: boolean, units: Array<ItacsUnit>, };

export type DefendingHex = { label?: string, terrain: string, stream?: boolean, road?: boolean, square?: boolean, 
/**
 * D markers already on the hex, for the chained forecast (5.1).
 */
d_markers?: number, 
/**
 * The hex already has a Rout marker.
 */
rout?: boolean, units: Array<ItacsUnit>, };

export type ItacsUnit = { 
/**
 * Unit type code, e.g. `SD`, `LB`.
 */
type?: string, 
/**
 * Unit class: A, B, C, D, Ff, Mf.
 */
class?: string, 
/**
 * Printed combat strength: a number, `.` or `[n]`.
 */
combat?: string, 
/**
 * Printed fire strength.
 */
fire?: number, 
/**
 * Printed movement points.
 */
movement?: number, 
/**
 * How many identical units (default 1).
 */
count?: number, elite?: boolean, shields?: boolean, 
/**
 * In fire: whether this unit fires (default true).
 */
firing?: boolean, 
/**
 * In defensive fire: the unit fires with throwing weapons (6.6).
 */
throwing?: boolean, 
/**
 * Units carried by a fleet, chariot or elephant (6.7–6.9).
 */
cargo?: Array<ItacsUnit>, 
/**
 * Carried on a fleet: a marine adds its full strength in fleet combat (6.7.5).
 */
marine?: boolean, };

export type ScarpLine = "none" | "firing_down" | "firing_up";

export type AttackPosition = "ground" | "ladder_or_tower" | "wall";

export type AfterMovement = { 
/**
 * Terrain key of the horse archers' hex.
 */
terrain: string, 
/**
 * The horse archers' movement points.
 */
movement: number, 
/**
 * Movement points of each enemy unit in contact with them.
 */
contact_movement?: Array<number>, 
/**
 * They already fired in the missile combat phase this turn.
 */
fired_before_movement?: boolean, };

export type ItacsHexState = { label?: string, d_markers?: number, break?: boolean, rout?: boolean, square?: boolean, 
/**
 * An elephant already rampaging (its D marker is permanent, 6.9.2).
 */
rampaging?: boolean, units: Array<ItacsUnit>, };

export type ItacsMarkersSituation = { hex: ItacsHexState, 
/**
 * The changes, in order, e.g. two results' `d_markers`.
 */
changes: Array<Change>, };

export type ItacsPhaseSituation = { hexes: Array<ItacsPhaseHex>, };

export type ItacsPhaseHex = { label: string, 
/**
 * The formation its units belong to (2.6), for leaders' reach.
 */
formation?: string, 
/**
 * The units belong to the player whose movement phase ends (5.2.1).
 */
moving_player?: boolean, d_markers?: number, break?: boolean, rout?: boolean, rampaging?: boolean, 
/**
 * Leaders stacked in the hex.
 */
leaders?: Array<ItacsLeader>, 
/**
 * Hexes from this hex to leaders elsewhere, by leader label.
 */
leader_distances?: { [key in string]: number }, };

export type ItacsLeader = { label: string, 
/**
 * Control range in hexes (6.1).
 */
control_range: number, };

export type ItacsMoveSituation = { 
/**
 * The moving units (one stack of one type), with their movement points.
 */
unit: ItacsUnit, kind?: MoveKind, 
/**
 * The hex it starts in has D markers (5.1).
 */
disrupted?: boolean, 
/**
 * The units are a square (2.6.1).
 */
square?: boolean, 
/**
 * A fire ship moves at half its allowance (6.7.6).
 */
fire_ship?: boolean, 
/**
 * The scenario's stacking limit for this side (default 3, 4.3.3).
 */
stacking_limit?: number, path: Array<ItacsPathStep>, 
/**
 * Facing changes after the last hex (4.3.2).
 */
end_facing_changes?: number, };

export type ItacsPathStep = { label?: string, terrain: string, stream?: boolean, 
/**
 * Entered along a road or bridge: 1 point whatever the terrain (3.1.1).
 */
road?: boolean, 
/**
 * Facing changes before entering this hex (1 point each, 4.3.2).
 */
facing_changes?: number, 
/**
 * Friendly units (not leaders) already in the hex (4.3.3).
 */
units_in_hex?: number, 
/**
 * D markers on the hex: a unit entering it is disrupted and stops (5.1).
 */
d_markers?: number, 
/**
 * A Rout marker on the hex: a unit entering it routs too (5.3).
 */
rout?: boolean, };

export type MoveKind = "normal" | "rout" | "break";

export type ItacsWithdrawSituation = { defenders: Array<ItacsUnit>, attackers: Array<ItacsUnit>, };

export type ItacsBreakSituation = { 
/**
 * The units of the hex, with their movement points.
 */
units: Array<ItacsUnit>, side?: CombatSide, 
/**
 * The combat result they suffered, e.g. `D2XB` (10.7).
 */
result?: string, 
/**
 * They attacked a square (2.6.1).
 */
attacked_square?: boolean, 
/**
 * The hex has D markers now (5.1, 5.2).
 */
disrupted?: boolean, 
/**
 * Movement points of the enemy units they fought in melee this phase (4.5.12).
 */
enemy_movement?: Array<number>, 
/**
 * Another unit of their formation broke this phase (4.5.12).
 */
formation_broke?: boolean, };

export type CombatSide = "attacker" | "defender";

export type ItacsLeaderFateSituation = { 
/**
 * A key of the ruleset's `leader_fate` table.
 */
event: string, 
/**
 * The leader, e.g. `2L Harold`.
 */
leader?: string, };

export type ItacsFeudalSituation = { 
/**
 * An enemy formation is within 14 hexes and in line of sight.
 */
enemy_in_sight: boolean, 
/**
 * The bonus of a leader stacked in the formation, if one is.
 */
leader_bonus?: number, };

export type ItacsRampageSituation = { elephant?: string, };

export type ItacsConversionSituation = { 
/**
 * The unit's type now.
 */
type: string, 
/**
 * The type it began the scenario as (default: its type now).
 */
original_type?: string, 
/**
 * It stays stationary for the whole movement phase.
 */
stationary: boolean, disrupted?: boolean, adjacent_enemy?: boolean, };

export type ItacsTransportSituation = { 
/**
 * The fleet, chariot or elephant, with its combat strength.
 */
carrier: ItacsUnit, cargo: Array<ItacsUnit>, 
/**
 * Leaders carried.
 */
leaders?: number, 
/**
 * The carrier has just been destroyed in combat (6.7.7).
 */
destroyed?: boolean, 
/**
 * An adjacent land hex has room for the cargo (6.7.7).
 */
land_with_room?: boolean, };

export type ItacsFireShipSituation = { type: string, 
/**
 * The game turn it was designated, at the start of the movement phase.
 */
designated_turn: number, 
/**
 * It engages an enemy fleet in melee this turn.
 */
engages_fleet?: boolean, };

export type ItacsVictorySituation = { sides: Array<ItacsVictorySide>, 
/**
 * An army has already panicked this game: both are immune now (5.4).
 */
panic_happened?: boolean, };

export type ItacsVictorySide = { name: string, 
/**
 * The scenario's panic level for this army (5.4).
 */
panic_level?: number, 
/**
 * Units lost: destroyed in combat or routed off the map (7.0).
 */
lost?: Array<ItacsUnit>, };

export type ItacsScenarioSituation = { name?: string, 
/**
 * Game turns each player plays (4.1).
 */
turns: number, 
/**
 * The side that plays the first game turn (4.1).
 */
first_side: string, sides: Array<ItacsScenarioSide>, 
/**
 * The game turn being played, to count what is left.
 */
turn?: number, };

export type ItacsScenarioSide = { name: string, 
/**
 * Units per hex for this side (default 3, 4.3.3).
 */
stacking_limit?: number, panic_level?: number, 
/**
 * Unit types that are elite in this scenario (6.10).
 */
elite_types?: Array<string>, 
/**
 * Unit types with shields besides those the ruleset gives them (4.2.5).
 */
shield_types?: Array<string>, };
