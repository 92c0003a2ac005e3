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
choices: Array<ChoiceList>, };

export type ActionInfo = { id: string, name: string, rule: string, };

export type ChoiceList = { field: string, options: Array<Choice>, };

export type Choice = { key: string, label: string, };

export type Resolution = { system: string, action: string, 
/**
 * Dice notation of the roll, e.g. `2d6`.
 */
dice: string, totals: Array<Total>, modifiers: Array<Modifier>, total_modifier: number, distribution: Array<ResultOdds>, notes: Array<Note>, outcome?: Outcome, };

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

export type Target = "attacker" | "defender" | { "hex": string };

export type Change = { "kind": "d_markers", count: number, } | { "kind": "lose_units", count: number, chosen_by: Chooser, } | { "kind": "destroy_all" } | { "kind": "must_break" };

export type Chooser = "attacker" | "defender";

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

export type ItacsFireSituation = { firing_hexes: Array<FiringHex>, target: TargetHex, };

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
terrain: string, stream?: boolean, road?: boolean, scarp?: ScarpLine, square?: boolean, units: Array<ItacsUnit>, };

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

export type DefendingHex = { label?: string, terrain: string, stream?: boolean, road?: boolean, square?: boolean, units: Array<ItacsUnit>, };

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
 * How many identical units (default 1).
 */
count?: number, elite?: boolean, shields?: boolean, 
/**
 * In fire: whether this unit fires (default true).
 */
firing?: boolean, };

export type ScarpLine = "none" | "firing_down" | "firing_up";

export type AttackPosition = "ground" | "ladder_or_tower" | "wall";
