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

export type FieldLimits = { 
/**
 * The longest name: a battle's, a side's, a command's, a unit's label (`names.rs`).
 */
name_max_chars: number, 
/**
 * No number on the table is larger than this, or more negative than its opposite
 * (situations refuse larger ones at the door).
 */
value_max: number, };

export type FlipsRequest = { ruleset: string, action: string, situation: unknown, 
/**
 * Each box as a JSON pointer into the situation (`/attacker/rear`); a box not in the
 * situation counts as its schema's default (off unless the schema says on).
 */
boxes: Array<string>, 
/**
 * One value of a choice to set, each on its own (an ITACS attack from an adjacent wall hex):
 * answered after the boxes, in this order.
 */
picks?: Array<Pick>, };

export type Pick = { pointer: string, value: string, };

export type Flipped = { 
/**
 * The box, as the request named it.
 */
box: string, 
/**
 * Whether the box was on in the situation given (a pick: whether the choice held its value).
 */
on: boolean, 
/**
 * A pick's value, as the request named it.
 */
value?: string, total_modifier: number, 
/**
 * Each result and its chance, as the resolution lists them.
 */
distribution: Array<ResultChance>, 
/**
 * Each result in words.
 */
names: { [key in string]: string }, 
/**
 * Turned over, the situation is refused: why, in words.
 */
refused?: string, };

export type ResultChance = { result: string, p: number, };

export type RulesetList = { systems: Array<SystemInfo>, house_rules: Array<HouseRuleInfo>, problems: Array<RefereeError>, };

export type HouseRuleInfo = { 
/**
 * The file, as the ruleset's `layers` name it; the key of a `HouseRuleChoice`.
 */
file: string, 
/**
 * The ruleset it changes.
 */
extends: string, name: string, 
/**
 * The ruling it switches, for a switchable ruling.
 */
ruling?: string, description?: string, 
/**
 * Built into the app (a switchable ruling, off by default) rather than a file of the user
 * folder (on by default).
 */
switch: boolean, 
/**
 * In force now.
 */
on: boolean, };

export type HouseRuleChoice = { 
/**
 * Files to put in force (e.g. `rulesets/switches/itacs-forbid-below-lowest-column.toml`).
 */
on: Array<string>, 
/**
 * Files to leave out.
 */
off: Array<string>, };

export type PresetList = { presets: Array<Preset>, problems: Array<RefereeError>, };

export type Preset = { 
/**
 * The file stem, e.g. `itacs-melee-example`.
 */
id: string, name: string, ruleset: string, 
/**
 * The section of the rule text the forces come from.
 */
rule: string, 
/**
 * One plain sentence for the begin form's preview.
 */
description: string, 
/**
 * Shipped with the app, or a file of the data folder's `presets/`.
 */
builtin: boolean, sides: Array<SideSetup>, units: Array<UnitSpec>, };

export type SystemInfo = { id: string, name: string, dice: string, fingerprint: string, 
/**
 * The files it was built from, base first.
 */
layers: Array<string>, actions: Array<ActionInfo>, 
/**
 * The action that resolves the system's main combat: "Resolve" on the roster opens it.
 */
main_action: string, 
/**
 * The values a situation field can take, from the ruleset data (unit_type, terrain).
 */
choices: Array<ChoiceList>, 
/**
 * The sequence of play, phase by phase, with the actions each phase offers.
 */
phases: Array<Phase>, 
/**
 * The boxes offered as chips.
 */
common_situations: Array<CommonSituation>, 
/**
 * The numbers a side is set up with in this system, besides its name and commands.
 */
side_fields: Array<SideField>, 
/**
 * What the umpire should know when filling the roster, in the rules' words.
 */
roster_advice?: string, 
/**
 * A unit's values are worked out from the tables (not printed on a counter): the roster
 * offers to show them.
 */
derived_values: boolean, 
/**
 * What the rules call a turn of the battle: "turn", or "bound" (DBMM).
 */
turn_word: string, };

export type ActionInfo = { id: string, name: string, rule: string, group: ActionGroup, 
/**
 * It takes two sides of roster units: its system opens its situation from them.
 */
fights: boolean, 
/**
 * It is filled in from the whole battle (every hex with markers, say): its system opens
 * its situation from the roster without picks.
 */
from_roster: boolean, 
/**
 * It is a test of one unit, opened from the unit's roster row with the unit in its state now
 * (its system's `open_unit`): a GTS rally (3.33).
 */
for_a_unit?: boolean, 
/**
 * It throws dice; an action that does not answers with one certain result.
 */
rolls: boolean, 
/**
 * The contacts it takes from the roster besides the two units fighting in front (DBMM
 * p. 35–38): none for a system whose picks are all it fights with.
 */
contacts: Array<ContactInfo>, 
/**
 * It is fought in one side's bound, which the umpire names (DBMM).
 */
asks_bound: boolean, 
/**
 * It moves one picked roster entry along the places the umpire names, each read from the
 * roster (an ITACS rout or break move, 5.1–5.3): opened from that one pick, no enemy.
 */
moves: boolean, };

export type ActionGroup = "combat" | "checks" | "movement" | "tables";

export type ContactInfo = { kind: ContactKind, 
/**
 * Whose friends it is picked from.
 */
parts: Array<FightPart>, 
/**
 * At most this many for each front element.
 */
at_most: number, 
/**
 * The pick's name: "On {enemy}'s flank".
 */
label: string, 
/**
 * What it counts for on both elements it concerns.
 */
counts: string, rule: string, ruling?: string, };

export type ContactKind = "overlap" | "behind" | "on_enemy_flank";

export type FightPart = "attackers" | "defenders";

export type Die = { sides: number, thrower?: Thrower, label?: string, purpose?: string, 
/**
 * What each face means, in the rule's words, from 1 up (a frenzied elephant's heading: its
 * facing as North, then NE, E …); none where a face is only its number.
 */
face_names?: Array<string>, };

export type Thrower = "a" | "b";

export type CommonSituation = { 
/**
 * The box's (or choice's) name in the situation.
 */
field: string, 
/**
 * Its words on the chip.
 */
label: string, 
/**
 * The one value of a choice the chip sets (its key); none for a box. Shown where setting it
 * changes the odds, or while it is set.
 */
value?: string, };

export type SideField = { 
/**
 * The side setup's field: `panic_level`, `stacking_limit`.
 */
key: string, label: string, rule: string, min: number, max: number, };

export type ChoiceList = { field: string, options: Array<Choice>, };

export type PlaceList = { 
/**
 * The list in the situation: its keys, outermost first (`["defender", "retreat_hexes"]`).
 */
path: Array<string>, 
/**
 * The list in the rules' words ("The Lithuanians' retreat route").
 */
title: string, 
/**
 * The rule it follows…
 */
rule: string, 
/**
 * …and the ruling, if any.
 */
ruling: string | null, 
/**
 * The roster's places it may name, each with the item it adds, what stands there filled in.
 */
places: Array<Place>, 
/**
 * A new place typed by name adds an item with the name under this key.
 */
name_key: string, };

export type Place = { 
/**
 * The place as the roster names it ("13.05").
 */
name: string, 
/**
 * What stands there, in words ("Spears, 2 SPs"; "enemy: Tatars").
 */
words: string, 
/**
 * The list item it adds.
 */
item: unknown, };

export type Choice = { key: string, label: string, };

export type Resolution = { system: string, action: string, 
/**
 * Dice notation of the roll, e.g. 2d6.
 */
dice: string, totals: Array<Total>, modifiers: Array<Modifier>, total_modifier: number, distribution: Array<ResultOdds>, 
/**
 * Chained probabilities of what becomes of each hex or side.
 */
forecast: Array<Chance>, 
/**
 * Conditions the rules set, met or not, or for the umpire to check on the table.
 */
checks: Array<Check>, notes: Array<Note>, outcome?: Outcome, 
/**
 * The dice of the throw, one by one, with the side throwing each in an opposed roll; none
 * for an answer without dice, or a throw per unit the app cannot lay out.
 */
faces: Array<Die>, 
/**
 * Its dice are asked in turn (a chain of throws: a GTS melee round's roll-off, then the
 * stand-loss checks, the recoil tests …): resolved with the faces entered so far, it lays out
 * those dice and the next ones the rules call for, and gives its outcome once none is left.
 */
in_turn: boolean, 
/**
 * Each result as the screen names it: a table's code as printed ("1D", "A2R"), a result
 * named by its key in words ("recoil_or_spent" → "Recoil or spent"), or the system's own
 * words naming the units ("Knights loses 1 SP; Boyars retreats 2 hexes (-1/D2)").
 */
names: { [key in string]: string }, 
/**
 * What the modifiers move when it is not the dice, in the rules' words: Medieval's combat
 * modifiers shift the column of the table, the roll itself never modified (1.5). Absent,
 * they are added to the dice.
 */
modifiers_shift?: string, };

