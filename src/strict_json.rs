//! JSON read strictly for the hook: a JSON object with the same key twice
//! (at any depth) is an error, not "the last one wins" as serde_json reads
//! it. A request `{"tool_input":{"command":"rm -rf ~","command":"ls"}}`
//! means two things, and a host may act on the other one.
//!
//! Takes the request's text; returns a [`serde_json::Value`] or the
//! error. One pass, linear in the text (each key is looked up once in its
//! object's map); nesting is bounded by serde_json's recursion limit.
#![deny(clippy::indexing_slicing)]

use serde::de::{DeserializeSeed, Deserializer, Error, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// Reads `text` as one JSON value, refusing duplicate keys; the error is
/// serde_json's, with the line and column.
pub fn from_str(text: &str) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = Strict.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// Whether an error from [`from_str`] is a duplicate key (the JSON is
/// otherwise well formed as far as it was read).
pub fn is_duplicate(error: &serde_json::Error) -> bool {
    error.to_string().starts_with(DUPLICATE)
}

const DUPLICATE: &str = "duplicate key";

/// The visitor (and seed) that builds a value and refuses duplicates.
#[derive(Clone, Copy)]
struct Strict;

impl<'de> DeserializeSeed<'de> for Strict {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Strict)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(A::Error::custom(format!(
                    "{DUPLICATE} `{}`: an object with two values for one key is ambiguous",
                    crate::limits::clip(&key, 80)
                )));
            }
            let value = map.next_value_seed(Strict)?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_at_any_depth_are_refused() {
        for text in [
            r#"{"a": 1, "a": 2}"#,
            r#"{"tool_input": {"command": "rm -rf ~", "command": "ls"}}"#,
            r#"[{"x": [{"k": 1, "k": 1}]}]"#,
            r#"{"a\u0062": 1, "ab": 2}"#,
        ] {
            let err = from_str(text).unwrap_err();
            assert!(is_duplicate(&err), "{text}: {err}");
        }
        let value = from_str(r#"{"a": {"b": [1, 2.5, "x", null, true]}, "b": {"b": 1}}"#).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"a": {"b": [1, 2.5, "x", null, true]}, "b": {"b": 1}})
        );
        assert!(!is_duplicate(&from_str("{").unwrap_err()));
        assert!(from_str("{} x").is_err());
        let deep = "[".repeat(1000) + &"]".repeat(1000);
        assert!(from_str(&deep).is_err());
    }
}
