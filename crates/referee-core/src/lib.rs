//! The referee's core: the exact odds engine, rulesets as data, the resolution contract and the
//! rule systems. It does no IO, reads no clock, draws no OS randomness and knows nothing of Tauri:
//! callers hand it texts, situations and dice faces, and get values back.
//!
//! Layers, lowest first: `odds`, `error` (with `error_code`), `contract` and `ruleset` (the
//! engine); `state` (what a battle holds) and `rule_system` (the contract every system
//! implements); `systems` (one folder per system, and the registry); `battle` (events folded into
//! state, through the contract only) and `preset`.

pub mod battle;
pub mod contract;
pub mod error;
pub mod error_code;
pub mod fate;
pub mod odds;
pub mod preset;
pub mod rule_system;
pub mod ruleset;
pub mod state;
pub mod systems;
pub mod tournament;

pub use contract::Resolution;
pub use error::RefereeError;
pub use error_code::ErrorCode;
pub use rule_system::SystemInfo;
pub use systems::Ruleset;