export type Shown = { 
/**
 * The dice of the throw, one by one, with the side throwing each in an opposed roll; none
 * for an answer without dice, or a throw per unit the app cannot lay out.
 */
faces: Array<Die>, 
/**
 * Its dice are asked in turn (a chain of throws: a GTS melee round's roll-off, then the
 * stand-loss checks, the recoil tests …): resolved with the faces entered so far, it lays out
 * those dice and the next ones the rules call for, and gives its outcome once none is left.
 */
in_turn: boolean, 
/**
 * Each result as the screen names it: a table's code as printed ("1D", "A2R"), a result
 * named by its key in words ("recoil_or_spent" → "Recoil or spent"), or the system's own
 * words naming the units ("Knights loses 1 SP; Boyars retreats 2 hexes (-1/D2)").
 */
names: { [key in string]: string }, 
/**
 * What the modifiers move when it is not the dice, in the rules' words: Medieval's combat
 * modifiers shift the column of the table, the roll itself never modified (1.5). Absent,
 * they are added to the dice.
 */
modifiers_shift?: string, };

export type Modifier = { label: string, value: number, rule: string, ruling?: string, };

export type Total = { label: string, value: string, rule: string, ruling?: string, };

export type Note = { message: string, rule: string, ruling?: string, };

export type ResultOdds = { result: string, meaning: string, 
/**
 * The modified rolls that give it, e.g. ≤ 1, 2–8, 12+.
 */
rolls: string, 
/**
 * Exact, as n/d.
 */
probability: string, 
/**
 * The same, as a float for display only.
 */
p: number, effects: Array<Effect>, };

export type Outcome = { dice: Array<number>, roll: number, modified: number, result: string, meaning: string, effects: Array<Effect>, 
/**
 * An opposed roll, side by side: each side's die, its modifier and its total, so the
 * header reads "A 7 + 2 = 9 · B 3 + 4 = 7". Empty when one side throws.
 */
sides?: Array<SideThrow>, };

export type SideThrow = { 
/**
 * The side or element, as the resolution names it.
 */
label: string, die: number, 
/**
 * Everything added to the die, before any clamping.
 */
modifier: number, 
/**
 * The total the results compare (clamped where the rule clamps it).
 */
total: number, };

export type Effect = { target: Target, change: Change, 
/**
 * "Defender: +2 D markers": the target and the change in words.
 */
text: string, 
/**
 * "+2 D markers": the change alone in words, for a screen that names the target by the
 * units it lands on.
 */
what: string, rule: string, ruling?: string, };

export type Target = "attacker" | "defender" | { "hex": string } | { "unit": string } | { "army": string } | { "command": string } | { "side_of": string } | { "enemy_of": string } | { "within": { of: string, inches: number, } } | "battle";

export type Change = { "kind": "d_markers", count: number, } | { "kind": "remove_d_markers", count: number, } | { "kind": "lose_units", count: number, chosen_by: Chooser, } | { "kind": "destroy_all" } | { "kind": "must_break" } | { "kind": "break" } | { "kind": "remove_break" } | { "kind": "rout" } | { "kind": "remove_rout" } | { "kind": "victory_points", points: number, } | { "kind": "convert_to", unit_type: string, } | { "kind": "leader_captured" } | { "kind": "leader_freed" } | { "kind": "leader_killed" } | { "kind": "leader_dazed" } | { "kind": "leader_wounded" } | { "kind": "leader_unhorsed" } | { "kind": "leader_seriously_wounded" } | { "kind": "near_fallen_leader" } | { "kind": "rampage", direction: string, } | { "kind": "lose_sp", count: number, chosen_by: Chooser, } | { "kind": "retreat", hexes: number, } | { "kind": "retreat_to", hex: string, } | { "kind": "scatter" } | { "kind": "reduce_charge_factor", by: number, } | { "kind": "reset_charge_factor" } | { "kind": "morale", boxes: number, } | { "kind": "morale_if_eliminated", boxes: number, } | { "kind": "morale_in_force", value: number, } | { "kind": "regroup" } | { "kind": "formation", movement: boolean, } | { "kind": "fatigue", by: number, } | { "kind": "fatigue_level", level: number, } | { "kind": "banner", held: boolean, count?: number, } | { "kind": "hits", count: number, } | { "kind": "disorder" } | { "kind": "rout_unit" } | { "kind": "recoil_move", inches: number, } | { "kind": "follow_up" } | { "kind": "recover" } | { "kind": "first_turn_spent" } | { "kind": "shock_recovered" } | { "kind": "reserve", placed: boolean, } | { "kind": "routs_off_table" } | { "kind": "command_points", points: number, } | { "kind": "spend_command", points: number, } | { "kind": "leader_moved_from_contact", inches: number, } | { "kind": "element_fate", fate: string, } | { "kind": "square", formed: boolean, } | { "kind": "must_restack", needed: boolean, } | { "kind": "throwing_weapons_used" } | { "kind": "split_off", units: number, into: number, label: string, } | { "kind": "enters_hex", hex: string, } | { "kind": "battle_clock", start: string, climate: string, season: string, moon_die?: number, weather?: string, } | { "kind": "retreat_at_dusk" } | { "kind": "terrain_chosen", chooser: string, features: Array<TerrainFeature>, };

export type Chooser = "attacker" | "defender";

export type TerrainFeature = { terrain: string, size: string, };

export type Chance = { label: string, 
/**
 * Exact, as n/d.
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

export type RuleSection = { ruleset: string, 
/**
 * The section answered: the first of the citation ("4.5.8" of "4.5.8, 10.4"), or the
 * section holding it when the data has only that ("4.2" for "4.2.9").
 */
section: string, title?: string, text?: string, };

export type PhaseStep = { text: string, rule: string, 
/**
 * The action that resolves this step, if any.
 */
action?: string, };

