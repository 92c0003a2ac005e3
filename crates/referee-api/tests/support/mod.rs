//! What the event tests and the events benchmark share.
pub mod event_files;
