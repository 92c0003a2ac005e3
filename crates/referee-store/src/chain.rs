//! Each event's hash, chained to the one before it: a byte changed inside a stored or exported
//! event (its seq, time, body or detail) no longer matches, and every later event's hash depends
//! on it. The chain guards against damage and careless edits, not against someone who recomputes
//! it (there is no secret key).

use std::fmt::Write;

use sha2::{Digest, Sha256};

use referee_core::battle::EventBody;

/// The hash of the event before the first one.
pub const CHAIN_START: &str = "";

/// The hash of one event after `prev`: SHA-256, as 64 lowercase hex digits, over each part
/// length-prefixed (so no two different events read alike). The body is hashed as the JSON text
/// the referee writes for it, the detail as the text stored (and exported verbatim).
pub fn event_hash(
    prev: &str,
    seq: u64,
    at: &str,
    body: &EventBody,
    detail: Option<&str>,
) -> String {
    let body = serde_json::to_string(body).unwrap_or_default();
    event_hash_text(prev, seq, at, &body, detail)
}

/// `event_hash` of a body already as the referee's JSON text (as the database stores it), so
/// opening a battle hashes the stored text without writing it again.
pub fn event_hash_text(prev: &str, seq: u64, at: &str, body: &str, detail: Option<&str>) -> String {
    event_hash_bytes(prev, seq, at, body, detail.map(str::as_bytes))
}

/// `event_hash_text` with the detail as the bytes SQLite holds, so opening a battle hashes each
/// detail where it lies.
pub fn event_hash_bytes(
    prev: &str,
    seq: u64,
    at: &str,
    body: &str,
    detail: Option<&[u8]>,
) -> String {
    let seq = seq.to_le_bytes();
    let mut parts: Vec<&[u8]> = vec![
        b"referee-event-1",
        prev.as_bytes(),
        &seq,
        at.as_bytes(),
        body.as_bytes(),
    ];
    match detail {
        Some(d) => parts.extend([b"detail".as_slice(), d]),
        None => parts.push(b"none"),
    }
    hash_parts(&parts)
}

/// What a battle's own row says of it, covered by its head.
pub struct BattleRecord<'r> {
    pub name: &'r str,
    pub ruleset: &'r str,
    pub fingerprint: &'r str,
    pub created_at: &'r str,
    pub deleted_at: Option<&'r str>,
}

/// The head of a battle's chain: its own row and its last event (seq and hash). Stored with the
/// battle, it catches events removed from the end and a row changed outside the referee.
pub fn head_hash(record: &BattleRecord, last_seq: u64, last_hash: &str) -> String {
    let seq = last_seq.to_le_bytes();
    hash_parts(&[
        b"referee-head-1",
        record.name.as_bytes(),
        record.ruleset.as_bytes(),
        record.fingerprint.as_bytes(),
        record.created_at.as_bytes(),
        record
            .deleted_at
            .map_or(b"none".as_slice(), |d| d.as_bytes()),
        &seq,
        last_hash.as_bytes(),
    ])
}

/// A saved roster's hash: its name, ruleset, units and time.
pub fn roster_hash(name: &str, ruleset: &str, units: &str, saved_at: &str) -> String {
    hash_parts(&[
        b"referee-roster-1",
        name.as_bytes(),
        ruleset.as_bytes(),
        units.as_bytes(),
        saved_at.as_bytes(),
    ])
}

/// SHA-256 over each part length-prefixed, as 64 lowercase hex digits.
fn hash_parts(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for bytes in parts {
        h.update(u64::try_from(bytes.len()).unwrap_or(u64::MAX).to_le_bytes());
        h.update(bytes);
    }
    let digest = h.finalize();
    let mut hex = String::with_capacity(64);
    for b in digest {
        // Writing to a String cannot fail.
        let _ = write!(hex, "{b:02x}");
    }
    hex
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_part_of_an_event_changes_its_hash() {
        let body = EventBody::TurnAdvanced {
            turn: 2,
            phase: None,
        };
        let base = event_hash("p", 2, "t", &body, Some(r#"{"a":[1,2]}"#));
        assert_eq!(base.len(), 64);
        let other_body = EventBody::TurnAdvanced {
            turn: 3,
            phase: None,
        };
        for changed in [
            event_hash("q", 2, "t", &body, Some(r#"{"a":[1,2]}"#)),
            event_hash("p", 3, "t", &body, Some(r#"{"a":[1,2]}"#)),
            event_hash("p", 2, "u", &body, Some(r#"{"a":[1,2]}"#)),
            event_hash("p", 2, "t", &other_body, Some(r#"{"a":[1,2]}"#)),
            event_hash("p", 2, "t", &body, Some(r#"{"a":[1,3]}"#)),
            event_hash("p", 2, "t", &body, None),
        ] {
            assert_ne!(changed, base);
        }
        let text = serde_json::to_string(&body).unwrap();
        assert_eq!(
            event_hash_text("p", 2, "t", &text, Some(r#"{"a":[1,2]}"#)),
            base
        );
    }
}
