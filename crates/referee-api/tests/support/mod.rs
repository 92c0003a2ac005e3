//! What the event tests and the events benchmark share.

// Each test crate that includes this uses part of it.
#[allow(dead_code)]
pub mod event_files;
