//! Policy documents, YAML or JSON, read into one small tree.
//!
//! Takes the text of a policy file; returns a [`Node`] or an error that
//! names the line. YAML is read strictly, as the cage reads `.cage.yaml`:
//! one document, no anchors or aliases, no tags, no duplicate keys, at most
//! [`MAX_DEPTH`] levels. YAML is parsed by `saphyr-parser` (events only:
//! this module builds the tree, so every rule above is enforced here).
//!
//! Reading is linear in the text: duplicate keys are found with a set per
//! mapping, and a document with more than [`MAX_KEYS`] mapping keys or
//! [`MAX_ITEMS`] list items is refused as soon as the count is passed
//! ([`DocError::OverLimit`]), so no policy file can make a hook call slow.

use saphyr_parser::{Event, Parser, ScalarStyle};
use std::collections::HashSet;
use std::fmt;

/// Nesting deeper than this is an error, not a stack overflow.
pub const MAX_DEPTH: usize = 32;

/// Mapping keys in one document, at most. A real policy has far fewer:
/// gantry's own manifest has 4 skills of about 5 keys; a monorepo's of 100
/// skills would have about 500. Each key costs the reader about 6,000
/// instructions (saphyr's events, the tree, the schema), so 1,024 keys and
/// 1,024 items keep one file's read near 3 ms at worst (`cargo bench
/// --bench hook_latency`, `policy/`), and the count bounds judging too.
pub const MAX_KEYS: usize = 1024;

/// List items in one document, at most (forbidden zones, roots, `protect:`
/// entries, perimeter globs): the same bound as keys, for the same reason.
pub const MAX_ITEMS: usize = 1024;

/// Why a document could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DocError {
    /// Not a document of the dialect (the message names the line).
    Invalid(String),
    /// Past [`MAX_KEYS`] or [`MAX_ITEMS`].
    OverLimit(String),
}

impl fmt::Display for DocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DocError::Invalid(m) | DocError::OverLimit(m) => f.write_str(m),
        }
    }
}

impl From<DocError> for String {
    fn from(e: DocError) -> String {
        e.to_string()
    }
}

impl From<String> for DocError {
    fn from(message: String) -> DocError {
        DocError::Invalid(message)
    }
}

/// How many mapping keys and list items a read may still count: one
/// file's own limits ([`Allowance::ONE_FILE`]), or less when the other
/// policy files of the same repository have used part of a shared budget
/// (`law::policy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allowance {
    /// Mapping keys.
    pub keys: usize,
    /// List items.
    pub items: usize,
}

impl Allowance {
    /// One file read on its own: [`MAX_KEYS`] and [`MAX_ITEMS`].
    pub const ONE_FILE: Allowance = Allowance {
        keys: MAX_KEYS,
        items: MAX_ITEMS,
    };

    /// The smaller of each count.
    pub fn min(self, other: Allowance) -> Allowance {
        Allowance {
            keys: self.keys.min(other.keys),
            items: self.items.min(other.items),
        }
    }
}

/// Keys and items counted so far in one document; an error past the
/// allowance.
struct Counts {
    limit: Allowance,
    keys: std::cell::Cell<usize>,
    items: std::cell::Cell<usize>,
    /// Set when a limit was passed (JSON reports it through serde).
    over: std::cell::Cell<bool>,
}

impl Counts {
    fn new(limit: Allowance) -> Counts {
        Counts {
            limit,
            keys: std::cell::Cell::new(0),
            items: std::cell::Cell::new(0),
            over: std::cell::Cell::new(false),
        }
    }

    /// Counts one mapping key; the message when past the allowance.
    fn key(&self) -> Result<(), String> {
        self.keys.set(self.keys.get() + 1);
        if self.keys.get() > self.limit.keys {
            self.over.set(true);
            return Err(format!(
                "has more than {} keys ({})",
                self.limit.keys,
                limit_name(self.limit.keys, MAX_KEYS)
            ));
        }
        Ok(())
    }

