//! Errors and warnings in KataGo's shapes: `{"error":…}` for a line that is no query,
//! `{"error":…,"field":…,"id":…}` for a query refused over one field, and
//! `{"warning":…,"field":…,"id":…}` for a query that still goes ahead.

use serde_json::{Map, Value};

/// Whether the query is refused or goes ahead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The query is refused: no analysis follows.
    Error,
    /// The query goes ahead; the client is told what was left out or ignored.
    Warning,
}

/// One error or warning line.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// Error or warning.
    pub severity: Severity,
    /// The query's `id`, when the line had one.
    pub id: Option<String>,
    /// The query field it is about, when it is about one.
    pub field: Option<String>,
    /// What is wrong, for people.
    pub message: String,
}

impl Notice {
    /// An error about a line that has no usable `id` (KataGo's general error).
    pub fn general(message: impl Into<String>) -> Notice {
        Notice {
            severity: Severity::Error,
            id: None,
            field: None,
            message: message.into(),
        }
    }

    /// An error about one field of the query `id`.
    pub fn error(id: &str, field: &str, message: impl Into<String>) -> Notice {
        Notice {
            severity: Severity::Error,
            id: Some(id.to_string()),
            field: Some(field.to_string()),
            message: message.into(),
        }
    }

    /// A warning about one field of the query `id`.
    pub fn warning(id: &str, field: &str, message: impl Into<String>) -> Notice {
        Notice {
            severity: Severity::Warning,
            ..Notice::error(id, field, message)
        }
    }

    /// The response line (one JSON object, no newline).
    pub fn to_json(&self) -> String {
        let mut out = Map::new();
        let key = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        out.insert(key.to_string(), Value::String(self.message.clone()));
        if let Some(field) = &self.field {
            out.insert("field".to_string(), Value::String(field.clone()));
        }
        if let Some(id) = &self.id {
            out.insert("id".to_string(), Value::String(id.clone()));
        }
        Value::Object(out).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_shapes_are_katagos() {
        assert_eq!(Notice::general("bad").to_json(), r#"{"error":"bad"}"#);
        assert_eq!(
            Notice::error("a", "moves", "Illegal move 0: D4").to_json(),
            r#"{"error":"Illegal move 0: D4","field":"moves","id":"a"}"#
        );
        assert_eq!(
            Notice::warning("a\"b", "x", "w").to_json(),
            r#"{"field":"x","id":"a\"b","warning":"w"}"#
        );
    }
}