export type RefereeError = { code: ErrorCode, message: string, 
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

export type ErrorCode = "situation.invalid_json" | "situation.unreadable" | "situation.invalid_field" | "situation.invalid_count" | "situation.value_out_of_range" | "situation.invalid_strength" | "situation.unknown_unit_type" | "situation.unknown_unit_class" | "situation.missing_class" | "situation.missing_strength" | "situation.leader_as_unit" | "situation.no_units" | "situation.invalid_formation" | "situation.invalid_leader_alone" | "situation.invalid_move" | "situation.unknown_terrain" | "situation.unknown_column" | "situation.off_the_track" | "situation.no_shot_left" | "situation.impassable" | "situation.melee_not_allowed" | "situation.zero_fire_strength" | "situation.may_not_fire" | "situation.zero_attack" | "situation.zero_defence" | "situation.invalid_range" | "situation.out_of_range" | "situation.off_table" | "situation.stacking_off_table" | "situation.over_stacked" | "situation.disrupted_attacker" | "situation.invalid_square" | "situation.below_lowest_column" | "situation.terrain_closed" | "situation.missing_movement" | "situation.out_of_movement" | "situation.over_stacking" | "situation.must_stop" | "situation.not_farther" | "situation.off_map" | "situation.not_a_rout_move" | "situation.disrupted_move" | "situation.square_move" | "situation.empty_path" | "situation.no_movement_cost" | "situation.duplicate_label" | "situation.unknown_leader" | "situation.unknown_result" | "situation.unknown_event" | "situation.already_fired" | "situation.not_horse_archers" | "situation.throwing_not_defensive" | "situation.not_a_carrier" | "situation.over_capacity" | "situation.not_a_fire_ship" | "situation.two_sides" | "situation.fleet_stacking" | "situation.invalid_scenario" | "dice.not_rolled" | "situation.invalid_armour" | "situation.invalid_charge_factor" | "situation.invalid_leader_range" | "situation.invalid_turn" | "situation.not_ranged" | "situation.no_target" | "situation.movement_formation" | "situation.not_cavalry" | "situation.no_retreat" | "situation.banner_of_missing" | "situation.unknown_rating" | "situation.unknown_class" | "situation.invalid_quality" | "situation.no_stands" | "situation.too_many_hits" | "situation.no_secondary" | "situation.cannot_fire" | "situation.skirmish_in_melee" | "situation.routed_recoil" | "situation.contact_forbidden" | "situation.unknown_test" | "situation.not_routed" | "situation.invalid_wheel" | "situation.invalid_rating" | "situation.unknown_element" | "situation.unknown_grade" | "situation.invalid_counts_as" | "situation.no_combat_factor" | "situation.support_not_allowed" | "situation.unknown_factor" | "situation.factor_not_applicable" | "situation.too_many_overlaps" | "situation.invalid_contact" | "situation.no_morale_equivalents" | "situation.cannot_shoot" | "situation.invalid_me" | "situation.losses_exceed_command" | "situation.unknown_pip_action" | "situation.unknown_pip_condition" | "situation.unknown_scale" | "situation.unknown_climate" | "situation.invalid_clock" | "situation.unknown_weather" | "situation.unknown_season" | "dice.invalid" | "action.unknown" | "ruleset.unknown" | "ruleset.unknown_system" | "ruleset.syntax" | "preset.syntax" | "preset.invalid" | "preset.unknown_ruleset" | "preset.unknown" | "ruleset.invalid" | "ruleset.is_house_rule" | "house_rule.invalid" | "file.unreadable" | "battle.unknown" | "battle.not_deleted" | "backup.unknown" | "backup.unusable" | "battle.invalid_setup" | "battle.invalid_unit" | "battle.one_unit_per_entry" | "battle.unknown_side" | "battle.unknown_command" | "battle.target_unmapped" | "battle.no_command" | "battle.mixed_sides" | "fight.no_units" | "fight.not_a_combat" | "fight.wrong_ruleset" | "fight.unknown_unit" | "fight.unit_lost" | "fight.not_a_unit" | "fight.not_opened" | "battle.not_a_change_of_these_rules" | "fight.picked_twice" | "fight.mixed_sides" | "fight.same_side" | "fight.not_in_this_fight" | "fight.unknown_bound" | "fight.no_contacts" | "fight.one_each" | "fight.too_many_units" | "fight.disrupted" | "fight.scattered" | "fight.enemy_hex" | "fight.path_hex" | "fight.units_moving" | "battle.choice_needed" | "battle.unit_gone" | "unit.invalid" | "unit.two_generals" | "battle.over_stacking" | "unit.skirmish_stands" | "unit.not_for_reserve" | "battle.command_spent" | "unit.other_system" | "battle.no_outcome" | "battle.nothing_to_undo" | "battle.nothing_to_redo" | "battle.unknown_event" | "battle.once_per_turn" | "battle.once_per_game" | "battle.already_applied" | "battle.not_a_roll" | "battle.invalid_events" | "battle.turn_out_of_range" | "battle.full" | "store.newer_version" | "store.corrupt" | "store.damaged_event" | "store.damaged_roster" | "store.damaged" | "store.not_referee" | "store.is_folder" | "store.disk_full" | "store.busy" | "store.unwritable" | "store.conflict" | "store.failed" | "roster.unknown" | "roster.invalid" | "roster.wrong_ruleset" | "import.invalid" | "import.not_a_battle" | "import.newer_version" | "import.foreign_ruleset" | "import.out_of_range" | "import.damaged" | "preferences.invalid" | "preferences.too_large" | "preferences.unwritable" | "file.too_large" | "dice.enter_by_hand" | "input.unreadable" | "input.invalid_json" | "input.invalid" | "file.unwritable" | "name.invalid" | "output.unwritable" | "odds.engine" | "app.failed" | "app.no_backend" | "settings.unsaved" | "event.invalid" | "event.unknown" | "event.duplicate_player" | "event.unknown_player" | "event.round_paired" | "event.results_missing" | "event.round_started" | "event.not_in_round" | "event.result_in" | "event.imported_twice" | "event.wrong_players" | "event.wrong_system" | "event.no_verdict";

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

export type NewBattle = { name: string, ruleset: string, sides: Array<SideSetup>, 
/**
 * Units to begin with (a preset's), added in the same transaction as the battle: all of
 * them, or no battle.
 */
units?: Array<UnitSpec>, 
/**
 * The sides the units were written for, when they come from a preset whose sides the
 * umpire renamed before beginning: each unit joins the side (and command) in the same place.
 */
preset_sides?: Array<SideSetup>, };

export type SideSetup = { name: string, 
/**
 * Commands or wings, by name.
 */
commands?: Array<string>, 
/**
 * ITACS: the scenario's panic level for this army (5.4).
 */
panic_level?: number, 
/**
 * ITACS: the scenario's stacking limit for this side (4.3.3, 8.0).
 */
stacking_limit?: number, };

export type UnitSpec = { label: string, side: string, command?: string, role?: Role, 
/**
 * The unit exactly as the ruleset's actions take it (an ITACS unit entry, a Medieval unit,
 * a GTS unit entry, a DBMM element), so a resolution can be built from the roster.
 */
stats: unknown, };

export type Role = "unit" | "leader" | "general" | "baggage";

export type UnitForm = { ruleset: string, fields: Array<UnitField>, 
/**
 * What a leader's row asks (none where the system keeps a leader's notes as entered).
 */
leader_fields: Array<UnitField>, 
/**
 * The field that says where a unit stands, where the system places units (ITACS `hex`):
 * units of one side with the same value are one stack, and moving a unit is changing it.
 */
place_field: string | null, };

export type UnitField = { key: string, label: string, rule: string, kind: "choice" | "number" | "toggle" | "text" | "unit", required: boolean, default?: unknown, min?: number, max?: number, help?: string, options: Array<UnitOption>, 
/**
 * Asked of one unit only (the leader attached to it): the form clears it once a unit is
 * added, where it keeps the others for the next unit of the kind.
 */
once?: boolean, 
/**
 * Asked of a general's own row only (his tag, where he is entered with his guard): the
 * form leaves it out for any other unit.
 */
general_only?: boolean, };

export type UnitOption = { key: string, label: string, 
/**
 * What a unit of this option is called when the umpire names it not ("Heavy cavalry" for
 * Medieval's `heavy_cavalry`); absent, its key ("LB").
 */
unit_label?: string, 
/**
 * Stats keys this option already supplies, so the form does not ask them.
 */
fills: Array<string>, printed: Array<PrintedValue>, };

export type PrintedValue = { label: string, value: string, rule: string, };

export type UnitPreview = { summary: string, values: Array<PrintedValue>, };

export type ApplyRequest = { action: string, situation: unknown, dice: DiceEntry, mapping?: Mapping, rolled_by?: string, 
/**
 * The client's key for the resolution it shows (one per shown result): a second apply with a
 * key an applied result in force already carries is refused (`battle.already_applied`)
 * before anything is written; once that result is undone, the key applies again.
 */
apply_key?: string, };

export type DiceEntry = { "kind": "none" } | { "kind": "physical" } & PhysicalDice | { "kind": "app" } & AppDice;

export type PhysicalDice = { faces: Array<number>, };

export type AppDice = { seed?: number, };

export type Mapping = { 
/**
 * Effect target (attacker, defender, hex:<label>, unit:<label>) → unit ids. An
 * empty list says the target is not on the roster and its effects are skipped.
 */
targets: { [key in string]: Array<number> }, 
/**
 * Effect index (as a string) → the units that take each loss, one id per unit or SP lost.
 */
choices: { [key in string]: Array<number> }, 
/**
 * A move of one entry: how many of its units move, the others staying where they are (the
 * ones moving become an entry of their own). None: all of them.
 */
units_moving?: number, };

export type AdjustRequest = { subject: Subject, change: Change, reason?: string, };

export type OutlookRequest = { action: string, situation: unknown, 
/**
 * The dice thrown, if any: the outlook is then this roll's (each chance certain or nil).
 */
dice?: Array<number>, mapping?: Mapping, };

export type FightRequest = { action: string, attackers: Array<number>, defenders: Array<number>, 
/**
 * The side whose bound it is (DBMM); none: the attackers'.
 */
bound_of?: string, 
/**
 * Friends directly behind the element fighting in front, of either side (DBMM).
 */
behind?: Array<number>, 
/**
 * Friends in front-edge contact with the enemy front element's flank or rear (DBMM).
 */
on_enemy_flank?: Array<number>, 
/**
 * A move's hexes entered, in order, as the map numbers them (an ITACS rout move): the one
 * unit picked as `attackers` moves, each hex read from the roster.
 */
path?: Array<string>, 
/**
 * A move of one entry: how many of its units move, the others staying (the ones moving
 * then become an entry of their own as the move is applied). None: all of them.
 */
units_moving?: number, };

export type Fight = { action: string, 
/**
 * The action's situation, with the picked units in their current state.
 */
situation: unknown, 
/**
 * Effect target (attacker, defender, hex:<label>, unit:<label>) → the picked units it is:
 * the mapping that applies the result.
 */
targets: { [key in string]: Array<number> }, 
/**
 * What the umpire still has to set, in the rules' words.
 */
asks: Array<string>, 
/**
 * The fight's own values for fields of its situation, naming the picked units (which unit
 * gives a side's modifiers).
 */
choices?: Array<ChoiceList>, 
/**
 * The fight's own words for fields of its situation ("Persian cavalry charged"), by field.
 */
labels?: { [key in string]: string }, 
/**
 * Lists of the situation picked place by place from the roster, in order (a Medieval
 * side's retreat route, hex by hex, with what stands on each hex filled in).
 */
places?: Array<PlaceList>, };

export type Subject = { "unit": number } | { "side": string };

export type BattleView = { id: number, state: BattleState, standing: Standing, 
/**
 * Events in the battle; `log` holds the latest of them (see `LOG_TAIL`).
 */
events: number, log: Array<LogEntry>, 
/**
 * The event an undo takes back, and the one a redo puts back.
 */
undo?: number, redo?: number, 
/**
 * The battle began under other ruleset or house-rule files than those in force now.
 */
ruleset_changed?: string, 
/**
 * When the rules changed: the house rules of this ruleset that, put in force, give the rules
 * the battle began under (if the files offered can).
 */
began_under?: HouseRuleChoice, 
/**
 * The resolution just applied, when this view answers an `apply`.
 */
applied?: Resolution, };

export type BattleState = { name: string, ruleset: string, fingerprint: string, sides: Array<SideState>, units: { [key in number]: UnitState }, turn: number, phase?: string, 
/**
 * Medieval MORALE counter, positive in the first side's favour: results move it as they
 * land (6.1.4–6.1.7).
 */
morale_track: number, 
/**
 * Medieval MORALE value in force, positive in the first side's favour: the counter as it
 * stood when phase 9 last set it (6.1.9); combats take their CMs from it.
 */
morale_in_force: number, 
/**
 * Changes a replay could not make (their unit was already gone after an edited roll).
 */
conflicts: Array<string>, };

export type SideState = { name: string, commands: Array<string>, panic_level?: number, stacking_limit?: number, 
/**
 * Victory points a result awarded directly (losses are counted from the roster).
 */
points_awarded: number, 
/**
 * The army panicked (ITACS 5.4).
 */
panicked: boolean, };

export type UnitState = { id: number, label: string, side: string, command?: string, role: Role, 
/**
 * Units in the stack (ITACS), SPs (Medieval), stands (GTS) or 1 (a DBMM element) now, and
 * at the start.
 */
strength: number, starting: number, lost: boolean, 
/**
 * What befell the leader of this row, or the leader riding with the unit.
 */
leader?: LeaderFate, 
/**
 * GTS Table 1.10, 3: the leader's wounds, each one grade less effective and PV +1.
 */
leader_wounds?: number, 
/**
 * A captured leader's captors: the units that attacked the stack whose elimination captured
 * him (ITACS 6.1.4); their own elimination frees him.
 */
held_by?: Array<number>, 
/**
 * Moves the results called for (retreats, recoils, rampages): the map is the players'.
 */
moves: Array<string>, 
/**
 * The unit in its system's own terms: `entry`, the unit as the umpire would enter it again
 * (the unit editor and a copy start from it), and `state`, what the system keeps of it.
 */
detail: { entry: unknown, state: unknown }, 
/**
 * "Swordsmen (SD)", "Infantry, Spear, Heavy", "Irr Bd, Superior".
 */
type_name: string, 
/**
 * "2/4, 1 D, Break"; "destroyed"; "in the line".
 */
summary: string, quick_edits: Array<QuickEdit>, 
/**
 * Where the unit stands, in words ("Hex 17.03"), for systems played on a map of numbered
 * hexes: the roster groups the units of one place of a side, and a fight takes them
 * together (an ITACS stack, 2.4).
 */
place?: string, 
/**
 * The move its markers call for, in the rules' words ("Rout move"): its row opens its
 * system's move (`moves`) on it, along the places the umpire names. None where none is due.
 */
opens_move?: string, };

export type UnitWords = { 
/**
 * "Swordsmen (SD)", "Infantry, Spear, Heavy", "Irr Bd, Superior".
 */
type_name: string, 
/**
 * "2/4, 1 D, Break"; "destroyed"; "in the line".
 */
summary: string, quick_edits: Array<QuickEdit>, 
/**
 * Where the unit stands, in words ("Hex 17.03"), for systems played on a map of numbered
 * hexes: the roster groups the units of one place of a side, and a fight takes them
 * together (an ITACS stack, 2.4).
 */
place?: string, 
/**
 * The move its markers call for, in the rules' words ("Rout move"): its row opens its
 * system's move (`moves`) on it, along the places the umpire names. None where none is due.
 */
opens_move?: string, };

export type QuickEdit = { label: string, change: Change, 
/**
 * The test that decides the change, opened on the unit instead of making it (the action's
 * id, marked `for_a_unit`): a GTS rally is a response test (3.33).
 */
opens?: string, };

export type LeaderFate = "captured" | "killed" | "dazed" | "unhorsed" | "seriously_wounded" | "passed_out";

export type Standing = { gauges: Array<Gauge>, resolutions: Array<Resolution>, };

export type Gauge = { 
/**
 * The side it belongs to; none for a battle-wide figure (the MORALE track).
 */
side?: string, 
/**
 * What is measured: "Army", a command's name, "Panic level", "Army break point".
 */
label: string, 
/**
 * Where it stands, in the rules' word: "steady", "disheartened", "broken", "shattered",
 * "panicked", "defeated", "broken" (GTS army).
 */
status?: string, 
/**
 * The figure as a phrase: "lost 2 of 6 ME", "enemy has 7 of 10 points".
 */
value: string, 
/**
 * The threshold itself, for a tooltip: "more than 1/4 lost", "10 points".
 */
threshold?: string, 
/**
 * How far to the threshold, saying which: "½ ME to shattered", "3 points to panic".
 */
to_go?: string, 
/**
 * What passing the threshold makes of it, for the outlook: "shattered", "defeated".
 */
next?: string, 
/**
 * Share of the way to the threshold, 0–1, for a bar (display only).
 */
progress?: number, 
/**
 * The figure as a number, in the unit of `value` (ME lost, points, units lost, SPs lost,
 * MORALE track boxes), for charts over the turns; none for a setting (a stacking limit).
 */
amount?: number, 
/**
 * The threshold as a number in the same unit, where there is one.
 */
limit?: number, reached: boolean, rule: string, ruling?: string, 
/**
 * What the rules make of the side now the threshold is reached, one tap away: a change of
 * the side ("Rome panics: every unit routs", 5.4).
 */
offer?: QuickEdit, };

export type LogEntry = { seq: number, at: string, kind: string, 
/**
 * The line in words; a table's code is apart, in `tag`.
 */
text: string, 
/**
 * The table's code of the result the line names ("-1/D2"), shown as a small tag beside it.
 */
tag?: string, 
/**
 * Taken back by an undo.
 */
undone: boolean, 
/**
 * Its roll was edited later.
 */
edited: boolean, 
/**
 * The concrete changes it made, in words.
 */
changes: Array<string>, 
/**
 * The turn it happened in (a turn change: the turn it began).
 */
turn: number, 
/**
 * In force and a change undo can take back (not a turn change, nor an undo or redo).
 */
undoable: boolean, };

export type RollEditPreview = { result: string, differences: Array<Difference>, };

export type SharedDocument = "report" | "log";

export type Difference = { what: string, before: string, after: string, };

export type BattleRow = { id: number, name: string, ruleset: string, fingerprint: string, created_at: string, 
/**
 * The time of the latest event.
 */
updated_at: string, events: number, };

export type DeletedBattle = { battle: BattleRow, 
/**
 * When it was deleted (RFC 3339, UTC).
 */
deleted_at: string, 
/**
 * After this it is gone for good (RFC 3339, UTC).
 */
kept_until: string, };

export type BackupInfo = { 
/**
 * What a restore names it by (never shown: the window shows its time and reason).
 */
id: string, 
/**
 * When it was taken (RFC 3339, UTC).
 */
taken_at: string, reason: BackupReason, 
/**
 * How many battles it holds, when it can be read.
 */
battles: number | null, bytes: number, };

export type BackupReason = "daily" | "before_schema" | "before_restore" | "on_demand";

export type Backups = { backups: Array<BackupInfo>, problem: RefereeError | null, };

export type RosterRow = { id: number, name: string, ruleset: string, units: number, saved_at: string, };

export type Roster = { name: string, ruleset: string, units: Array<UnitSpec>, };

export type NewEvent = { name: string, 
/**
 * The rulesets its battles are played under: one (`["dbmm"]`), or several for a
 * participation day (`["gts", "itacs"]`). A single id is read as a list of one.
 */
rulesets: Array<string>, 
/**
 * The scoring settings' id (`dbmm-25`), one of `event_scorings`, suiting every ruleset.
 */
scoring: string, pairing: PairingMethod, first_round: FirstRound, 
/**
 * Rounds planned, 1 to 20.
 */
rounds: number, };

export type EventRow = { id: number, name: string, rulesets: Array<string>, 
/**
 * The rule systems' names as the app shows them, joined ("GTS and ITACS").
 */
ruleset_name: string, players: number, rounds_paired: number, 
/**
 * When it was created (RFC 3339, UTC).
 */
created_at: string, };

export type EventView = { id: number, tournament: Tournament, standings: Array<StandingRow>, scoring: Scoring, 
/**
 * The rule systems' names as the app shows them, joined ("GTS and ITACS").
 */
ruleset_name: string, 
/**
 * The round pairing would pair next.
 */
next_round: number, 
/**
 * The rounds the event will have: the setup's for Swiss, one fewer than its players for a
 * round robin (as many as its players for an odd count).
 */
rounds_planned: number, can_pair: boolean, 
/**
 * Why the next round cannot be paired yet, in a sentence.
 */
why_not_pair?: string, 
/**
 * Why no player can be added now (a round robin once its round 1 is paired), in a sentence.
 */
why_no_player_joins?: string, 
/**
 * What Undo would take back, in words ("Undo: round 2 paired").
 */
undo?: string, 
/**
 * What Redo would put back, in words.
 */
redo?: string, };

export type HandResult = { 
/**
 * The winner's name; none for a draw.
 */
winner?: string, 
/**
 * The first player's (the pairing's a) victory points, where the system counts them.
 */
victory_points_a?: number, 
/**
 * The second player's (the pairing's b) victory points.
 */
victory_points_b?: number, 
/**
 * Anything the umpire wants kept with the result.
 */
note?: string, 
/**
 * The rule system the table played, at an event of several when its game names none yet.
 */
ruleset?: string, };

export type EventDocument = "report" | "csv";

export type Tournament = { setup: TournamentSetup, players: Array<Player>, rounds: Array<Round>, };

export type TournamentSetup = { name: string, 
/**
 * The rule systems its battles are played under (ruleset ids: `dbmm`; `gts` and `itacs`
 * for a participation day). Stored events of one system said it as `ruleset`.
 */
rulesets: Array<string>, 
/**
 * The scoring settings' id (a file of rulesets/events/).
 */
scoring: string, pairing: PairingMethod, first_round: FirstRound, 
/**
 * How many rounds are planned (a round robin has as many as it needs).
 */
rounds: number, };

export type PairingMethod = "swiss" | "round_robin";

export type FirstRound = "random" | "seeded";

export type Player = { name: string, army: string, 
/**
 * Withdrawn from the event: kept in the standings, no longer paired.
 */
withdrawn?: boolean, };

export type Pairing = { table: number, a: string, b: string, };

export type Round = { number: number, games: Array<Game>, bye?: string, };

export type Game = { pairing: Pairing, battle?: number, 
/**
 * The rule system its battle is played under, once begun or its file imported.
 */
ruleset?: string, result?: GameResult, };

export type GameResult = { source: ResultSource, 
/**
 * The two players' results, in the pairing's order (a, then b).
 */
players: Array<PlayerResult>, 
/**
 * The verdict as the battle gives it ("Anna wins 18–7 on victory points (…)"), or as the
 * umpire entered it.
 */
words: string, 
/**
 * The rule section the verdict rests on (empty for a result entered by hand).
 */
rule: string, 
/**
 * The rule system the game was played under (none in results stored before an event could
 * name several).
 */
ruleset?: string, };

export type PlayerResult = { player: string, outcome: GameOutcome, 
/**
 * The battle's victory points for this player (DBMM's share of 25, ITACS's points, GTS's
 * enemy units lost), where the system counts them.
 */
victory_points?: number, };

export type ResultSource = { "kind": "battle", battle: number, } | { "kind": "file", head: string, } | { "kind": "hand" };

export type GameOutcome = "win" | "draw" | "loss";

export type StandingRow = { 
/**
 * 1 for the top; players tied on every tie-break share a rank.
 */
rank: number, 
/**
 * The rank is shared with another player.
 */
shared: boolean, player: string, army: string, played: number, wins: number, draws: number, losses: number, byes: number, points: number, victory_points: number, strength_of_schedule: number, };

export type Scoring = { 
/**
 * The file stem (`dbmm-25`); filled in from the file's name.
 */
id: string, name: string, 
/**
 * One plain sentence for the create form.
 */
description: string, 
/**
 * The rule systems these settings suit (ruleset ids); empty for any.
 */
rulesets: Array<string>, 
/**
 * Where the settings come from (the rules' page, or the club's own).
 */
rule: string, win: number, draw: number, loss: number, 
/**
 * The battle's victory points are the event points (DBMM's 25 split as the sheets give
 * it); win, draw and loss then add nothing unless set.
 */
victory_points_are_points: boolean, 
/**
 * The event points and victory points a bye is worth.
 */
bye_points: number, bye_victory_points: number, tie_breaks: Array<TieBreak>, 
/**
 * Shipped with the app, or a club's file.
 */
builtin: boolean, };

export type TieBreak = "victory_points" | "strength_of_schedule" | "head_to_head";

export type ItacsFireSituation = { firing_hexes: Array<FiringHex>, target: TargetHex, 
/**
 * Horse archers firing after movement (6.2): only when horse archers fire after moving.
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
 * A name for the hex, e.g. its map number 22.19.
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
leader?: boolean, 
/**
 * Terrain key of the firing hex: hills add 1 to the fire range (4.2.3).
 */
terrain?: string, 
/**
 * The hex has D markers: its units may not fire (5.1, 9.0).
 */
disrupted?: boolean, units: Array<ItacsUnit>, };

export type TargetHex = { 
/**
 * Terrain key from the ruleset's terrain chart, e.g. clear, mud.
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
square?: boolean, 
/**
 * A scarp hexside lies between this hex and the defenders: melee is not allowed (3.2.1).
 */
across_scarp?: boolean, units: Array<ItacsUnit>, };

export type DefendingHex = { label?: string, terrain: string, stream?: boolean, road?: boolean, square?: boolean, 
/**
 * D markers already on the hex, for the chained forecast (5.1).
 */
d_markers?: number, 
/**
 * The hex already has a Rout marker.
 */
rout?: boolean, 
/**
 * The defending units stand on a ladder or siege tower against a wall (3.1.4).
 */
on_ladder_or_tower?: boolean, units: Array<ItacsUnit>, 
/**
 * The leaders stacked in the hex, by name: a result that eliminates the defending units
 * captures them (6.1.4).
 */
leaders?: Array<string>, };

export type ItacsUnit = { 
/**
 * Unit type code, e.g. SD, LB.
 */
type?: string, 
/**
 * Unit class: A, B, C, D, Ff, Mf.
 */
class?: string, 
/**
 * Printed combat strength: a number (4 or "4"), a dot or a number in brackets.
 */
combat?: PrintedStrength, 
/**
 * Printed fire strength.
 */
fire?: number, 
/**
 * Printed fire range in hexes (the range allowance, 4.2, 6.2).
 */
fire_range?: number, 
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

export type PrintedStrength = number | string;

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
 * A combat result code applied to the hex first, e.g. DD or D1X (10.7).
 */
result?: string, 
/**
 * Which side of that combat the hex was on (default the defender).
 */
side?: CombatSide, 
/**
 * The changes, in order, e.g. two results' D markers.
 */
changes?: Array<Change>, };

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
 * The D markers on the hex it starts in (5.1): they move with the stack (R-ITACS-40). A
 * disrupted stack given none carries one.
 */
d_markers?: number, 
/**
 * The hex it starts in has a Rout marker (5.3), which moves with the stack (R-ITACS-40); a
 * rout move carries one anyway.
 */
routed?: boolean, 
/**
 * The hex it starts in, with its terrain (10.3).
 */
start?: ItacsStartHex, 
/**
 * The units are a square (2.6.1).
 */
square?: boolean, 
/**
 * A fire ship moves at half its allowance (6.7.6).
 */
fire_ship?: boolean, 
/**
 * A feudal cavalry charge (6.3): HC may then enter trench hexes (10.3).
 */
charging?: boolean, 
/**
 * The scenario's stacking limit for this side (default 3, 4.3.3).
 */
stacking_limit?: number, path: Array<ItacsPathStep>, 
/**
 * Hexes from the starting hex to the nearest enemy unit (5.3.1), for a rout move.
 */
enemy_distance?: number, 
/**
 * A rout move with no hex farther from the nearest enemy: the unit stops and takes one D
 * marker (5.3.1); the path is then empty.
 */
nowhere_farther?: boolean, 
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
rout?: boolean, 
/**
 * An elephant stands in the hex: no other unit may stack with it (6.9.3).
 */
elephant?: boolean, 
/**
 * The hex is entered across a scarp hexside: not allowed (3.2.1).
 */
across_scarp?: boolean, 
/**
 * Hexes from this one to the nearest enemy unit: a rout move enters only hexes farther
 * than the one it leaves (5.3.1).
 */
enemy_distance?: number, 
/**
 * The hex is next to the map edge: a routing unit that reaches it with movement points
 * left leaves the map, destroyed (5.3.3).
 */
map_edge?: boolean, };

