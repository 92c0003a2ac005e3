//! The referee's core: the exact odds engine, rulesets as data, the resolution contract and the
//! rule systems. It does no IO, reads no clock, draws no OS randomness and knows nothing of Tauri:
//! callers hand it texts, situations and dice faces, and get values back.

pub mod battle;
pub mod contract;
pub mod error;
pub mod odds;
pub mod preset;
pub mod ruleset;
pub mod systems;

pub use contract::Resolution;
pub use error::RefereeError;
pub use systems::{Ruleset, SystemInfo};
