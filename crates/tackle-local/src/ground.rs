//! Optional arguments the conversation gives no ground for. Offered a tool with optional
//! parameters, a small model fills them: `unit: "seconds"` for a shell command,
//! `county: "California"` and `city: "California"` beside `state: "California"`,
//! `directed_by: "Drama"` beside `genre: "Drama"`. A value the user never gave is an
//! invention, and the tool's own default is the better guess; so once a call is written,
//! an optional argument is kept only where the conversation grounds it:
//!
//! - a string stands in the conversation (ignoring case, not inside a word), or, for an enumeration, a word of
//!   the conversation begins it or it begins the word (`ASC` for "ascending"); a string
//!   that only repeats another argument's value goes, unless it is that value's only home
//!   (see below);
//! - a number is one of the conversation's numbers;
//! - a list holds something and all of it is grounded; an object keeps what is grounded in
//!   it and goes when nothing is left;
//! - a value equal to the parameter's default goes (the tool does the same without it);
//! - a `true` or `false` is kept: nothing in a text grounds a flag.
//!
//! A value written for a free-text argument that another optional argument's enumeration
//! names (`artist: "2015"` where `year` enumerates `"2015"`) moves there when the call
//! does not hold that argument yet. Required arguments are never touched; a schema that is
//! not a plain object of properties is left alone.

use serde_json::{Map, Value};

/// The least length of a word that may begin an enumeration's value, or that a value may
/// begin (`asc`, `ascending`).
const LEAST_WORD: usize = 3;

/// What a call's arguments may be grounded in: the conversation's text, in lower case, with
/// its words and numbers.
pub(crate) struct Ground {
    text: String,
    words: Vec<String>,
    numbers: Vec<f64>,
}

impl Ground {
    pub(crate) fn new(text: &str) -> Ground {
        let text = text.to_lowercase();
        let words = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.chars().count() >= LEAST_WORD)
            .map(str::to_owned)
            .collect();
        let numbers = text
            .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
            .filter_map(|n| n.trim_matches('.').parse::<f64>().ok())
            .filter(|n| n.is_finite())
            .flat_map(|n| [n, -n])
            .collect();
        Ground { text, words, numbers }
    }

    /// Whether `value`, for a parameter of `schema`, is grounded (see the module's docs).
    fn grounds(&self, value: &Value, schema: &Value) -> bool {
        match value {
            Value::Bool(_) => true,
            Value::Null => false,
            Value::Number(n) => n.as_f64().is_some_and(|n| self.numbers.contains(&n)),
            Value::String(s) => {
                let s = s.trim().to_lowercase();
                if s.is_empty() {
                    return false;
                }
                if stands_in(&self.text, &s) {
                    return true;
                }
                let enumerated = schema.get("enum").is_some();
                enumerated && self.words.iter().any(|w| w.starts_with(&s) || (s.starts_with(w.as_str())))
            }
            Value::Array(items) => {
                let schema = schema.get("items").unwrap_or(&Value::Null);
                !items.is_empty() && items.iter().all(|item| self.grounds(item, schema))
            }
            Value::Object(map) => !map.is_empty(),
        }
    }

    /// Drops from `arguments`, for a tool whose parameters are `schema`, the optional
    /// arguments the conversation does not ground, and moves a value to the enumeration
    /// that names it; returns the names of the arguments dropped or moved (nested ones as
    /// `outer.inner`).
    pub(crate) fn prune(&self, arguments: &mut Value, schema: &Value) -> Vec<String> {
        let mut changed = Vec::new();
        self.prune_into(arguments, schema, "", &mut changed);
        changed
    }

    fn prune_into(&self, arguments: &mut Value, schema: &Value, path: &str, changed: &mut Vec<String>) {
        let (Some(arguments), Some(properties)) =
            (arguments.as_object_mut(), schema.get("properties").and_then(Value::as_object))
        else {
            return;
        };
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let named = |name: &str| format!("{path}{name}");
        // Nested objects first: what is left of them decides whether they stay.
        for (name, value) in arguments.iter_mut() {
            if let Some(inner) = properties.get(name) {
                self.prune_into(value, inner, &format!("{}.", named(name)), changed);
            }
        }
        let optional = |name: &str| !required.contains(&name) && properties.contains_key(name);
        // A free-text value that an unwritten optional enumeration names moves there.
        let names: Vec<String> = arguments.keys().cloned().collect();
        for name in &names {
            let (Some(Value::String(text)), Some(schema)) = (arguments.get(name), properties.get(name))
            else {
                continue;
            };
            if !optional(name) || schema.get("enum").is_some() {
                continue;
            }
            let home = properties.iter().find(|(other, inner)| {
                *other != name
                    && optional(other)
                    && !arguments.contains_key(other.as_str())
                    && enumerates(inner, text)
            });
            if let Some((home, inner)) = home {
                let value = enumerated(inner, text);
                let home = home.clone();
                arguments.remove(name);
                arguments.insert(home.clone(), value);
                changed.push(named(name));
            }
        }
        let strings = |arguments: &Map<String, Value>, except: &str| -> Vec<String> {
            arguments
                .iter()
                .filter(|(other, _)| other.as_str() != except)
                .filter_map(|(_, v)| v.as_str().map(|s| s.trim().to_lowercase()))
                .collect()
        };
        let names: Vec<String> = arguments.keys().cloned().collect();
        for name in names {
            let Some(schema) = properties.get(&name) else { continue };
            if !optional(&name) {
                continue;
            }
            let Some(value) = arguments.get(&name) else { continue };
            let default = schema.get("default").is_some_and(|d| d == value);
            // A free-text value that repeats another argument's: the other holds it.
            let repeats = schema.get("enum").is_none()
                && value
                    .as_str()
                    .is_some_and(|s| strings(arguments, &name).contains(&s.trim().to_lowercase()));
            if default || repeats || !self.grounds(value, schema) {
                arguments.remove(&name);
                changed.push(named(&name));
            }
        }
    }
}