export type ItacsStartHex = { label?: string, 
/**
 * Its terrain: a tower hex is left only into an adjacent wall hex (10.3).
 */
terrain: string, };

export type MoveKind = "normal" | "rout" | "break";

export type ItacsWithdrawSituation = { defenders: Array<ItacsUnit>, attackers: Array<ItacsUnit>, };

export type ItacsBreakSituation = { 
/**
 * The units left in the hex after the result (the survivors), with their movement points.
 */
units: Array<ItacsUnit>, side?: CombatSide, 
/**
 * The combat result they suffered, e.g. D2XB (10.7).
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
formation_broke?: boolean, 
/**
 * The attackers' result fell on a single defending unit: a D2XB then leaves them
 * undisrupted (10.7, R-ITACS-7, R-ITACS-36).
 */
lone_defender?: boolean, };

export type CombatSide = "attacker" | "defender";

export type ItacsLeaderFateSituation = { 
/**
 * The event (6.1.4).
 */
event: string, 
/**
 * The leader, e.g. 2L Harold.
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
land_with_room?: boolean, 
/**
 * The cargo is loaded or unloaded this movement phase (6.7.2), or mounts the chariot (6.8).
 */
loading?: boolean, };

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
lost?: Array<ItacsUnit>, 
/**
 * Victory points the scenario awards this side besides the enemy's losses (8.0), e.g. for
 * a hex held or a leader captured.
 */
