//! Every error code, once: the stable dotted string the app, the CLI and docs/api.md know
//! (`situation.invalid_field`), and what went wrong, in one line, for the table in docs/api.md.
//! A code is a variant here or it is not a code: a typo does not compile, and a new code is a new
//! line below (its meaning becomes a row of the docs' table, checked by `tests/error_codes.rs`).

use serde::Serialize;
use ts_rs::TS;

/// Declares the enum from one line per code: its meaning (the doc comment, a row of the docs'
/// table), its variant and its dotted string.
macro_rules! error_codes {
    ($( $(#[doc = $meaning:tt])+ $variant:ident = $code:tt, )+) => {
        /// A stable error code. It serialises as its dotted string (`"dice.invalid"`), which is
        /// the public contract: the JSON the app and the CLI receive names codes so.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, TS)]
        pub enum ErrorCode {
            $(
                $(#[doc = $meaning])+
                #[serde(rename = $code)]
                $variant,
            )+
        }

        impl ErrorCode {
            /// Every code, in the order of the docs' table.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant),+];

            /// The dotted string: `dice.invalid`.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $code,)+
                }
            }

            /// What went wrong, in one line (Markdown, as the docs' table shows it).
            pub fn meaning(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => concat!($($meaning),+),)+
                }
                .trim()
            }
        }
    };
}

