//! The referee's API, shared by the CLI and the Tauri commands (which are one-line adapters over
//! it). It owns what the core must not do: reading ruleset files and drawing seeds.

mod battles;
mod dice;
mod events;
mod files;
mod import;
mod limits;
mod names;
mod preferences;
mod report;
mod request;
mod rulesets;
mod share;
mod terrain;
mod worth;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

pub use battles::{
    backups_at, battle_file_text, check_roster, default_database, restore_over_damaged,
    roster_from_csv, AdjustRequest, AppDice, ApplyRequest, Backups, BattleView, Battles, DiceEntry,
    FightRequest, LogEntry, NewBattle, OutlookRequest, PhysicalDice, RollEditPreview, LOG_TAIL,
};
pub use dice::{roll, DiceRoll, RollRequest};
pub use events::{
    event_file_name, EventDocument, EventRow, EventView, HandResult, NewEvent, MAX_ROUNDS,
};
pub use files::write_atomically;
pub use import::{read_battle_file, MAX_TURN};
pub use limits::{Limited, BATTLE_FILE_LIMIT, ROSTER_FILE_LIMIT, RULESET_FILE_LIMIT};
pub use names::NAME_MAX_CHARS;
pub use preferences::{check_preferences, write_preferences, PREFERENCES_MAX_BYTES};
pub use referee_core::battle::{
    Fight, Mapping, PrintedValue, Subject, UnitField, UnitForm, UnitOption, UnitPreview, UnitSpec,
};
pub use referee_core::contract::*;
pub use referee_core::error::{plain_serde_error, printable, RefereeError};
pub use referee_core::preset::Preset;
pub use referee_core::rule_system::{
    ActionGroup, ActionInfo, Choice, ChoiceList, CommonSituation, ContactInfo, ContactKind, Die,
    FightPart, Phase, PhaseStep, SideField, SystemInfo, Thrower,
};
pub use referee_core::systems::sections::RuleSection;
pub use referee_core::tournament::standings::StandingRow;
pub use referee_core::tournament::{
    scoring::TieBreak, FirstRound, Game, GameResult, Outcome as EventOutcome, Pairing,
    PairingMethod, Player, PlayerResult, ResultSource, Round, Scoring, Tournament, TournamentEntry,
    TournamentSetup,
};
pub use referee_core::ErrorCode;
pub use referee_store::{
    leftovers, BackupInfo, BackupReason, BattleFile, BattleRow, DeletedBattle, Roster, RosterRow,
    KEEP_DELETED_DAYS,
};
pub use request::{parse_request, FieldLimits, FIELD_LIMITS};
pub use rulesets::{check_file, HouseRuleChoice, HouseRuleInfo, Referee};
pub use share::{file_name, saved_words, SharedDocument};
pub use worth::{Flipped, FlipsRequest, Pick, ResultChance};

/// A request to resolve one action.
#[derive(Clone, Debug, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct ResolveRequest {
    pub ruleset: String,
    pub action: String,
    /// The action's situation, as documented in docs/api.md and `referee schema`.
    #[ts(type = "unknown")]
    pub situation: serde_json::Value,
    /// Physical dice faces, for the outcome.
    #[serde(default)]
    #[ts(optional)]
    pub dice: Option<Vec<u32>>,
}

/// What the API answers for a list of rulesets: the systems, the house rules that can be put in
/// force or left out, and any user file that failed (an event scoring file of the folder's
/// `events/` included).
#[derive(Clone, Debug, Serialize, TS)]
pub struct RulesetList {
    pub systems: Vec<SystemInfo>,
    pub house_rules: Vec<HouseRuleInfo>,
    pub problems: Vec<RefereeError>,
}

/// The presets a new battle can begin from (built-in and the data folder's `presets/`), and any
/// preset file that failed, each error alone.
#[derive(Clone, Debug, Serialize, TS)]
pub struct PresetList {
    pub presets: Vec<Preset>,
    pub problems: Vec<RefereeError>,
}