    /// Counts one list item; the message when past the allowance.
    fn item(&self) -> Result<(), String> {
        self.items.set(self.items.get() + 1);
        if self.items.get() > self.limit.items {
            self.over.set(true);
            return Err(format!(
                "has more than {} list items ({})",
                self.limit.items,
                limit_name(self.limit.items, MAX_ITEMS)
            ));
        }
        Ok(())
    }

    /// What was counted, taken from `allowance`.
    fn charge(&self, allowance: &mut Allowance) {
        allowance.keys = allowance.keys.saturating_sub(self.keys.get());
        allowance.items = allowance.items.saturating_sub(self.items.get());
    }
}

/// Which limit a count met: a file's own, or what was left of the
/// repository's shared budget.
fn limit_name(limit: usize, file_limit: usize) -> &'static str {
    if limit < file_limit {
        "what the repository's other policy files left of the shared limit"
    } else {
        "the limit for a policy file"
    }
}

/// A policy document's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// `null`, `~` or an empty value.
    Null,
    /// A scalar, as text (`true`, `3` and `revert` alike), with the line it
    /// is on.
    Text(String, usize),
    /// A sequence.
    List(Vec<Node>),
    /// A mapping, in document order, keys unique.
    Map(Vec<(String, Node)>),
}

impl Node {
    /// The value of `key` in a mapping.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The scalar text, if this is a scalar.
    pub fn text(&self) -> Option<&str> {
        match self {
            Node::Text(s, _) => Some(s),
            _ => None,
        }
    }

    /// A list of strings (a single string counts as a list of one); an
    /// error names `what` when an item is not a string.
    pub fn strings(&self, what: &str) -> Result<Vec<String>, String> {
        match self {
            Node::Null => Ok(Vec::new()),
            Node::Text(s, _) => Ok(vec![s.clone()]),
            Node::List(items) => items
                .iter()
                .map(|item| {
                    item.text()
                        .map(str::to_string)
                        .ok_or_else(|| format!("{what}: every item must be a string"))
                })
                .collect(),
            Node::Map(_) => Err(format!("{what} must be a list of strings")),
        }
    }
}

/// Reads YAML strictly; linear in the text.
pub fn yaml(text: &str) -> Result<Node, DocError> {
    let mut allowance = Allowance::ONE_FILE;
    yaml_within(text, &mut allowance)
}

/// Reads YAML strictly, counting no more keys and items than `allowance`
/// holds; what the document used is taken from it.
pub fn yaml_within(text: &str, allowance: &mut Allowance) -> Result<Node, DocError> {
    let mut builder = Builder {
        stack: Vec::new(),
        done: None,
        counts: Counts::new(allowance.min(Allowance::ONE_FILE)),
    };
    let mut documents = 0;
    for event in Parser::new_from_str(text) {
        let (event, span) = event.map_err(|e| {
            DocError::Invalid(format!(
                "line {}: {}",
                e.marker().line(),
                e.info().trim_end_matches('.')
            ))
        })?;
        let line = span.start.line();
        match event {
            Event::StreamStart | Event::StreamEnd | Event::Nothing | Event::DocumentEnd => {}
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    return Err(DocError::Invalid(format!(
                        "line {line}: only one YAML document is allowed"
                    )));
                }
            }
            Event::Alias(_) => {
                return Err(DocError::Invalid(format!(
                    "line {line}: aliases (*name) are not allowed"
                )));
            }
            Event::Scalar(value, style, anchor, tag) => {
                no_anchor_or_tag(anchor, tag.is_some(), line)?;
                let node = if style == ScalarStyle::Plain
                    && matches!(value.as_ref(), "" | "~" | "null" | "Null" | "NULL")
                {
                    Node::Null
                } else {
                    Node::Text(value.into_owned(), line)
                };
                builder.value(node, line)?;
            }
            Event::SequenceStart(anchor, tag) => {
                no_anchor_or_tag(anchor, tag.is_some(), line)?;
                builder.open(Open::List(Vec::new()), line)?;
            }
            Event::MappingStart(anchor, tag) => {
                no_anchor_or_tag(anchor, tag.is_some(), line)?;
                builder.open(Open::Map(Vec::new(), None, None), line)?;
            }
            Event::SequenceEnd | Event::MappingEnd => builder.close(line)?,
        }
    }
    builder.counts.charge(allowance);
    Ok(builder.done.unwrap_or(Node::Null))
}