error_codes! {
    /// the situation is not JSON
    SituationInvalidJson = "situation.invalid_json",
    /// stdin could not be read
    SituationUnreadable = "situation.unreadable",
    /// a field is missing, unknown, or of the wrong type (a negative or non-numeric strength, range
    /// or count)
    SituationInvalidField = "situation.invalid_field",
    /// a unit's `count` is 0
    SituationInvalidCount = "situation.invalid_count",
    /// a number beyond ±10,000 anywhere in a situation (no tabletop value is that large)
    SituationValueOutOfRange = "situation.value_out_of_range",
    /// a combat strength is not a number, `.` or `[n]`
    SituationInvalidStrength = "situation.invalid_strength",
    /// a `type` the ruleset does not have
    SituationUnknownUnitType = "situation.unknown_unit_type",
    /// a `class` the ruleset does not have
    SituationUnknownUnitClass = "situation.unknown_unit_class",
    /// a rule needs a unit's class and neither the unit nor its type gives one
    SituationMissingClass = "situation.missing_class",
    /// melee needs a combat strength the unit type does not give; an ITACS missile unit (Ff, Mf) is
    /// added without the fire strength its type does not give (R-ITACS-17)
    SituationMissingStrength = "situation.missing_strength",
    /// a class E unit was entered as a fighting unit
    SituationLeaderAsUnit = "situation.leader_as_unit",
    /// a hex or side with no units
    SituationNoUnits = "situation.no_units",
    /// a Medieval movement formation for a unit that has none (10.1.1, 10.5.1)
    SituationInvalidFormation = "situation.invalid_formation",
    /// a Medieval leader alone entered with units or beside other defending hexes (8.2.9)
    SituationInvalidLeaderAlone = "situation.invalid_leader_alone",
    /// a Medieval move that both holds and lowers its CF, or shoots where it may not
    /// (5.6.12–5.6.13, 10.5.6–10.5.7)
    SituationInvalidMove = "situation.invalid_move",
    /// a terrain key not on the terrain chart, or a DBMM terrain not in the order of placing (p.
    /// 20)
    SituationUnknownTerrain = "situation.unknown_terrain",
    /// a Medieval COMBAT TABLE column that is not on the table
    SituationUnknownColumn = "situation.unknown_column",
    /// a Medieval MORALE value beyond the track's last box, where the ruleset gives one (6.1.1)
    SituationOffTheTrack = "situation.off_the_track",
    /// a Medieval ranged unit shooting more often than its turn allows, or in a phase it may not
    /// (10.1.5–10.1.6, 10.5.6–10.5.7)
    SituationNoShotLeft = "situation.no_shot_left",
    /// fire on a hex no unit can be in
    SituationImpassable = "situation.impassable",
    /// melee against water or mountain, a wall from an ordinary hex, from a wall against an
    /// ordinary hex, or across a scarp hexside
    SituationMeleeNotAllowed = "situation.melee_not_allowed",
    /// firing units with no fire strength
    SituationZeroFireStrength = "situation.zero_fire_strength",
    /// a class A, B or C unit given a fire strength (2.4.1; throwing weapons aside)
    SituationMayNotFire = "situation.may_not_fire",
    /// the attacking side's combat strength is 0
    SituationZeroAttack = "situation.zero_attack",
    /// the defending side's combat strength is 0
    SituationZeroDefence = "situation.zero_defence",
    /// range 0 (ITACS), a negative range in paces (DBMM)
    SituationInvalidRange = "situation.invalid_range",
    /// defensive fire beyond adjacent hexes, or a firer beyond its fire range (4.2.3)
    SituationOutOfRange = "situation.out_of_range",
    /// a fire strength or range the tables do not cover
    SituationOffTable = "situation.off_table",
    /// more units in the target hex than the stacking table lists
    SituationStackingOffTable = "situation.stacking_off_table",
    /// an ITACS attacking, defending or firing hex holding more units than any hex may (4.3.3)
    SituationOverStacked = "situation.over_stacked",
    /// disrupted units attacking or firing
    SituationDisruptedAttacker = "situation.disrupted_attacker",
    /// a square that is not 4 identical SD, PS or PP units
    SituationInvalidSquare = "situation.invalid_square",
    /// the ratio is below 1:2 and the ruleset forbids such attacks
    SituationBelowLowestColumn = "situation.below_lowest_column",
    /// units where their class may not be: impassable terrain, water for land units, land for
    /// fleets, walls, towers and trenches for cavalry
    SituationTerrainClosed = "situation.terrain_closed",
    /// a rule needs movement points the unit type does not give
    SituationMissingMovement = "situation.missing_movement",
    /// a hex or facing change costs more movement points than are left, or a fleet with fewer than
    /// 10 loads or unloads (6.7.2)
    SituationOutOfMovement = "situation.out_of_movement",
    /// a move ends over the stacking limit, or in the hex of an elephant or fleet (6.9.3, 6.7.1)
    SituationOverStacking = "situation.over_stacking",
    /// a move goes on after entering a hex with D or Rout markers
    SituationMustStop = "situation.must_stop",
    /// a rout move enters a hex no farther from the nearest enemy than the one before, or gives a
    /// path with `nowhere_farther`
    SituationNotFarther = "situation.not_farther",
    /// a rout move goes on past a hex at the map edge where it left the map (5.3.3)
    SituationOffMap = "situation.off_map",
    /// `nowhere_farther` on a move that is not a rout or break move
    SituationNotARoutMove = "situation.not_a_rout_move",
    /// a disrupted unit moving other than to break or rout
    SituationDisruptedMove = "situation.disrupted_move",
    /// a square moving more than one hex, by road or into a river
    SituationSquareMove = "situation.square_move",
    /// a move with no hexes
    SituationEmptyPath = "situation.empty_path",
    /// a move into terrain the ruleset gives no movement cost for (a house rule's new terrain
    /// without `movement`)
    SituationNoMovementCost = "situation.no_movement_cost",
    /// the same hex listed twice
    SituationDuplicateLabel = "situation.duplicate_label",
    /// a leader distance naming a leader no hex lists
    SituationUnknownLeader = "situation.unknown_leader",
    /// a combat result code not in the results table
    SituationUnknownResult = "situation.unknown_result",
    /// a leader event not in the `leader_fate` table
    SituationUnknownEvent = "situation.unknown_event",
    /// horse archers firing after movement who fired before it
    SituationAlreadyFired = "situation.already_fired",
    /// units that are not horse archers firing after movement
    SituationNotHorseArchers = "situation.not_horse_archers",
    /// throwing weapons outside defensive fire
    SituationThrowingNotDefensive = "situation.throwing_not_defensive",
    /// a transport whose carrier type carries nothing
    SituationNotACarrier = "situation.not_a_carrier",
    /// a load over a carrier's limit
    SituationOverCapacity = "situation.over_capacity",
    /// a fire ship of a type other than LF
    SituationNotAFireShip = "situation.not_a_fire_ship",
    /// victory with other than two sides
    SituationTwoSides = "situation.two_sides",
    /// more than one fleet counter in a hex, or land units beside a fleet instead of in its `cargo`
    SituationFleetStacking = "situation.fleet_stacking",
    /// scenario settings that cannot be: no turns, a first side that is not a side, a stacking
    /// limit of 0
    SituationInvalidScenario = "situation.invalid_scenario",
    /// dice given to an action that rolls none
    DiceNotRolled = "dice.not_rolled",
    /// a Medieval armour level outside 0–2
    SituationInvalidArmour = "situation.invalid_armour",
    /// a charge factor above 3, or one given to infantry
    SituationInvalidChargeFactor = "situation.invalid_charge_factor",
    /// a leader's command range other than 2 or 3, or a distance without a range
    SituationInvalidLeaderRange = "situation.invalid_leader_range",
    /// a turn of 0 or more than 3 hexsides, or more than 60° at CF above 1
    SituationInvalidTurn = "situation.invalid_turn",
    /// a unit that does not shoot firing
    SituationNotRanged = "situation.not_ranged",
    /// units fired on by a table for objects, or an object by a table for units
    SituationNoTarget = "situation.no_target",
    /// a ranged unit shooting in movement formation
    SituationMovementFormation = "situation.movement_formation",
    /// infantry trying to ride down
    SituationNotCavalry = "situation.not_cavalry",
    /// a leader-death roll without a retreat
    SituationNoRetreat = "situation.no_retreat",
    /// a Medieval banner falls or is recaptured without saying whose it is
    SituationBannerOfMissing = "situation.banner_of_missing",
    /// a GTS rating key Table 2.10 does not have, or one given in the wrong place (a weapon as
    /// morale)
    SituationUnknownRating = "situation.unknown_rating",
    /// a GTS unit class other than the seven of 2.1
    SituationUnknownClass = "situation.unknown_class",
    /// a quality outside A–E
    SituationInvalidQuality = "situation.invalid_quality",
    /// a unit with no stands
    SituationNoStands = "situation.no_stands",
    /// hits of a stand's worth or more (they remove a stand)
    SituationTooManyHits = "situation.too_many_hits",
    /// fire with a secondary weapon the unit does not have
    SituationNoSecondary = "situation.no_secondary",
    /// a unit without a missile weapon, or routed or in March, firing
    SituationCannotFire = "situation.cannot_fire",
    /// skirmish stands in a melee
    SituationSkirmishInMelee = "situation.skirmish_in_melee",
    /// a routed unit in a recoil test
    SituationRoutedRecoil = "situation.routed_recoil",
    /// GTS cavalry charging close-order infantry with an equal or longer weapon (4.43)
    SituationContactForbidden = "situation.contact_forbidden",
    /// a response test the ruleset does not list
    SituationUnknownTest = "situation.unknown_test",
    /// a rally for a unit that is not routed
    SituationNotRouted = "situation.not_routed",
    /// a wheel of 0° or more than 90°
    SituationInvalidWheel = "situation.invalid_wheel",
    /// a general's PC outside 1–5, TS not E/G/A/P or PV outside −2…+2
    SituationInvalidRating = "situation.invalid_rating",
    /// a DBMM element type the sheet does not have (Train, Mounted, Foot, Naval are classes)
    SituationUnknownElement = "situation.unknown_element",
    /// a DBMM grade other than S, O, I, F, X
    SituationUnknownGrade = "situation.unknown_grade",
    /// `counts_as` on an element not graded (X), or a line the X-grading table does not give
    SituationInvalidCountsAs = "situation.invalid_counts_as",
    /// a DBMM element the combat factor table has no row for in this kind of combat
    SituationNoCombatFactor = "situation.no_combat_factor",
    /// a rear support claim the conditions forbid: other command, not lined up or facing, DGo,
    /// marched, a pairing p. 36 does not list, an army-list-only row without permission, support
    /// while shooting
    SituationSupportNotAllowed = "situation.support_not_allowed",
    /// a tactical factor id the ruleset does not have
    SituationUnknownFactor = "situation.unknown_factor",
    /// a tactical factor claimed for an element, combat or bound it does not apply to
    SituationFactorNotApplicable = "situation.factor_not_applicable",
    /// more than two overlaps counted on one element
    SituationTooManyOverlaps = "situation.too_many_overlaps",
    /// close combat with neither element's front edge in contact, or more enemy front edges on an
    /// element's flanks and rear than its three edges take
    SituationInvalidContact = "situation.invalid_contact",
    /// a command morale check for a command of 0 ME
    SituationNoMoraleEquivalents = "situation.no_morale_equivalents",
    /// a DBMM element with no shooting range shooting or shooting back
    SituationCannotShoot = "situation.cannot_shoot",
    /// a morale equivalent that is negative or not a whole or half number
    SituationInvalidMe = "situation.invalid_me",
    /// ME destroyed, spent and off-table beyond the command's ME
    SituationLossesExceedCommand = "situation.losses_exceed_command",
    /// a PIP cost id the ruleset does not list
    SituationUnknownPipAction = "situation.unknown_pip_action",
    /// a PIP condition id the ruleset does not list
    SituationUnknownPipCondition = "situation.unknown_pip_condition",
    /// a figure scale the ruleset does not list
    SituationUnknownScale = "situation.unknown_scale",
    /// a climate and season the DBMM climate table does not have
    SituationUnknownClimate = "situation.unknown_climate",
    /// a time of day not written as hours and minutes (18:40)
    SituationInvalidClock = "situation.invalid_clock",
    /// a weather the DBMM visibility table does not have
    SituationUnknownWeather = "situation.unknown_weather",
    /// a season DBMM does not have (set-up, p. 18)
    SituationUnknownSeason = "situation.unknown_season",
    /// dice notation, or faces, that do not fit the roll
    DiceInvalid = "dice.invalid",
    /// an action the system does not have
    ActionUnknown = "action.unknown",
    /// a ruleset id that is not loaded
    RulesetUnknown = "ruleset.unknown",
    /// a ruleset file for a system the referee does not know
    RulesetUnknownSystem = "ruleset.unknown_system",
    /// a ruleset file that is not valid TOML
    RulesetSyntax = "ruleset.syntax",
    /// a preset file that is not valid TOML
    PresetSyntax = "preset.syntax",
    /// a preset file with a missing, unknown or mistyped key
    PresetInvalid = "preset.invalid",
    /// a preset for a ruleset that is not loaded
    PresetUnknownRuleset = "preset.unknown_ruleset",
    /// `--preset` names no preset of `referee presets`
    PresetUnknown = "preset.unknown",
    /// a ruleset value of the wrong type, an unknown key, or a broken table (gaps, overlaps,
    /// unknown results)
    RulesetInvalid = "ruleset.invalid",
    /// a house-rule file loaded as a ruleset
    RulesetIsHouseRule = "ruleset.is_house_rule",
    /// a house-rule file without `extends`, with unknown keys, or removing what is not there
    HouseRuleInvalid = "house_rule.invalid",
    /// a file could not be read
    FileUnreadable = "file.unreadable",
    /// a battle id not in the database (or deleted: see `battle deleted`)
    BattleUnknown = "battle.unknown",
    /// restoring a battle that is not among the recently deleted ones
    BattleNotDeleted = "battle.not_deleted",
    /// restoring a backup that is not in the list
    BackupUnknown = "backup.unknown",
    /// restoring a backup that is damaged or not a battles database this app knows: nothing changed
    BackupUnusable = "backup.unusable",
    /// a battle without a name, with other than two distinctly named sides, a side's number
    /// outside its bounds (a panic level over 10,000), or of another ruleset than its events
    BattleInvalidSetup = "battle.invalid_setup",
    /// a unit without a label, with a strength of 0, or a leader whose stats are not an object
    BattleInvalidUnit = "battle.invalid_unit",
    /// a Medieval roster entry with `count` other than 1
    BattleOneUnitPerEntry = "battle.one_unit_per_entry",
    /// a side the battle does not have
    BattleUnknownSide = "battle.unknown_side",
    /// a command its side does not list
    BattleUnknownCommand = "battle.unknown_command",
    /// an effect target no roster unit was mapped to
    BattleTargetUnmapped = "battle.target_unmapped",
    /// a leader's death lands on his command, and his roster row has none
    BattleNoCommand = "battle.no_command",
    /// a leader (or unit) a result lands from was mapped to units of both sides
    BattleMixedSides = "battle.mixed_sides",
    /// `battle fight` without a unit on each side
    FightNoUnits = "fight.no_units",
    /// `battle fight` with an action that takes no sides of roster units (`fights` false)
    FightNotACombat = "fight.not_a_combat",
    /// opening a combat under a ruleset other than the battle's
    FightWrongRuleset = "fight.wrong_ruleset",
    /// a picked id that is not on the roster
    FightUnknownUnit = "fight.unknown_unit",
    /// a picked unit that was lost
    FightUnitLost = "fight.unit_lost",
    /// a picked leader
    FightNotAUnit = "fight.not_a_unit",
    /// a combat the roster's units could not be written into (never expected: a defect to report)
    FightNotOpened = "fight.not_opened",
    /// a quick edit of a change the unit's rule system does not make (D markers on a GTS unit):
    /// nothing is written
    BattleNotAChangeOfTheseRules = "battle.not_a_change_of_these_rules",
    /// a unit picked twice, or on both sides
    FightPickedTwice = "fight.picked_twice",
    /// attackers (or defenders) of more than one side
    FightMixedSides = "fight.mixed_sides",
    /// attackers and defenders of the same side
    FightSameSide = "fight.same_side",
    /// a contact picked (`behind`, `on_enemy_flank`) of neither fighting side
    FightNotInThisFight = "fight.not_in_this_fight",
    /// `bound_of` names a side that is not fighting
    FightUnknownBound = "fight.unknown_bound",
    /// `bound_of`, `behind` or `on_enemy_flank` given to a system whose fights take none (all but
    /// DBMM)
    FightNoContacts = "fight.no_contacts",
    /// more units than the action fights with (a GTS fire, a Medieval shooter, DBMM shooting), or
    /// more than one roster entry picked for an ITACS move
    FightOneEach = "fight.one_each",
    /// more than three DBMM elements on a side of a close combat, or two friends behind (or on the
    /// enemy's flank) of one element
    FightTooManyUnits = "fight.too_many_units",
    /// an ITACS attacker or firer with D markers (5.1)
    FightDisrupted = "fight.disrupted",
    /// a scattered Medieval unit (9.1)
    FightScattered = "fight.scattered",
    /// an ITACS move whose path enters a hex the roster has enemy units in (4.3.3), read as the
    /// move opens or as it lands
    FightEnemyHex = "fight.enemy_hex",
    /// an ITACS move whose path names the hex the unit starts in, or one hex twice (4.3.1)
    FightPathHex = "fight.path_hex",
    /// units moving of an ITACS entry fewer than 1 or more than it has, of a stack under a Rout or
    /// Break marker (it makes its rout move whole), given for a move of several entries, or for
    /// an action that is no move
    FightUnitsMoving = "fight.units_moving",
    /// a loss over several units without the player's choice (or a choice of the wrong size)
    BattleChoiceNeeded = "battle.choice_needed",
    /// a change to a unit that is lost or was never added; an edit or removal of a unit not on the
    /// roster
    BattleUnitGone = "battle.unit_gone",
    /// a unit's stats the roster unit form refuses (a choice not in the list, a number out of
    /// range, a field the rules do not have, a required field missing): `field` is the stats key
    UnitInvalid = "unit.invalid",
    /// a second DBMM general's element in one command, added, corrected or in a battle begun with
    /// its units (`field` `units[i].stats.general`) (R-DBMM-34)
    UnitTwoGenerals = "unit.two_generals",
    /// a Medieval counter added or corrected with more SPs than a hex holds (4.5.1): enter it as
    /// several counters
    BattleOverStacking = "battle.over_stacking",
    /// a GTS unit in skirmish formation added or corrected with more than 1 stand: each skirmish
    /// stand is a unit of its own (`field` `…stats.stands`) (3.12, 4.32, R-GTS-31)
    UnitSkirmishStands = "unit.skirmish_stands",
    /// a GTS unit placed in Reserve that cannot be: not Flexible infantry or cavalry, not in good
    /// order, or its army's Reserve already placed this game; nothing is written (3.31, R-GTS-38)
    UnitNotForReserve = "unit.not_for_reserve",
    /// a GTS general spending more command points than he has left this turn; nothing is
    /// written (1.2, 1.7)
    BattleCommandSpent = "battle.command_spent",
    /// a unit whose choice (its type, its grade…) is one of another rule system's, not this
    /// battle's: the message names the system
    UnitOtherSystem = "unit.other_system",
    /// applying a resolution without dice
    BattleNoOutcome = "battle.no_outcome",
    /// undo at the start (or back to an entry with nothing undoable after it)
    BattleNothingToUndo = "battle.nothing_to_undo",
    /// redo with nothing undone
    BattleNothingToRedo = "battle.nothing_to_redo",
    /// undo back to an entry the battle's log does not have
    BattleUnknownEvent = "battle.unknown_event",
    /// an ITACS fight or apply repeating this turn's attack on a hex, or a single unit's (4.2, 4.4,
    /// 4.5.4, 6.2): nothing is written
    BattleOncePerTurn = "battle.once_per_turn",
    /// an ITACS unit throwing its throwing weapons a second time in the battle (6.6), or a DBMM
    /// side recording its retreat at dusk a second time or before the battle's clock is set
    /// (p. 23): nothing is written
    BattleOncePerGame = "battle.once_per_game",
    /// an apply whose `apply_key` an applied result in force already carries: nothing is written
    /// (undo that result first to apply it again)
    BattleAlreadyApplied = "battle.already_applied",
    /// editing the roll of an event that applied no result
    BattleNotARoll = "battle.not_a_roll",
    /// events that do not fold: no creation first, out of order, a unit added twice, an undo of
    /// nothing; events not numbered 1, 2, 3… (the store refuses to write them)
    BattleInvalidEvents = "battle.invalid_events",
    /// a turn beyond 9,999, given or reached by "next turn": nothing is written
    BattleTurnOutOfRange = "battle.turn_out_of_range",
    /// a battle whose next event number would overflow (cannot happen to a battle the referee
    /// stored or imported: their events are numbered from 1)
    BattleFull = "battle.full",
    /// a database written by a newer referee: left untouched
    StoreNewerVersion = "store.newer_version",
    /// a damaged database (or not one): left untouched; its backups can be restored (Settings, `db
    /// restore`)
    StoreCorrupt = "store.corrupt",
    /// opening a battle one of whose events is damaged (not numbered in its place, unreadable, or
    /// not matching its hash in the chain), whose last events were removed, or whose own row (name,
    /// rules, deletion) no longer matches its head: the message names the battle and the event, and
    /// what to do about it
    StoreDamagedEvent = "store.damaged_event",
    /// opening a roster changed outside the referee (it no longer matches its hash) or unreadable
    StoreDamagedRoster = "store.damaged_roster",
    /// `referee db check` found damage: the message lists each damaged battle and event, or what
    /// SQLite's integrity check reported
    StoreDamaged = "store.damaged",
    /// the database path is another application's SQLite file: refused and left untouched, never
    /// converted
    StoreNotReferee = "store.not_referee",
    /// the database path is a folder: name the file inside it
    StoreIsFolder = "store.is_folder",
    /// the disk filled during a write: nothing written
    StoreDiskFull = "store.disk_full",
    /// another referee held the database for longer than the busy timeout (5 s): every write takes
    /// the write lock first (`BEGIN IMMEDIATE`), so a second writer waits for the first rather than
    /// being refused at once
    StoreBusy = "store.busy",
    /// the data folder or file cannot be written
    StoreUnwritable = "store.unwritable",
    /// events that do not follow the last one stored (another writer got there first). The API's
    /// battle commands never answer it: each holds the write lock from reading the battle to
    /// committing, and reads a battle another process changed again before working the command out
    StoreConflict = "store.conflict",
    /// any other database failure; nothing written
    StoreFailed = "store.failed",
    /// a roster id not in the database
    RosterUnknown = "roster.unknown",
    /// a roster without a name, or a CSV without a `label` column or with a short row (`line N`)
    RosterInvalid = "roster.invalid",
    /// copying a roster into a battle of another ruleset
    RosterWrongRuleset = "roster.wrong_ruleset",
    /// a battle file that is not JSON, has unknown fields or wrong types
    ImportInvalid = "import.invalid",
    /// a JSON file that is not a referee battle
    ImportNotABattle = "import.not_a_battle",
    /// a battle file from a newer referee
    ImportNewerVersion = "import.newer_version",
    /// a battle played under other ruleset or house-rule files
    ImportForeignRuleset = "import.foreign_ruleset",
    /// a battle file whose events are not numbered 1, 2, 3… or carry a number outside the ranges a
    /// battle uses (see [Battle file](#battle-file))
    ImportOutOfRange = "import.out_of_range",
    /// a battle file whose event hashes do not match the chain (changed after export), that has
    /// hashes on some events only, or whose events end before (or after) its head: events were cut
    /// off
    ImportDamaged = "import.damaged",
    /// the app's preferences that are not one object of named choices: not kept
    PreferencesInvalid = "preferences.invalid",
    /// the app's preferences that take more than 64 kB as JSON: not kept
    PreferencesTooLarge = "preferences.too_large",
    /// the app's preferences file could not be written (the one before is left whole): they apply
    /// until the app closes
    PreferencesUnwritable = "preferences.unwritable",
    /// a battle file above 32 MiB, a roster (CSV or JSON) above 1 MiB, or a ruleset, house-rule or
    /// preset file above 1 MiB: refused before it is read or parsed
    FileTooLarge = "file.too_large",
    /// app dice for an action whose dice the app cannot roll: enter the faces
    DiceEnterByHand = "dice.enter_by_hand",
    /// CLI input on stdin that cannot be read
    InputUnreadable = "input.unreadable",
    /// CLI input on stdin that is not JSON
    InputInvalidJson = "input.invalid_json",
    /// CLI input on stdin, or a request from the app, that does not fit what the command takes (a
    /// number too large for its field, text where a number goes)
    InputInvalid = "input.invalid",
    /// a file could not be written (the file there before, if any, is unchanged), or the path names
    /// something other than a plain file (a folder, a FIFO, a device): never replaced
    FileUnwritable = "file.unwritable",
    /// a name the umpire typed — a battle's, a side's or command's, a unit's label, side or
    /// command, a roster's, a reason, a phase, who rolled, a result's key — longer than 200
    /// characters or holding a line break, a tab or another control character: nothing is written.
    /// An imported battle file's names are held to the same length (`import.out_of_range`); control
    /// characters an older file carries are shown as pictures (␊, ␛) in the text log and on the
    /// CLI's standard error
    NameInvalid = "name.invalid",
    /// the CLI's answer could not be written to standard output whole (a full disk under `> file`):
    /// exit status 2 and a line on standard error. A reader that closed the pipe early (`\| head`)
    /// is no error
    OutputUnwritable = "output.unwritable",
    /// the exact engine refused (dice too many for an exact count)
    OddsEngine = "odds.engine",
    /// the app failed midway through a command (the referee stopped, or answered the window with
    /// something that is not an error): open the battle again to see what was kept
    AppFailed = "app.failed",
    /// the screen was opened outside the Referee app's window (in a plain browser): it needs the
    /// app
    AppNoBackend = "app.no_backend",
    /// a choice made in Settings that could not be saved (the screen says why)
    SettingsUnsaved = "settings.unsaved",
    /// an event's entry that cannot be: a player without a name, a round out of turn, a player
    /// paired twice, scoring settings that do not read
    EventInvalid = "event.invalid",
    /// an event id not in the database
    EventUnknown = "event.unknown",
    /// a player's name already in the event (names are compared without regard to case)
    EventDuplicatePlayer = "event.duplicate_player",
    /// a name that is not one of the event's players
    EventUnknownPlayer = "event.unknown_player",
    /// a round paired a second time
    EventRoundPaired = "event.round_paired",
    /// the next round paired while the last still waits for results
    EventResultsMissing = "event.results_missing",
    /// pairings changed by hand after the round started (a battle begun or a result in), or a
    /// player joining a round robin after its round 1 was paired
    EventRoundStarted = "event.round_started",
    /// a round or table that is not in the event, or players not of the round
    EventNotInRound = "event.not_in_round",
    /// a result for a table that has its result already
    EventResultIn = "event.result_in",
    /// a battle file imported a second time into the event
    EventImportedTwice = "event.imported_twice",
    /// a battle whose sides are not the pairing's two players
    EventWrongPlayers = "event.wrong_players",
    /// a battle of a rule system the event does not play, or begun at a table whose battle was
    /// begun under another
    EventWrongSystem = "event.wrong_system",
    /// a battle with no verdict yet (no result applied, or the sides' armies not entered)
    EventNoVerdict = "event.no_verdict",
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The dotted strings are the public contract: tests compare a code with the string a user sees.
impl PartialEq<&str> for ErrorCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<str> for ErrorCode {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<String> for ErrorCode {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    #[test]
    fn every_code_is_unique_dotted_and_explained() {
        let mut seen = std::collections::BTreeSet::new();
        for code in ErrorCode::ALL {
            let s = code.as_str();
            assert!(seen.insert(s), "{s} is declared twice");
            let (area, what) = s.split_once('.').unwrap_or_default();
            assert!(
                !area.is_empty()
                    && !what.is_empty()
                    && s.chars()
                        .all(|c| c.is_ascii_lowercase() || c == '_' || c == '.'),
                "{s} is not a dotted code"
            );
            assert!(!code.meaning().is_empty(), "{s} has no meaning");
            // A `|` ends a cell of the docs' table, even in a code span, unless escaped.
            let meaning = code.meaning().replace("\\|", "");
            assert!(
                !meaning.contains('|') && !meaning.contains('\n'),
                "{s}'s meaning would break the docs' table"
            );
        }
    }

    #[test]
    fn a_code_serialises_as_its_dotted_string() {
        assert_eq!(
            serde_json::to_string(&ErrorCode::DiceInvalid).unwrap(),
            "\"dice.invalid\""
        );
        assert_eq!(ErrorCode::HouseRuleInvalid, "house_rule.invalid");
        assert_eq!(
            ErrorCode::SituationInvalidField.to_string(),
            "situation.invalid_field"
        );
    }
}