awarded?: number, };

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

export type MedievalUnit = { 
/**
 * The unit's type (UNIT TYPES chart).
 */
type: string, 
/**
 * Strength points now (1.2); a ranged unit on its movement side may be entered with the
 * SP 0 its counter shows there, or with its combat side's SPs, which count for stacking
 * (10.1.1).
 */
sp: number, 
/**
 * Armour level from the counter's shields, 0–2 (default: the type's).
 */
armour?: number, 
/**
 * Current charge factor, 0–3 (5.6); infantry have 0.
 */
cf?: number, 
/**
 * Identical units.
 */
count?: number, 
/**
 * A ranged unit in movement formation (10.1.1); default: combat formation.
 */
movement_formation?: boolean, };

export type MedievalCombatSituation = { attackers: Array<MedievalAttackingHex>, defenders: Array<MedievalDefendingHex>, attacker?: MedievalSide, defender?: MedievalSide, 
/**
 * The MORALE value in force: positive in player A's favour, negative in player B's (6.1.2,
 * 6.1.9), as everywhere.
 */
morale?: number, 
/**
 * Whose the attackers are, player A's or B's (default A): the MORALE counts for them when
 * it is in their favour.
 */
attacker_player?: MedievalPlayer, 
/**
 * Attacks come from opposing directions (5.2.6).
 */
opposing_directions?: boolean, 
/**
 * A countercharge combat: unarmoured units, on either side, get nothing from their CF
 * (5.7.9, R-MED-38).
 */
countercharge?: boolean, 
/**
 * The final column (e.g. "4:1"), when the umpire has counted it: the COMBAT TABLE is read
 * there directly (1.4, 1.5).
 */
column?: string, 
/**
 * The defender is a leader alone on his hex (8.2.9): one defending hex, with no units.
 */
leader_alone?: boolean, };