/// Whether `value` stands in `text` as a whole: not inside a word (`x` is not in "tax").
fn stands_in(text: &str, value: &str) -> bool {
    let alnum = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let starts_word = alnum(value.chars().next());
    let ends_word = alnum(value.chars().last());
    text.match_indices(value).any(|(at, _)| {
        let glued_before = starts_word && alnum(text[..at].chars().last());
        let glued_after = ends_word && alnum(text[at + value.len()..].chars().next());
        !glued_before && !glued_after
    })
}

/// Whether the enumeration of `schema` names `text` (ignoring case).
fn enumerates(schema: &Value, text: &str) -> bool {
    schema.get("enum").and_then(Value::as_array).is_some_and(|values| {
        values.iter().any(|v| v.as_str().is_some_and(|v| v.eq_ignore_ascii_case(text.trim())))
    })
}

/// The value of `schema`'s enumeration that `text` names, as the enumeration writes it.
fn enumerated(schema: &Value, text: &str) -> Value {
    schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|values| {
            values.iter().find(|v| v.as_str().is_some_and(|v| v.eq_ignore_ascii_case(text.trim()))).cloned()
        })
        .unwrap_or_else(|| Value::String(text.to_owned()))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pruned(text: &str, arguments: Value, schema: Value) -> (Value, Vec<String>) {
        let mut arguments = arguments;
        let changed = Ground::new(text).prune(&mut arguments, &schema);
        (arguments, changed)
    }

    #[test]
    fn an_optional_argument_nobody_gave_goes() {
        let schema = json!({"type": "object", "required": ["command"], "properties": {
            "command": {"type": "string"},
            "unit": {"type": "string", "enum": ["seconds", "milliseconds"], "default": "N/A"},
            "timeout": {"type": "integer"}}});
        let (kept, changed) = pruned(
            "list file in desktop using dir Desktop",
            json!({"command": "dir x", "unit": "seconds", "timeout": 30}),
            schema.clone(),
        );
        assert_eq!(kept, json!({"command": "dir x"}), "a required argument stays, grounded or not");
        assert_eq!(changed, ["unit", "timeout"]);
        let (kept, _) = pruned(
            "run ls, time it in milliseconds, give up after 30 s",
            json!({"command": "ls", "unit": "milliseconds", "timeout": 30}),
            schema,
        );
        assert_eq!(kept, json!({"command": "ls", "unit": "milliseconds", "timeout": 30}));
    }

    #[test]
    fn an_enumeration_is_grounded_by_a_word_that_begins_it() {
        let schema = json!({"type": "object", "properties": {
            "sort": {"type": "string", "enum": ["ASC", "DESC"]},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}});
        let (kept, _) = pruned(
            "sorted ascending, in Fahrenheit",
            json!({"sort": "ASC", "unit": "fahrenheit"}),
            schema.clone(),
        );
        assert_eq!(kept, json!({"sort": "ASC", "unit": "fahrenheit"}));
        let (kept, _) =
            pruned("the weather in El Gastor", json!({"sort": "DESC", "unit": "celsius"}), schema);
        assert_eq!(kept, json!({}));
    }

    #[test]
    fn a_value_repeated_for_a_free_argument_goes_and_one_an_enumeration_names_moves() {
        let schema = json!({"type": "object", "properties": {
            "directed_by": {"type": "string", "default": "dontcare"},
            "genre": {"type": "string", "enum": ["Comedy", "Drama", "dontcare"], "default": "dontcare"},
            "artist": {"type": "string"},
            "year": {"type": "string", "enum": ["2014", "2015"]}}});
        let (kept, _) = pruned(
            "We really want to see a Drama.",
            json!({"directed_by": "Drama", "genre": "Drama"}),
            schema.clone(),
        );
        assert_eq!(kept, json!({"genre": "Drama"}));
        let (kept, changed) = pruned("songs for me from 2015?", json!({"artist": "2015"}), schema.clone());
        assert_eq!(kept, json!({"year": "2015"}));
        assert_eq!(changed, ["artist"]);
        // A free value no enumeration names stays where it is.
        let (kept, _) =
            pruned("songs by Adele from 2015", json!({"artist": "Adele", "year": "2015"}), schema);
        assert_eq!(kept, json!({"artist": "Adele", "year": "2015"}));
    }

    #[test]
    fn numbers_defaults_flags_lists_and_objects() {
        let schema = json!({"type": "object", "required": ["amount"], "properties": {
            "amount": {"type": "number"},
            "discount": {"type": "number", "default": 0.0},
            "rate": {"type": "number"},
            "exempt": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "filter": {"type": "object", "properties": {"from": {"type": "string"}, "to": {"type": "string"}}}}});
        let (kept, _) = pruned(
            "a laptop for $999 at 7.5% tax, tagged work",
            json!({"amount": 999, "discount": 0.0, "rate": 7.5, "exempt": false, "tags": ["work"], "filter": {"from": "x"}}),
            schema.clone(),
        );
        assert_eq!(kept, json!({"amount": 999, "rate": 7.5, "exempt": false, "tags": ["work"]}));
        let (kept, _) = pruned(
            "from Paris, tagged work",
            json!({"amount": 1, "rate": 1.5, "tags": ["work", "home"], "filter": {"from": "Paris", "to": "Oslo"}}),
            schema,
        );
        assert_eq!(kept, json!({"amount": 1, "filter": {"from": "Paris"}}));
    }

    #[test]
    fn what_is_not_a_plain_object_schema_is_left_alone() {
        let arguments = json!({"a": "invented"});
        assert_eq!(pruned("text", arguments.clone(), json!({"$ref": "#/defs/x"})).0, arguments);
        assert_eq!(pruned("text", json!("a string"), json!({"properties": {}})).0, json!("a string"));
        assert_eq!(pruned("", json!({"a": "x"}), json!({"properties": {"a": {}}})).0, json!({}));
        // An argument the schema does not name is not this module's business.
        assert_eq!(pruned("", json!({"b": "x"}), json!({"properties": {"a": {}}})).0, json!({"b": "x"}));
    }
}