fn no_anchor_or_tag(anchor: usize, tagged: bool, line: usize) -> Result<(), DocError> {
    if anchor != 0 {
        return Err(DocError::Invalid(format!(
            "line {line}: anchors (&name) are not allowed"
        )));
    }
    if tagged {
        return Err(DocError::Invalid(format!(
            "line {line}: tags (!name) are not allowed"
        )));
    }
    Ok(())
}

enum Open {
    List(Vec<Node>),
    /// Entries so far, a key waiting for its value, and the keys seen once
    /// the mapping is past [`SMALL_MAP`] keys (a set: a duplicate is found
    /// in constant time, not by a scan of every key).
    Map(Vec<(String, Node)>, Option<String>, Option<HashSet<String>>),
}

/// A mapping with at most this many keys is searched for a duplicate by a
/// scan (as cheap as hashing at this size, and no set is built); a larger
/// one keeps a set.
const SMALL_MAP: usize = 8;

/// Whether `key` is new in a mapping (`entries` so far, `seen` its set once
/// past [`SMALL_MAP`] keys); constant time per key.
fn unseen(entries: &[(String, Node)], seen: &mut Option<HashSet<String>>, key: &str) -> bool {
    if let Some(set) = seen {
        return set.insert(key.to_string());
    }
    if entries.iter().any(|(k, _)| k == key) {
        return false;
    }
    if entries.len() >= SMALL_MAP {
        let mut set: HashSet<String> = entries.iter().map(|(k, _)| k.clone()).collect();
        set.insert(key.to_string());
        *seen = Some(set);
    }
    true
}

struct Builder {
    stack: Vec<Open>,
    done: Option<Node>,
    counts: Counts,
}

impl Builder {
    fn open(&mut self, open: Open, line: usize) -> Result<(), DocError> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(DocError::Invalid(format!(
                "line {line}: nested more than {MAX_DEPTH} levels deep"
            )));
        }
        if let Some(Open::Map(_, None, _)) = self.stack.last() {
            return Err(DocError::Invalid(format!(
                "line {line}: a mapping key must be a plain string"
            )));
        }
        self.stack.push(open);
        Ok(())
    }

    fn close(&mut self, line: usize) -> Result<(), DocError> {
        let node = match self.stack.pop() {
            Some(Open::List(items)) => Node::List(items),
            Some(Open::Map(entries, None, _)) => Node::Map(entries),
            Some(Open::Map(_, Some(key), _)) => {
                return Err(DocError::Invalid(format!(
                    "line {line}: key `{key}` has no value"
                )));
            }
            None => {
                return Err(DocError::Invalid(format!(
                    "line {line}: unbalanced document"
                )));
            }
        };
        self.value(node, line)
    }

    fn value(&mut self, node: Node, line: usize) -> Result<(), DocError> {
        let over = |m: String| DocError::OverLimit(format!("line {line}: {m}"));
        match self.stack.last_mut() {
            None => self.done = Some(node),
            Some(Open::List(items)) => {
                self.counts.item().map_err(over)?;
                items.push(node);
            }
            Some(Open::Map(entries, pending, seen)) => match pending.take() {
                Some(key) => entries.push((key, node)),
                None => {
                    let key = match node {
                        Node::Text(key, _) => key,
                        Node::Null => String::new(),
                        _ => {
                            return Err(DocError::Invalid(format!(
                                "line {line}: a mapping key must be a plain string"
                            )));
                        }
                    };
                    self.counts.key().map_err(over)?;
                    if !unseen(entries, seen, &key) {
                        return Err(DocError::Invalid(format!(
                            "line {line}: duplicate key `{key}`"
                        )));
                    }
                    *pending = Some(key);
                }
            },
        }
        Ok(())
    }
}