export type MedievalAttackingHex = { label?: string, units: Array<MedievalUnit>, 
/**
 * A leader is stacked on this hex: 2 CMs (8.2.1); its units do not scatter (9.1.3) and he
 * rolls for his life if they retreat (8.2.4). Other hexes of the side may scatter.
 */
leader?: boolean, 
/**
 * The stacked leader's name, as the roster has him: his death roll is named by him and its
 * result lands on him (8.2.4–8.2.6, R-MED-40).
 */
leader_name?: string, 
/**
 * The stacked leader is a grand leader (8.1.5, 6.1.7).
 */
grand_leader?: boolean, 
/**
 * The hex is in the defender's rear area (3.1.2).
 */
rear?: boolean, 
/**
 * Across a stream: CF −1 (5.6.8).
 */
stream?: boolean, 
/**
 * Across a bridge: CF −1 (5.6.7).
 */
bridge?: boolean, 
/**
 * Across a ford: CF 0, as in the countercharge example (4.2.5, 5.7.6, R-MED-27).
 */
ford?: boolean, 
/**
 * Hexes moved uphill: CF −1 each (5.6.9).
 */
uphill?: number, 
/**
 * Attacking through fortifications: SPs halved, no CF (11.1.1, 11.1.2). Implied when a
 * defending hex is fortified and this one is not.
 */
through_fortifications?: boolean, 
/**
 * The attacking hex's own terrain, a key of the TERRAIN EFFECT chart (default: clear). A
 * fortified hex holds up to 10 SPs and fights with at most 4 (11.1.8, 11.1.9).
 */
terrain?: string, 
/**
 * This hex's own retreat route when its side fights from several hexes, in order from the
 * hex, as its hexes stand: its units retreat by it as a stack of their own and end on its
 * last hex reached (5.4, 4.5.2, R-MED-50). Without it, the side's route.
 */
retreat_hexes?: Array<MedievalRetreatHex>, };

export type MedievalDefendingHex = { label?: string, 
/**
 * A key of the TERRAIN EFFECT chart.
 */
terrain: string, 
/**
 * A leader is stacked on this hex (8.2.1, 9.1.3, 8.2.4), as for an attacking hex.
 */
leader?: boolean, 
/**
 * The stacked leader's name, as for an attacking hex.
 */
leader_name?: string, 
/**
 * The stacked leader is a grand leader, as for an attacking hex.
 */
grand_leader?: boolean, 
/**
 * The units on the hex; none when a leader stands there alone (8.2.9).
 */
units?: Array<MedievalUnit>, 
/**
 * This hex's own retreat route when its side fights from several hexes, in order from the
 * hex, as its hexes stand: its units retreat by it as a stack of their own and end on its
 * last hex reached (5.4, 4.5.2, R-MED-50). Without it, the side's route.
 */
retreat_hexes?: Array<MedievalRetreatHex>, };

export type MedievalSide = { leader?: MedievalLeader, 
/**
 * Instead of leader: hexes to the nearest leader of the units (0 = stacked)…
 */
leader_distance?: number, 
/**
 * …and his command range, 2 or 3 (8.1).
 */
leader_range?: number, 
/**
 * On or adjacent to a friendly banner (7.1.7).
 */
banner?: boolean, 
/**
 * The side's Scattered Units track is full: a scattered unit is eliminated (9.1.4).
 */
scatter_track_full?: boolean, 
/**
 * Hexes the side could retreat, as the umpire already counted them (5.4.5, 5.4.6): it
 * stands for the referee's reading of the retreat hexes, and the resolution says so.
 */
retreat_possible?: number, 
/**
 * The hexes of the side's retreat route in order from the combat hex, as they stand; the
 * hexes beyond the last one described are open. The referee decides how far the retreat
 * goes (5.4.5, 4.5.2) and which friendly units its cavalry rides down (5.4.4).
 */
retreat_hexes?: Array<MedievalRetreatHex>, 
/**
 * The side's combat modifiers as the umpire counted them: they stand for the referee's
 * count (1.5).
 */
cms?: number, };

export type MedievalRetreatHex = { 
/**
 * The hex's name; a ride-down there is an effect on this hex (default: "the defender's
 * retreat hex 1" and so on).
 */
label?: string, 
/**
 * A key of the TERRAIN EFFECT chart (default: clear): fortifications hold 10 SPs, and
 * infantry in fortifications or a village cannot be ridden down (4.5.1, 11.1.8, 5.8.8).
 */
terrain?: string, 
/**
 * Enemy units or an enemy ZoC: the retreat cannot enter it (5.4.5).
 */
enemy?: boolean, 
/**
 * Terrain the retreating units cannot enter (5.4.5).
 */
impassable?: boolean, 
/**
 * The side's own units standing there.
 */
friendly?: Array<MedievalUnit>, 
/**
 * Those units are in a special formation, e.g. a shiltron (5.8.8).
 */
special_formation?: boolean, };

export type MedievalLeader = "none" | "in_range" | "stacked";

export type MedievalFireSituation = { 
/**
 * The shooting unit (archers, crossbowmen, horse archers, bombards).
 */
shooter: MedievalUnit, 
/**
 * Hexes to the target.
 */
range: number, 
/**
 * The target hex's units and terrain; leave out for bombards firing at an object.
 */
target?: MedievalFireTarget, 
/**
 * The target stands in a friendly unit's ZoC (10.2.1).
 */
in_friendly_zoc?: boolean, 
/**
 * The friendly-fire d6 when it was rolled (10.2.1): at 1 the friend is hit and the table
 * is not rolled.
 */
friendly_fire_roll?: number, 
/**
 * A leader is in the target hex (10.2.4).
 */
leader_in_target_hex?: boolean, 
/**
 * The phase it shoots in: the enemy's movement phase (any ranged unit, 10.1.5) or, for horse
 * archers only, their own (10.5.6).
 */
phase?: MedievalFirePhase, 
/**
 * Shots the unit has already fired this turn, and whether one of them was in this phase:
 * once a turn, horse archers twice, once in each movement phase (10.1.6, 10.5.6, 10.5.7).
 */
shots_this_turn?: number, shot_this_phase?: boolean, 
/**
 * The enemy shoots back at the same moment: both use their strength before the exchange,
 * losses set after both have shot (10.2.6).
 */
concurrent?: boolean, };

export type MedievalFireTarget = { 
/**
 * The target hex's name: its units' labels from the roster (default: their types).
 */
label?: string, terrain: string, units: Array<MedievalUnit>, };

export type MedievalFirePhase = "enemy_movement" | "own_movement";

export type MedievalPursuitSituation = { 
/**
 * Hexes from the unit to its leader; 0 when he is on the attacker's hex.
 */
hexes_from_leader: number, 
/**
 * The side's MORALE value: at +2 or more the roll is 3 lower (5.5.10, R-MED-20).
 */
morale?: number, 
/**
 * The pursuing unit, to check the hexes of its pursuit (4.5.2, 5.5.9).
 */
pursuer?: MedievalUnit, 
/**
 * The hexes it would pursue into, in order.
 */
path?: Array<MedievalPursuitHex>, 
/**
 * If the pursuit is voluntary, the player keeps the unit where it is (5.5.4): nothing
 * moves and nothing is ridden down.
 */
stays?: boolean, };

export type MedievalPursuitHex = { 
/**
 * The hex's name; a ride-down there is an effect on this hex (default: "pursuit hex 1" and
 * so on).
 */
label?: string, 
/**
 * A key of the TERRAIN EFFECT chart (default: clear).
 */
terrain?: string, 
/**
 * SPs of friendly units there whose types are not given: they count for stacking (4.5.2).
 */
friendly_sp?: number, 
/**
 * Friendly units there: they count for stacking, and pursuing cavalry may ride their
 * non-cavalry down to enter the hex (4.5.2, 5.8.7, R-MED-33).
 */
friendly?: Array<MedievalUnit>, 
/**
 * Enemy units there, to be ridden down (5.5.9).
 */
enemy?: Array<MedievalUnit>, 
/**
 * The units there are in a special formation, e.g. a shiltron (5.8.8).
 */
special_formation?: boolean, 
/**
 * Hexes climbed to enter it (5.6.9).
 */
uphill?: number, };

