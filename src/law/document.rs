//! Policy documents, YAML or JSON, read into one small tree.
//!
//! Takes the text of a policy file; returns a [`Node`] or an error that
//! names the line. YAML is read strictly, as the cage reads `.cage.yaml`:
//! one document, no anchors or aliases, no tags, no duplicate keys, at most
//! [`MAX_DEPTH`] levels. YAML is parsed by `saphyr-parser` (events only:
//! this module builds the tree, so every rule above is enforced here).

use saphyr_parser::{Event, Parser, ScalarStyle};

/// Nesting deeper than this is an error, not a stack overflow.
pub const MAX_DEPTH: usize = 32;

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

/// Reads YAML strictly.
pub fn yaml(text: &str) -> Result<Node, String> {
    let mut builder = Builder::default();
    let mut documents = 0;
    for event in Parser::new_from_str(text) {
        let (event, span) = event.map_err(|e| {
            format!(
                "line {}: {}",
                e.marker().line(),
                e.info().trim_end_matches('.')
            )
        })?;
        let line = span.start.line();
        match event {
            Event::StreamStart | Event::StreamEnd | Event::Nothing | Event::DocumentEnd => {}
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    return Err(format!("line {line}: only one YAML document is allowed"));
                }
            }
            Event::Alias(_) => {
                return Err(format!("line {line}: aliases (*name) are not allowed"));
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
                builder.open(Open::Map(Vec::new(), None), line)?;
            }
            Event::SequenceEnd | Event::MappingEnd => builder.close(line)?,
        }
    }
    Ok(builder.done.unwrap_or(Node::Null))
}

fn no_anchor_or_tag(anchor: usize, tagged: bool, line: usize) -> Result<(), String> {
    if anchor != 0 {
        return Err(format!("line {line}: anchors (&name) are not allowed"));
    }
    if tagged {
        return Err(format!("line {line}: tags (!name) are not allowed"));
    }
    Ok(())
}

enum Open {
    List(Vec<Node>),
    /// Entries so far, and a key waiting for its value.
    Map(Vec<(String, Node)>, Option<String>),
}

#[derive(Default)]
struct Builder {
    stack: Vec<Open>,
    done: Option<Node>,
}

impl Builder {
    fn open(&mut self, open: Open, line: usize) -> Result<(), String> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(format!(
                "line {line}: nested more than {MAX_DEPTH} levels deep"
            ));
        }
        if let Some(Open::Map(_, None)) = self.stack.last() {
            return Err(format!("line {line}: a mapping key must be a plain string"));
        }
        self.stack.push(open);
        Ok(())
    }

    fn close(&mut self, line: usize) -> Result<(), String> {
        let node = match self.stack.pop() {
            Some(Open::List(items)) => Node::List(items),
            Some(Open::Map(entries, None)) => Node::Map(entries),
            Some(Open::Map(_, Some(key))) => {
                return Err(format!("line {line}: key `{key}` has no value"));
            }
            None => return Err(format!("line {line}: unbalanced document")),
        };
        self.value(node, line)
    }

    fn value(&mut self, node: Node, line: usize) -> Result<(), String> {
        match self.stack.last_mut() {
            None => self.done = Some(node),
            Some(Open::List(items)) => items.push(node),
            Some(Open::Map(entries, pending)) => match pending.take() {
                Some(key) => entries.push((key, node)),
                None => {
                    let key = match node {
                        Node::Text(key, _) => key,
                        Node::Null => String::new(),
                        _ => {
                            return Err(format!(
                                "line {line}: a mapping key must be a plain string"
                            ));
                        }
                    };
                    if entries.iter().any(|(k, _)| *k == key) {
                        return Err(format!("line {line}: duplicate key `{key}`"));
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
/// policy file with two values for one key is ambiguous.
pub fn json(text: &str) -> Result<Node, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let node = JsonNode::deserialize_at(&mut de, 0)?;
    de.end().map_err(|e| json_error(&e))?;
    Ok(node)
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

impl JsonNode {
    fn deserialize_at(
        de: &mut serde_json::Deserializer<serde_json::de::StrRead<'_>>,
        depth: usize,
    ) -> Result<Node, String> {
        use serde::de::DeserializeSeed;
        Seed(depth)
            .deserialize(de)
            .map(|n| n.0)
            .map_err(|e| json_error(&e))
    }
}

#[derive(Clone, Copy)]
struct Seed(usize);

impl<'de> serde::de::DeserializeSeed<'de> for Seed {
    type Value = JsonNode;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<JsonNode, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Seed {
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
            items.push(item.0);
        }
        Ok(JsonNode(Node::List(items)))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<JsonNode, A::Error> {
        let inner = self.deeper::<A::Error>()?;
        let mut entries: Vec<(String, Node)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if entries.iter().any(|(k, _)| *k == key) {
                return Err(serde::de::Error::custom(format!("duplicate key `{key}`")));
            }
            let value = map.next_value_seed(inner)?;
            entries.push((key, value.0));
        }
        Ok(JsonNode(Node::Map(entries)))
    }
}

impl Seed {
    fn deeper<E: serde::de::Error>(self) -> Result<Seed, E> {
        if self.0 >= MAX_DEPTH {
            return Err(E::custom(format!(
                "nested more than {MAX_DEPTH} levels deep"
            )));
        }
        Ok(Seed(self.0 + 1))
    }
}

#[cfg(test)]
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
            let err = yaml(text).unwrap_err();
            assert!(err.contains(what), "{text:?}: {err}");
        }
        let deep = "[".repeat(100) + &"]".repeat(100);
        assert!(yaml(&deep).unwrap_err().contains("levels deep"));
    }

    #[test]
    fn json_reads_into_the_same_tree() {
        let doc = json(r#"{"skills": {"ui": {"tmvc_roots": ["src/"]}}}"#).unwrap();
        let roots = doc
            .get("skills")
            .and_then(|s| s.get("ui"))
            .and_then(|s| s.get("tmvc_roots"));
        assert_eq!(roots.unwrap().strings("x").unwrap(), vec!["src/"]);
        assert!(json("{").unwrap_err().starts_with("line 1"));
        assert!(
            json(r#"{"a": 1, "a": 2}"#)
                .unwrap_err()
                .contains("duplicate key")
        );
        let deep = "[".repeat(100) + &"]".repeat(100);
        assert!(json(&deep).unwrap_err().contains("levels deep"));
    }
}