/// Every type the UI sees, as TypeScript, in one file (`ui/src/generated/api.ts`).
pub fn typescript_bindings() -> String {
    use referee_core::battle;
    use referee_core::systems::itacs::data::AttackPosition;
    use referee_core::systems::itacs::situation as itacs;
    use referee_core::systems::itacs::{
        after_combat, movement, scenario, special, state, transport, victory,
    };
    use referee_core::systems::{gts, medieval};
    let cfg = ts_rs::Config::default().with_large_int("number");
    let decls = [
        ResolveRequest::decl(&cfg),
        FieldLimits::decl(&cfg),
        FlipsRequest::decl(&cfg),
        Pick::decl(&cfg),
        Flipped::decl(&cfg),
        ResultChance::decl(&cfg),
        RulesetList::decl(&cfg),
        HouseRuleInfo::decl(&cfg),
        HouseRuleChoice::decl(&cfg),
        PresetList::decl(&cfg),
        Preset::decl(&cfg),
        SystemInfo::decl(&cfg),
        ActionInfo::decl(&cfg),
        ActionGroup::decl(&cfg),
        ContactInfo::decl(&cfg),
        ContactKind::decl(&cfg),
        FightPart::decl(&cfg),
        Die::decl(&cfg),
        Thrower::decl(&cfg),
        CommonSituation::decl(&cfg),
        SideField::decl(&cfg),
        ChoiceList::decl(&cfg),
        referee_core::rule_system::PlaceList::decl(&cfg),
        referee_core::rule_system::Place::decl(&cfg),
        Choice::decl(&cfg),
        Resolution::decl(&cfg),
        Shown::decl(&cfg),
        Modifier::decl(&cfg),
        Total::decl(&cfg),
        Note::decl(&cfg),
        ResultOdds::decl(&cfg),
        Outcome::decl(&cfg),
        SideThrow::decl(&cfg),
        Effect::decl(&cfg),
        Target::decl(&cfg),
        Change::decl(&cfg),
        Chooser::decl(&cfg),
        referee_core::contract::TerrainFeature::decl(&cfg),
        Chance::decl(&cfg),
        Check::decl(&cfg),
        CheckStatus::decl(&cfg),
        Phase::decl(&cfg),
        RuleSection::decl(&cfg),
        PhaseStep::decl(&cfg),
        RefereeError::decl(&cfg),
        ErrorCode::decl(&cfg),
        RollRequest::decl(&cfg),
        DiceRoll::decl(&cfg),
        NewBattle::decl(&cfg),
        battle::SideSetup::decl(&cfg),
        battle::UnitSpec::decl(&cfg),
        battle::Role::decl(&cfg),
        battle::UnitForm::decl(&cfg),
        battle::UnitField::decl(&cfg),
        battle::UnitOption::decl(&cfg),
        battle::PrintedValue::decl(&cfg),
        battle::UnitPreview::decl(&cfg),
        ApplyRequest::decl(&cfg),
        DiceEntry::decl(&cfg),
        PhysicalDice::decl(&cfg),
        AppDice::decl(&cfg),
        battle::Mapping::decl(&cfg),
        AdjustRequest::decl(&cfg),
        OutlookRequest::decl(&cfg),
        FightRequest::decl(&cfg),
        battle::Fight::decl(&cfg),
        battle::Subject::decl(&cfg),
        BattleView::decl(&cfg),
        battle::BattleState::decl(&cfg),
        battle::SideState::decl(&cfg),
        battle::UnitState::decl(&cfg),
        battle::UnitWords::decl(&cfg),
        battle::QuickEdit::decl(&cfg),
        battle::LeaderFate::decl(&cfg),
        battle::Standing::decl(&cfg),
        battle::Gauge::decl(&cfg),
        LogEntry::decl(&cfg),
        RollEditPreview::decl(&cfg),
        SharedDocument::decl(&cfg),
        battle::Difference::decl(&cfg),
        BattleRow::decl(&cfg),
        DeletedBattle::decl(&cfg),
        BackupInfo::decl(&cfg),
        BackupReason::decl(&cfg),
        Backups::decl(&cfg),
        RosterRow::decl(&cfg),
        Roster::decl(&cfg),
        NewEvent::decl(&cfg),
        EventRow::decl(&cfg),
        EventView::decl(&cfg),
        HandResult::decl(&cfg),
        EventDocument::decl(&cfg),
        Tournament::decl(&cfg),
        TournamentSetup::decl(&cfg),
        PairingMethod::decl(&cfg),
        FirstRound::decl(&cfg),
        Player::decl(&cfg),
        Pairing::decl(&cfg),
        Round::decl(&cfg),
        Game::decl(&cfg),
        GameResult::decl(&cfg),
        PlayerResult::decl(&cfg),
        ResultSource::decl(&cfg),
        EventOutcome::decl(&cfg),
        StandingRow::decl(&cfg),
        Scoring::decl(&cfg),
        TieBreak::decl(&cfg),
        itacs::FireSituation::decl(&cfg),
        itacs::MeleeSituation::decl(&cfg),
        itacs::FiringHex::decl(&cfg),
        itacs::TargetHex::decl(&cfg),
        itacs::AttackingHex::decl(&cfg),
        itacs::DefendingHex::decl(&cfg),
        itacs::UnitEntry::decl(&cfg),
        itacs::ScarpLine::decl(&cfg),
        itacs::PrintedStrength::decl(&cfg),
        AttackPosition::decl(&cfg),
        itacs::AfterMovement::decl(&cfg),
        state::HexEntry::decl(&cfg),
        state::MarkersSituation::decl(&cfg),
        state::PhaseSituation::decl(&cfg),
        state::PhaseHex::decl(&cfg),
        state::LeaderEntry::decl(&cfg),
        movement::MoveSituation::decl(&cfg),
        movement::PathStep::decl(&cfg),
        movement::StartHex::decl(&cfg),
        movement::MoveKind::decl(&cfg),
        movement::WithdrawSituation::decl(&cfg),
        after_combat::BreakSituation::decl(&cfg),
        after_combat::CombatSide::decl(&cfg),
        after_combat::LeaderFateSituation::decl(&cfg),
        special::FeudalSituation::decl(&cfg),
        special::RampageSituation::decl(&cfg),
        special::ConversionSituation::decl(&cfg),
        transport::TransportSituation::decl(&cfg),
        transport::FireShipSituation::decl(&cfg),
        victory::VictorySituation::decl(&cfg),
        victory::SideEntry::decl(&cfg),
        scenario::ScenarioSituation::decl(&cfg),
        scenario::ScenarioSide::decl(&cfg),
        medieval::units::MedUnit::decl(&cfg),
        medieval::combat::CombatSituation::decl(&cfg),
        medieval::combat::AttackingHex::decl(&cfg),
        medieval::combat::DefendingHex::decl(&cfg),
        medieval::combat::SideSupport::decl(&cfg),
        medieval::retreat::RetreatHex::decl(&cfg),
        medieval::combat::LeaderPresence::decl(&cfg),
        medieval::fire::FireSituation::decl(&cfg),
        medieval::fire::FireTarget::decl(&cfg),
        medieval::fire::FirePhase::decl(&cfg),
        medieval::after::PursuitSituation::decl(&cfg),
        medieval::after::PursuitHex::decl(&cfg),
        medieval::after::LeaderDeathSituation::decl(&cfg),
        medieval::after::RideDownSituation::decl(&cfg),
        medieval::after::RideDownWhen::decl(&cfg),
        medieval::after::CounterchargeSituation::decl(&cfg),
        medieval::movement::TurnSituation::decl(&cfg),
        medieval::movement::MoveSituation::decl(&cfg),
        medieval::movement::PathStep::decl(&cfg),
        medieval::morale::MoraleSituation::decl(&cfg),
        medieval::morale::MoraleEvent::decl(&cfg),
        medieval::morale::MoraleEventKind::decl(&cfg),
        medieval::morale::Player::decl(&cfg),
        medieval::morale::RegroupSituation::decl(&cfg),
        medieval::morale::FatigueSituation::decl(&cfg),
        medieval::morale::BannerSituation::decl(&cfg),
        medieval::morale::BannerEvent::decl(&cfg),
        medieval::objects::MapReturnSituation::decl(&cfg),
        medieval::objects::LeftDuring::decl(&cfg),
        medieval::objects::DemolishSituation::decl(&cfg),
        gts::units::UnitEntry::decl(&cfg),
        gts::units::TagValues::decl(&cfg),
        gts::fire::FireSituation::decl(&cfg),
        gts::melee::MeleeSituation::decl(&cfg),
        gts::melee::MeleeUnit::decl(&cfg),
        gts::melee::LeaderCondition::decl(&cfg),
        gts::checks::ResponseSituation::decl(&cfg),
        gts::checks::CommandSituation::decl(&cfg),
        gts::checks::LeaderCasualtySituation::decl(&cfg),
        gts::checks::LeaderSide::decl(&cfg),
        gts::checks::FrenzySituation::decl(&cfg),
        gts::checks::ArmyBreakSituation::decl(&cfg),
        gts::checks::GeneralRating::decl(&cfg),
        gts::checks::WheelSituation::decl(&cfg),
        gts::movement::MovementSituation::decl(&cfg),
        gts::interpenetration::InterpenetrationSituation::decl(&cfg),
        gts::interpenetration::Passage::decl(&cfg),
        gts::interpenetration::DisorderedOne::decl(&cfg),
    ];
    let mut out = String::from(
        "// Generated from the Rust API types by `npm run bindings`; do not edit.\n// The test `bindings_are_current` fails when this file is stale.\n\n",
    );
    for d in decls {
        out.push_str("export ");
        out.push_str(&d);
        out.push_str("\n\n");
    }
    out.push_str(&format!(
        "/** The bounds every typed field keeps to, as the API checks them. */\nexport const FIELD_LIMITS: FieldLimits = {};\n\n",
        serde_json::to_string(&FIELD_LIMITS).expect("plain numbers")
    ));
    out.trim_end().to_string() + "\n"
}