export type MedievalLeaderDeathSituation = { 
/**
 * Hexes the result orders the stack to retreat.
 */
retreat: number, 
/**
 * SPs the stack lost to the enemy, including for hexes it could not retreat (5.4.6).
 */
sp_lost?: number, 
/**
 * A grand leader (range 3): his death costs every unit 1 SP and 12 MORALE boxes.
 */
grand_leader?: boolean, };

export type MedievalRideDownSituation = { cavalry: MedievalUnit, 
/**
 * Hexes moved uphill to get there: CF −1 each (5.6.9).
 */
uphill?: number, 
/**
 * The ridden-down hex: its terrain and units.
 */
terrain: string, units: Array<MedievalUnit>, 
/**
 * The units are in a special formation (e.g. a shiltron) (5.8.8).
 */
special_formation?: boolean, when?: MedievalRideDownWhen, };

export type MedievalRideDownWhen = "movement" | "pursuit" | "retreat";

export type MedievalCounterchargeSituation = { unit: MedievalUnit, 
/**
 * It turns 60° before moving (5.7.2 a): its CF drops to 0 first.
 */
turns?: boolean, 
/**
 * The hex it moves into is across a ford or stream: CF to 0 / −1.
 */
through_ford?: boolean, 
/**
 * The moving enemy is adjacent to its front area (5.7.1).
 */
enemy_adjacent_to_front: boolean, 
/**
 * It is in the ZoC of enemy cavalry (5.7.8).
 */
in_enemy_cavalry_zoc?: boolean, 
/**
 * It already countercharged in this enemy movement phase (5.7.7).
 */
already_countercharged?: boolean, 
/**
 * The moving enemy is adjacent to another friendly unit (5.7.10).
 */
enemy_adjacent_to_other_friendly?: boolean, };

export type MedievalTurnSituation = { unit: MedievalUnit, 
/**
 * Hexsides turned: 1 = 60°, 2 = 120°, 3 = 180°.
 */
hexsides: number, 
/**
 * Turning in an enemy ZoC (4.3.4).
 */
in_enemy_zoc?: boolean, 
/**
 * The terrain it turns in: its movement cost is added (4.3.6).
 */
terrain?: string, 
/**
 * Moving along a road: turns cost nothing (4.3.8, 4.3.9).
 */
on_road?: boolean, };

export type MedievalMoveSituation = { 
/**
 * The moving unit; leave out when a leader moves on his own.
 */
unit?: MedievalUnit, 
/**
 * A leader moving: 10 MPs, terrain as for cavalry, no charge factor, enemy ZoCs ignored, no
 * stacking limit (8.1.1–8.1.3).
 */
leader?: boolean, 
/**
 * Its movement points this phase (a leader's: 10 unless given, 8.1.2).
 */
movement?: number, path: Array<MedievalPathStep>, 
/**
 * After the last hex it crosses the map border: 1 MP (4.4.2).
 */
leave_map?: boolean, };

export type MedievalPathStep = { label?: string, terrain: string, 
/**
 * Along a road (½ MP infantry, ⅓ MP cavalry; 4.2.8).
 */
road?: boolean, 
/**
 * Entering it is moving uphill: CF −1 (5.6.9).
 */
uphill?: boolean, 
/**
 * Crossing a stream (CF −1, 5.6.8) or a bridge (CF −1, 5.6.7).
 */
stream?: boolean, bridge?: boolean, 
/**
 * SPs of friendly units already there (4.2.3, 4.5.1).
 */
friendly_sp?: number, 
/**
 * The highest CF of the enemies whose ZoC covers the hex (3.3).
 */
enemy_zoc_cf?: number, 
/**
 * Hexsides turned before entering it: the turn's cost, and CF back to 0 (4.3, 5.6.3).
 */
turn_before?: number, 
/**
 * Pay to keep the CF from rising (1 MP, ½ on a road: 5.6.12, 4.2.9).
 */
hold_cf?: boolean, 
/**
 * Pay 2 MPs to lower the CF by 1 instead of raising it (5.6.13, R-MED-26).
 */
lower_cf?: boolean, 
/**
 * Crossing a river by a ford (4.2.5): charging into it costs an SP and a scatter (4.2.6),
 * and the CF ends at 0 (5.7.6, R-MED-27).
 */
ford?: boolean, 
/**
 * Into a fortified hex through its gate: no extra MPs (11.1.4).
 */
gate?: boolean, 
/**
 * Horse archers shoot from this hex in their own movement phase: 1 MP, once (10.5.7, 10.5.8).
 */
fire?: boolean, 
/**
 * The unit passes its banner to a friendly unit here: 1 MP (7.1.4).
 */
pass_banner?: boolean, };

export type MedievalMoraleSituation = { 
/**
 * The counter when the turn began: positive in player A's favour.
 */
track?: number, 
/**
 * This turn's events, in order; in a battle, those its results moved the counter by.
 */
events: Array<MedievalMoraleEvent>, };

export type MedievalMoraleEvent = { kind: MedievalMoraleEventKind, 
/**
 * The player it benefits.
 */
to: MedievalPlayer, count?: number, };

export type MedievalMoraleEventKind = "elimination" | "banner_fall" | "banner_recapture" | "leader_death" | "grand_leader_death" | "moved";

export type MedievalPlayer = "a" | "b";

export type MedievalRegroupSituation = { 
/**
 * The unit's SPs.
 */
sp: number, 
/**
 * Its own leader is alive.
 */
leader_alive: boolean, 
/**
 * The grand leader is alive.
 */
grand_leader_alive: boolean, };

export type MedievalFatigueSituation = { 
/**
 * The leader's fatigue level at the start of the turn.
 */
level: number, 
/**
 * The leader moved or influenced a combat this turn (13.1.3).
 */
active?: boolean, 
/**
 * A unit under him has CF above 0 (13.1.4).
 */
charging?: boolean, 
/**
 * The player lowers it by 1 when it did not rise (13.1.5).
 */
rest?: boolean, 
/**
 * Units under his command (horse archers excepted, 10.5.11).
 */
units: number, 
/**
 * Those units by their roster labels, in order (default: numbered): each scatter d6 is named
 * by its unit, and a scatter lands on it.
 */
unit_labels?: Array<string>, 
/**
 * The leader by his roster name: the level the step gives lands on his row (13.1).
 */
leader?: string, };

export type MedievalBannerSituation = { event: MedievalBannerEvent, 
/**
 * Friendly units left on the holder's hex (when the holder is eliminated).
 */
friendly_units_on_hex?: number, 
/**
 * The entering unit (when a unit enters the banner's hex).
 */
unit?: MedievalUnit, 
/**
 * The entering unit is of the banner's own side: a recapture.
 */
own_side?: boolean, 
/**
 * The holder has already moved this turn (pass): the new holder cannot move (7.1.3).
 */
holder_moved?: boolean, 
/**
 * Whose banner it is, player A's or B's: its fall and recapture move the MORALE track
 * (6.1.5).
 */
banner_of?: MedievalPlayer, };

export type MedievalBannerEvent = "pass" | "holder_eliminated" | "unit_enters";

export type MedievalMapReturnSituation = { 
/**
 * The game turn it left.
 */
left_turn: number, left_during?: MedievalLeftDuring, cavalry: boolean, 
/**
 * The map number of the departure hex, e.g. 2300.
 */
departure_hex?: number, };

export type MedievalLeftDuring = "movement" | "pursuit";

export type MedievalDemolishSituation = { 
/**
 * The game turn the unit entered the fortified hex (and declared the destruction).
 */
entered_turn: number, 
/**
 * The last game turn it was attacked there, even by unsuccessful fire: the count restarts.
 */
last_attacked_turn?: number, };

export type GtsUnit = { name?: string, 
/**
 * The tag's colour: which command the unit belongs to.
 */
command?: string, 
/**
 * infantry, cavalry, camelry, elephant, chariot, engine, wagon.
 */
class: string, 
/**
 * C (confident), I (impetuous), R (reluctant); none: standard.
 */
morale?: string, 
/**
 * P, D, F, V; none: standard.
 */
training?: string, 
/**
 * N, L, M, H, A.
 */
armour?: string, 
/**
 * Primary weapon: PK, LN, LS, SP, JV, BW, SL, SH, HM, PM, BL, CT.
 */
weapon: string, 
/**
 * Sling ammunition: stones (4") or lead (6") (5.1, R-GTS-20).
 */
ammunition?: string, 
/**
 * Secondary weapon, for fire at −1 (2.13).
 */
secondary?: string, 
/**
 * CO (close) or OO (open); elephants have neither (3.23).
 */
order?: string, 
/**
 * Stands now.
 */
stands: number, 
/**
 * Hits (pips) on the unit now, less than one stand's worth.
 */
hits?: number, 
/**
 * Stands when the battle began, for the terminal rout trigger (default: stands).
 */
starting_stands?: number, 
/**
 * In skirmish formation (3.12).
 */
skirmish?: boolean, disordered?: boolean, routed?: boolean, 
/**
 * In March formation (3.14).
 */
march?: boolean, 
/**
 * The printed tag's values, which override the derived ones.
 */
tag?: GtsTagValues, };

