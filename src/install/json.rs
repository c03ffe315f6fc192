//! An order-keeping JSON tree for the hosts' config files.
//!
//! serde_json's own `Value` sorts object keys unless the crate-wide
//! `preserve_order` feature is on, and that feature would change the map
//! every other part of portcullis (the hook's request reader, the rule
//! files) builds. So config files are read into this small tree instead:
//! serde_json still does the parsing (strict JSON, its recursion limit),
//! objects keep their keys in file order, and [`render`] writes them back
//! pretty-printed with the file's own indentation.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use std::fmt;

/// One JSON value; an object is its `(key, value)` pairs in file order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as serde_json read it.
    Number(serde_json::Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, keys in order.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// The value under `key` of an object (`None` for a missing key or a
    /// value that is not an object).
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(pairs) => pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value under `key`, for changing it.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        match self {
            Json::Object(pairs) => pairs.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value under `key`, added as `default` at the end when missing.
    /// `None` when `self` is not an object.
    pub fn entry(&mut self, key: &str, default: Json) -> Option<&mut Json> {
        let Json::Object(pairs) = self else {
            return None;
        };
        let at = match pairs.iter().position(|(k, _)| k == key) {
            Some(at) => at,
            None => {
                pairs.push((key.to_string(), default));
                pairs.len() - 1
            }
        };
        pairs.get_mut(at).map(|(_, v)| v)
    }

    /// Removes `key` from an object; true when it was there.
    pub fn remove(&mut self, key: &str) -> bool {
        match self {
            Json::Object(pairs) => {
                let before = pairs.len();
                pairs.retain(|(k, _)| k != key);
                pairs.len() != before
            }
            _ => false,
        }
    }

    /// The string, when this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// The elements, when this is an array.
    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The boolean, when this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// True for an empty object or array.
    pub fn is_empty_container(&self) -> bool {
        match self {
            Json::Object(pairs) => pairs.is_empty(),
            Json::Array(items) => items.is_empty(),
            _ => false,
        }
    }
}

/// Parses `text` as one JSON value. `Err` is serde_json's message (with
/// line and column).
pub fn parse(text: &str) -> Result<Json, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// Parses `text` written by us (a table entry); `Json::Null` never happens
/// for the fixed templates, which a unit test parses.
pub fn parse_template(text: &str) -> Json {
    parse(text).unwrap_or(Json::Null)
}

/// `value` pretty-printed with `indent` per level, ending in a newline.
pub fn render(value: &Json, indent: &str) -> String {
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    // Serializing our own tree into a Vec cannot fail.
    if value.serialize(&mut ser).is_err() {
        return String::new();
    }
    let mut text = String::from_utf8(out).unwrap_or_default();
    text.push('\n');
    text
}

/// `value` on one line (for messages and the doctor's JSON report).
pub fn compact(value: &Json) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// The indentation a file uses: the leading whitespace of its first
/// indented line, or two spaces.
pub fn indent_of(text: &str) -> String {
    text.lines()
        .skip(1)
        .map(|line| {
            let rest = line.trim_start_matches([' ', '\t']);
            &line[..line.len() - rest.len()]
        })
        .find(|lead| !lead.is_empty())
        .map_or_else(|| "  ".to_string(), str::to_string)
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => s.serialize_unit(),
            Json::Bool(b) => s.serialize_bool(*b),
            Json::Number(n) => n.serialize(s),
            Json::String(t) => s.serialize_str(t),
            Json::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(pairs) => {
                let mut map = s.serialize_map(Some(pairs.len()))?;
                for (k, v) in pairs {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

/// Builds a [`Json`] from serde's events.
struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Json, E> {
        Ok(Json::Number(n.into()))
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Json, E> {
        Ok(Json::Number(n.into()))
    }
    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Json, E> {
        serde_json::Number::from_f64(n)
            .map(Json::Number)
            .ok_or_else(|| E::custom("a number JSON cannot hold"))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Json, E> {
        Ok(Json::String(s.to_string()))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Json, E> {
        Ok(Json::String(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut pairs = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, Json>()? {
            pairs.push((k, v));
        }
        Ok(Json::Object(pairs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_their_order_and_indentation() {
        let text = "{\n    \"z\": 1,\n    \"a\": [true, null, \"x\"],\n    \"m\": {}\n}\n";
        let value = parse(text).unwrap();
        assert_eq!(indent_of(text), "    ");
        assert_eq!(
            render(&value, "    "),
            "{\n    \"z\": 1,\n    \"a\": [\n        true,\n        null,\n        \"x\"\n    ],\n    \"m\": {}\n}\n"
        );
        assert_eq!(indent_of("{}"), "  ");
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        for text in ["", "{", "{\"a\":}", "[1,]", &"[".repeat(10_000)] {
            assert!(parse(text).is_err(), "{text:.20}");
        }
    }
}