/// Reads JSON into the same tree (lines are not tracked: 0). Duplicate
/// keys are an error here too: serde_json would keep the last one, and a
/// policy file with two values for one key is ambiguous. Linear in the
/// text, with the same limits as YAML.
pub fn json(text: &str) -> Result<Node, DocError> {
    let mut allowance = Allowance::ONE_FILE;
    json_within(text, &mut allowance)
}

/// Reads JSON, counting no more keys and items than `allowance` holds;
/// what the document used is taken from it.
pub fn json_within(text: &str, allowance: &mut Allowance) -> Result<Node, DocError> {
    use serde::de::DeserializeSeed;
    let counts = Counts::new(allowance.min(Allowance::ONE_FILE));
    let mut de = serde_json::Deserializer::from_str(text);
    let classify = |e: serde_json::Error| {
        if counts.over.get() {
            DocError::OverLimit(json_error(&e))
        } else {
            DocError::Invalid(json_error(&e))
        }
    };
    let node = Seed {
        depth: 0,
        counts: &counts,
    }
    .deserialize(&mut de)
    .map_err(classify)?;
    de.end().map_err(classify)?;
    counts.charge(allowance);
    Ok(node.0)
}

fn json_error(e: &serde_json::Error) -> String {
    let message = e.to_string();
    let message = message
        .split(" at line ")
        .next()
        .unwrap_or(&message)
        .to_string();
    format!("line {}: {message}", e.line())
}

/// A JSON value read by a visitor that refuses duplicate keys and depth.
struct JsonNode(Node);

/// Where the visitor is: its depth, and the document's counts.
#[derive(Clone, Copy)]
struct Seed<'c> {
    depth: usize,
    counts: &'c Counts,
}