export type GtsTagValues = { response?: number, quality?: string, move_inches?: number, fire_attack?: number, fire_defence?: number, melee?: number, melee_first?: number, recoil?: number, hits_per_stand?: number, };

export type GtsFireSituation = { firer: GtsUnit, target: GtsUnit, 
/**
 * Inches to the target.
 */
range: number, 
/**
 * Fires its secondary weapon (−1).
 */
secondary?: boolean, 
/**
 * Skirmish stands combining their fire at the target (5.5): one d10 each.
 */
skirmish_stands?: number, target_elevated?: boolean, target_in_cover?: boolean, flank_or_rear?: boolean, 
/**
 * Escort or runner stands firing from a chariot or elephant (3.163): −2.
 */
escort?: boolean, 
/**
 * A ballista shooting over units (9.27): −1.
 */
indirect?: boolean, 
/**
 * Mechanical artillery firing twice in the defensive fire phase at a unit that has just
 * contacted it (9.21): two shots, each its own roll-off.
 */
twice?: boolean, 
/**
 * A catapult shooting Greek fire: a single hit Disorders (9.28).
 */
greek_fire?: boolean, 
/**
 * The runner or escort stand of a target elephant or chariot (3.16): an even firer's die
 * hits it, an odd one the elephant or chariot (3.163).
 */
target_escort?: GtsUnit, 
/**
 * The personal valour of a leader attached to the target, for its stand-loss check.
 */
target_leader_pv?: number, 
/**
 * A leader is attached to the target: if it Routs on its stand-loss check, he takes a
 * casualty test (1.9).
 */
target_leader?: boolean, 
/**
 * That leader's name, when he has a row of his own on the roster: his casualty test's
 * result lands on him there (1.9, Table 1.10). Without it, on the target.
 */
target_leader_name?: string, };

export type GtsMeleeSituation = { side_a: Array<GtsMeleeUnit>, side_b: Array<GtsMeleeUnit>, 
/**
 * Which unit's modifiers side A uses when several are equally large (6.12); default the first.
 */
modifying_a?: number, modifying_b?: number, 
/**
 * This round follows contact made this turn, side A having moved into contact: cavalry may
 * not charge close-order infantry with an equal or longer weapon (4.43), camels Disorder
 * cavalry (4.47), and contact from rough terrain Disorders (4.54).
 */
contact?: boolean, };

export type GtsMeleeUnit = { unit: GtsUnit, 
/**
 * It is flanked (2.14).
 */
flanked?: boolean, 
/**
 * It is flanking the enemy while not flanked itself (7.1).
 */
flanking?: boolean, 
/**
 * It has the elevation advantage (2.14, 7.1).
 */
elevation?: boolean, 
/**
 * It contacts twice its stands or more of enemy stands (7.1).
 */
contacts_double?: boolean, 
/**
 * Personal valour of an attached leader (1.6).
 */
leader_pv?: number, 
/**
 * The attached leader's name, when he has a row of his own on the roster: his casualty
 * test's result lands on him there (1.9, Table 1.10). Without it, on the unit.
 */
leader_name?: string, 
/**
 * The first turn of this unit-on-unit combat: SH and HM bonuses apply (2.14).
 */
first_turn?: boolean, 
/**
 * Its HM bonus or SH capability is already spent (2.14).
 */
first_turn_spent?: boolean, 
/**
 * It touches a rough terrain feature as contact is made: a formed unit is Disordered
 * (4.54), and close-order infantry there may be charged by cavalry (4.43).
 */
in_rough?: boolean, 
/**
 * Cavalry that failed its response after an enemy rout and charges out of control (6.26):
 * it may contact close-order infantry with an equal or longer weapon (4.43).
 */
out_of_control?: boolean, 
/**
 * A frenzied elephant (4.46): it fights one unit at a time, and its contact puts the unit
 * to a response test (4.45).
 */
frenzied?: boolean, 
/**
 * Its leader's state from Table 1.10, kept by the roster until the turn ends (R-GTS-25).
 */
leader_condition?: GtsLeaderCondition, 
/**
 * Its leader's wounds (Table 1.10, 3): PV +1 each, to at most +2 (1.2).
 */
leader_wounds?: number, 
/**
 * It is within 6" of a leader who fell on his sword this turn (Table 1.10, 8): −1 to melees
 * and command tests.
 */
near_fallen_leader?: boolean, 
/**
 * The runner or escort stand of an elephant or chariot (3.16): the mixed unit is the
 * modifying unit of its side and counts two stands deep (3.164, R-GTS-26).
 */
escort?: GtsUnit, };

export type GtsLeaderCondition = "dazed" | "unhorsed" | "seriously_wounded" | "passed_out" | "killed" | "captured";

export type GtsResponseSituation = { 
/**
 * Which test (2.11): a rally, a cavalry charge, …
 */
test: string, unit: GtsUnit, 
/**
 * Personal valour of an attached leader (1.6).
 */
leader_pv?: number, 
/**
 * Within 2" of a formed enemy unit: a failed voluntary rout then Disorders (4.311).
 */
near_formed_enemy?: boolean, 
/**
 * Within 6" of a leader who fell on his sword this turn (Table 1.10, 8): −1 to its
 * response tests, a rally among them (R-GTS-25).
 */
near_fallen_leader?: boolean, };

export type GtsCommandSituation = { 
/**
 * Personal command rating 1–5.
 */
pc: number, 
/**
 * Tactical skill: E, G, A or P.
 */
ts: string, 
/**
 * A wing general who received no command point from the army general uses only his PC
 * (1.3).
 */
wing_without_army_point?: boolean, 
/**
 * The general whose row takes the points, by his name on the roster.
 */
leader?: string, };

export type GtsLeaderCasualtySituation = { 
/**
 * Two leaders in the combat: this one's side (1.10).
 */
side?: GtsLeaderSide, };

export type GtsLeaderSide = "routed" | "victorious";

export type GtsFrenzySituation = { 
/**
 * Hits on the elephant stand before this round.
 */
hits_before: number, 
/**
 * Hits this round.
 */
new_hits: number, 
/**
 * The elephant has an escort stand: it is removed the instant the elephant frenzies
 * (3.166).
 */
escort?: boolean, };

export type GtsArmyBreakSituation = { 
/**
 * Units in the army at the start (FRU).
 */
units: number, 
/**
 * Units eliminated or in permanent Rout.
 */
lost: number, general_lost?: boolean, 
/**
 * The baggage train routed or lost half its stands.
 */
baggage_looted?: boolean, 
/**
 * For the victory level: stands eliminated of the victor and of the defeated.
 */
victor_stands_lost?: number, defeated_stands_lost?: number, 
/**
 * Points of a general to cost: PC 1–5, TS letter, PV −2…+2 (1.11).
 */
general?: GtsGeneralRating, 
/**
 * The enemy army has reached its break point too: both broken, the battle is a tactical
 * draw.
 */
enemy_broken?: boolean, };

export type GtsGeneralRating = { pc: number, ts: string, pv: number, };

export type GtsWheelSituation = { unit: GtsUnit, 
/**
 * Stands across the unit's front.
 */
front_stands: number, 
/**
 * Degrees wheeled.
 */
degrees: number, };

export type GtsMovementSituation = { unit: GtsUnit, 
/**
 * Inches moved over clear ground, hills included.
 */
clear_inches: number, 
/**
 * Inches moved while touching rough ground or a steep hill: each costs two.
 */
rough_inches: number, 
/**
 * Inches marched along a road in March formation: each costs half, and rough ground on
 * the road costs nothing more.
 */
road_inches?: number, 
/**
 * A sidestep at the start of the move, up to 3 inches, for open order cavalry, elephants
 * and chariots: each inch costs two.
 */
sidestep_inches?: number, 
/**
 * Withdrawing backwards out of combat (Drilled units, after their test): every inch costs
 * two.
 */
withdrawal?: boolean, 
/**
 * A formation change at the start of the move: it costs 10 less the response number in
 * inches, or the whole move.
 */
formation_change?: boolean, 
/**
 * The unit is in Reserve: any move loses its chit.
 */
in_reserve?: boolean, };

export type GtsInterpenetrationSituation = { unit: GtsUnit, 
/**
 * The friendly unit passed through, picked from the army's units.
 */
through: string, 
/**
 * How the unit comes to pass through it.
 */
passage?: GtsPassage, 
/**
 * A gap of one stand between the units passed: moving through it causes no Disorder.
 */
gap?: boolean, 
/**
 * With no gap, which of the two becomes Disordered.
 */
without_gap?: GtsDisorderedOne, };

export type GtsPassage = "movement" | "rout" | "recoil" | "withdrawal" | "displacement";

export type GtsDisorderedOne = "moving" | "passed_through";

/** The bounds every typed field keeps to, as the API checks them. */
export const FIELD_LIMITS: FieldLimits = {"name_max_chars":200,"value_max":10000};