impl<'de> serde::de::DeserializeSeed<'de> for Seed<'_> {
    type Value = JsonNode;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<JsonNode, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Seed<'_> {
    type Value = JsonNode;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<JsonNode, E> {
        Ok(JsonNode(Node::Null))
    }
    fn visit_bool<E>(self, v: bool) -> Result<JsonNode, E> {
        Ok(JsonNode(Node::Text(v.to_string(), 0)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<JsonNode, E> {
        Ok(JsonNode(Node::Text(v.to_string(), 0)))
    }
    fn visit_u64<E>(self, v: u64) -> Result<JsonNode, E> {
        Ok(JsonNode(Node::Text(v.to_string(), 0)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<JsonNode, E> {
        Ok(JsonNode(Node::Text(v.to_string(), 0)))
    }
    fn visit_str<E>(self, v: &str) -> Result<JsonNode, E> {
        Ok(JsonNode(Node::Text(v.to_string(), 0)))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<JsonNode, A::Error> {
        let inner = self.deeper::<A::Error>()?;
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(inner)? {
            self.counts.item().map_err(serde::de::Error::custom)?;
            items.push(item.0);
        }
        Ok(JsonNode(Node::List(items)))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<JsonNode, A::Error> {
        let inner = self.deeper::<A::Error>()?;
        let mut entries: Vec<(String, Node)> = Vec::new();
        let mut seen: Option<HashSet<String>> = None;
        while let Some(key) = map.next_key::<String>()? {
            self.counts.key().map_err(serde::de::Error::custom)?;
            if !unseen(&entries, &mut seen, &key) {
                return Err(serde::de::Error::custom(format!("duplicate key `{key}`")));
            }
            let value = map.next_value_seed(inner)?;
            entries.push((key, value.0));
        }
        Ok(JsonNode(Node::Map(entries)))
    }
}

impl Seed<'_> {
    fn deeper<E: serde::de::Error>(self) -> Result<Self, E> {
        if self.depth >= MAX_DEPTH {
            return Err(E::custom(format!(
                "nested more than {MAX_DEPTH} levels deep"
            )));
        }
        Ok(Seed {
            depth: self.depth + 1,
            counts: self.counts,
        })
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_cage_schema() {
        let doc = yaml("protect:\n  - path: test\n  - glob: \"**/*.tf\"\n    mode: report\ndependencies: revert\n").unwrap();
        let protect = doc.get("protect").unwrap();
        let Node::List(items) = protect else {
            panic!("{protect:?}")
        };
        assert_eq!(items.len(), 2);
        assert_eq!(items[1].get("mode").and_then(Node::text), Some("report"));
        assert_eq!(doc.get("dependencies").and_then(Node::text), Some("revert"));
    }

    #[test]
    fn refuses_what_the_cage_refuses() {
        for (text, what) in [
            ("a: 1\na: 2\n", "duplicate key"),
            ("a: &x [1]\nb: *x\n", "anchors"),
            ("a: !!str 1\n", "tags"),
            ("a: 1\n---\nb: 2\n", "one YAML document"),
            ("a: [1, 2\n", "line"),
        ] {
            let err = yaml(text).unwrap_err().to_string();
            assert!(err.contains(what), "{text:?}: {err}");
        }
        let deep = "[".repeat(100) + &"]".repeat(100);
        assert!(yaml(&deep).unwrap_err().to_string().contains("levels deep"));
    }

    #[test]
    fn json_reads_into_the_same_tree() {
        let doc = json(r#"{"skills": {"ui": {"tmvc_roots": ["src/"]}}}"#).unwrap();
        let roots = doc
            .get("skills")
            .and_then(|s| s.get("ui"))
            .and_then(|s| s.get("tmvc_roots"));
        assert_eq!(roots.unwrap().strings("x").unwrap(), vec!["src/"]);
        assert!(json("{").unwrap_err().to_string().starts_with("line 1"));
        assert!(
            json(r#"{"a": 1, "a": 2}"#)
                .unwrap_err()
                .to_string()
                .contains("duplicate key")
        );
        let deep = "[".repeat(100) + &"]".repeat(100);
        assert!(json(&deep).unwrap_err().to_string().contains("levels deep"));
    }

    /// Keys and list items are counted over the whole document: at the
    /// limit it reads, one past it is `OverLimit`, in YAML and JSON alike.
    #[test]
    fn keys_and_items_are_bounded() {
        let keys = |n: usize| (0..n).map(|i| format!("k{i}: 1\n")).collect::<String>();
        assert!(yaml(&keys(MAX_KEYS)).is_ok());
        assert!(matches!(
            yaml(&keys(MAX_KEYS + 1)),
            Err(DocError::OverLimit(_))
        ));
        let items = |n: usize| format!("[{}]", vec!["1"; n].join(","));
        assert!(yaml(&items(MAX_ITEMS)).is_ok());
        assert!(matches!(
            yaml(&items(MAX_ITEMS + 1)),
            Err(DocError::OverLimit(_))
        ));
        assert!(json(&items(MAX_ITEMS)).is_ok());
        assert!(matches!(
            json(&items(MAX_ITEMS + 1)),
            Err(DocError::OverLimit(_))
        ));
        let object = |n: usize| {
            let body: Vec<String> = (0..n).map(|i| format!("\"k{i}\": {{}}")).collect();
            format!("{{{}}}", body.join(","))
        };
        assert!(json(&object(MAX_KEYS)).is_ok());
        assert!(matches!(
            json(&object(MAX_KEYS + 1)),
            Err(DocError::OverLimit(_))
        ));
        // Nested keys count too.
        let nested = format!(
            "{{\"a\": {}, \"b\": {}}}",
            object(MAX_KEYS / 2),
            object(MAX_KEYS / 2)
        );
        assert!(matches!(json(&nested), Err(DocError::OverLimit(_))));
        // A duplicate far into a big mapping is still found.
        let dup = keys(MAX_KEYS - 1) + "k5: 2\n";
        assert!(
            yaml(&dup)
                .unwrap_err()
                .to_string()
                .contains("duplicate key `k5`")
        );
    }
}
