//! Lowering a canonical JSON Schema to the OpenAPI subset Gemini's `parameters` take, for
//! models that do not read `parametersJsonSchema`.
//!
//! The subset (see the wire notes) has one `type` per schema with `nullable` for null, string
//! enums, `anyOf`, and a short list of keywords. The lowering is recursive and never fails:
//!
//! - `$ref` is inlined from `$defs` (or `definitions`); a reference to a schema that is
//!   being inlined already (recursion), or nesting past [`MAX_DEPTH`], becomes an object
//!   described in prose;
//! - a `null` type, `null` enum value or `{"type": "null"}` branch becomes `nullable`;
//!   several types become `anyOf`; `oneOf` becomes `anyOf`; `allOf` is merged;
//! - `const` becomes a one-value enum; enums of other values than strings, and every
//!   keyword outside the subset that constrains a value (`exclusiveMinimum`, `multipleOf`,
//!   an unknown `format`, …), move into the description so the model still reads them;
//! - every other keyword outside the subset is dropped: what is kept is an allowlist.

use serde_json::{Map, Value, json};

/// How deep schemas nest before the rest is described in prose.
pub(crate) const MAX_DEPTH: usize = 12;

/// How many schemas one lowering writes: references inlined many times over could
/// otherwise multiply without end.
pub(crate) const MAX_NODES: usize = 4_000;

/// The keywords of the subset; nothing else is sent.
const KEPT: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "properties",
    "required",
    "items",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "anyOf",
    "default",
    "example",
    "additionalProperties",
];

/// Keywords outside the subset that constrain a value: kept as prose.
const DESCRIBED: &[&str] = &[
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "uniqueItems",
    "patternProperties",
    "propertyNames",
    "contains",
    "minContains",
    "maxContains",
    "prefixItems",
    "dependentRequired",
    "not",
    "if",
    "then",
    "else",
];

/// The formats each type takes; any other is described.
fn format_kept(kind: Option<&str>, format: &str) -> bool {
    match kind {
        Some("string") => matches!(format, "date-time" | "enum"),
        Some("number") => matches!(format, "float" | "double"),
        Some("integer") => matches!(format, "int32" | "int64"),
        _ => false,
    }
}

/// Lowers `schema` (an object root).
pub(crate) fn lower(schema: &Map<String, Value>) -> Value {
    let defs = schema.get("$defs").or_else(|| schema.get("definitions"));
    let mut lowering = Lowering { defs, stack: Vec::new(), budget: MAX_NODES };
    lowering.node(&Value::Object(schema.clone()), 0)
}

struct Lowering<'a> {
    defs: Option<&'a Value>,
    /// The references being inlined, outermost first.
    stack: Vec<String>,
    /// How many more schemas may be written.
    budget: usize,
}

fn note(notes: &mut Vec<String>, key: &str, value: &Value) {
    let shown = match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    notes.push(format!("{key}: {shown}"));
}

fn type_name(value: &Value) -> Option<&str> {
    value.get("type").and_then(Value::as_str)
}

/// Merges `from` into `into`: properties and required lists are joined, other keywords
/// keep the first value.
fn merge(into: &mut Map<String, Value>, from: Map<String, Value>) {
    for (key, value) in from {
        match (key.as_str(), into.get_mut(&key), value) {
            ("properties", Some(Value::Object(mine)), Value::Object(theirs)) => {
                for (name, schema) in theirs {
                    mine.entry(name).or_insert(schema);
                }
            }
            ("required", Some(Value::Array(mine)), Value::Array(theirs)) => {
                for name in theirs {
                    if !mine.contains(&name) {
                        mine.push(name);
                    }
                }
            }
            (_, Some(_), _) => {}
            (_, None, value) => {
                into.insert(key, value);
            }
        }
    }
}

impl Lowering<'_> {
    fn node(&mut self, value: &Value, depth: usize) -> Value {
        let Value::Object(source) = value else {
            // `true` (anything) and other non-object schemas say nothing the subset can.
            return json!({});
        };
        if depth > MAX_DEPTH {
            return json!({"type": "object", "description": "(nested too deeply to describe)"});
        }
        if self.budget == 0 {
            return json!({"description": "(too large to describe)"});
        }
        self.budget -= 1;
        let mut map = source.clone();
        let mut notes = Vec::new();

        // Inline a reference, its siblings taking precedence.
        if let Some(reference) = map.remove("$ref") {
            let reference = reference.as_str().unwrap_or_default().to_owned();
            let name = reference
                .strip_prefix("#/$defs/")
                .or_else(|| reference.strip_prefix("#/definitions/"))
                .unwrap_or(&reference)
                .to_owned();
            let target = self.defs.and_then(|d| d.get(&name));
            match target {
                Some(target) if !self.stack.contains(&name) => {
                    self.stack.push(name);
                    let inlined = self.node(target, depth + 1);
                    self.stack.pop();
                    if let Value::Object(inlined) = inlined {
                        merge(&mut map, inlined);
                    }
                }
                Some(_) => {
                    map.entry("type").or_insert(json!("object"));
                    notes.push(format!("the same shape as {name}, nested"));
                }
                None => notes.push(format!("see {reference}")),
            }
        }
        if let Some(Value::Array(parts)) = map.remove("allOf") {
            for part in parts {
                if let Value::Object(part) = self.node(&part, depth + 1) {
                    merge(&mut map, part);
                }
            }
        }
        if let Some(one_of) = map.remove("oneOf") {
            map.entry("anyOf").or_insert(one_of);
        }

        // Null, in any of its spellings, is `nullable`.
        let mut nullable = map.get("nullable") == Some(&Value::Bool(true));
        match map.remove("type") {
            Some(Value::Array(types)) => {
                nullable |= types.iter().any(|t| t == "null");
                let mut types: Vec<Value> =
                    types.into_iter().filter(|t| t.is_string() && t != "null").collect();
                match types.len() {
                    0 => {}
                    1 => {
                        map.insert("type".into(), types.remove(0));
                    }
                    _ if !map.contains_key("anyOf") => {
                        let branches = types.into_iter().map(|t| json!({"type": t})).collect();
                        map.insert("anyOf".into(), Value::Array(branches));
                    }
                    _ => {}
                }
            }
            Some(Value::String(t)) if t == "null" => nullable = true,
            Some(t @ Value::String(_)) => {
                map.insert("type".into(), t);
            }
            // A type that names nothing says nothing.
            Some(_) | None => {}
        }
        if let Some(constant) = map.remove("const") {
            match constant {
                Value::String(_) => {
                    map.insert("enum".into(), json!([constant]));
                }
                Value::Null => nullable = true,
                other => note(&mut notes, "must be", &other),
            }
        }
        if let Some(Value::Array(values)) = map.remove("enum") {
            nullable |= values.contains(&Value::Null);
            let values: Vec<Value> = values.into_iter().filter(|v| !v.is_null()).collect();
            if values.iter().all(Value::is_string) {
                if !values.is_empty() {
                    map.insert("enum".into(), Value::Array(values));
                }
            } else {
                let shown: Vec<String> = values.iter().map(Value::to_string).collect();
                notes.push(format!("one of: {}", shown.join(", ")));
            }
        }
        if let Some(Value::Array(examples)) = map.remove("examples")
            && let Some(first) = examples.into_iter().next()
        {
            map.entry("example").or_insert(first);
        }
        if let Some(format) = map.get("format").and_then(Value::as_str)
            && !format_kept(map.get("type").and_then(Value::as_str), format)
        {
            let format = format.to_owned();
            map.remove("format");
            notes.push(format!("format: {format}"));
        }
        for key in DESCRIBED {
            if let Some(value) = map.remove(*key) {
                note(&mut notes, key, &value);
            }
        }

        // Lower what nests.
        if let Some(Value::Object(properties)) = map.get("properties") {
            let lowered: Map<String, Value> = properties
                .iter()
                .map(|(name, schema)| (name.clone(), self.node(schema, depth + 1)))
                .collect();
            if let Some(Value::Array(required)) = map.get_mut("required") {
                required.retain(|name| name.as_str().is_some_and(|n| lowered.contains_key(n)));
            }
            map.insert("properties".into(), Value::Object(lowered));
        } else {
            map.remove("properties");
            map.remove("required");
        }
        match map.get("items") {
            Some(items @ Value::Object(_)) => {
                let lowered = self.node(items, depth + 1);
                map.insert("items".into(), lowered);
            }
            Some(_) => {
                map.remove("items");
            }
            None => {}
        }
        // `true` and `false` change nothing about what the model writes; a schema does.
        if let Some(extra @ Value::Object(_)) = map.remove("additionalProperties") {
            let lowered = self.node(&extra, depth + 1);
            map.insert("additionalProperties".into(), lowered);
        }
        if let Some(Value::Array(branches)) = map.remove("anyOf") {
            let mut lowered = Vec::new();
            for branch in &branches {
                if type_name(branch) == Some("null") && branch.as_object().is_some_and(|b| b.len() == 1) {
                    nullable = true;
                    continue;
                }
                lowered.push(self.node(branch, depth + 1));
            }
            if lowered.len() == 1 {
                // One branch left: it is the schema.
                if let Some(Value::Object(only)) = lowered.pop() {
                    merge(&mut map, only);
                }
            } else if !lowered.is_empty() {
                map.insert("anyOf".into(), Value::Array(lowered));
            }
        }
        if nullable {
            map.insert("nullable".into(), Value::Bool(true));
        }
        if !notes.is_empty() {
            let extra = notes.join("; ");
            let text = match map.get("description").and_then(Value::as_str) {
                Some(d) if !d.is_empty() => format!("{d} ({extra})"),
                _ => format!("({extra})"),
            };
            map.insert("description".into(), Value::String(text));
        }
        map.retain(|key, value| KEPT.contains(&key.as_str()) && well_typed(key, value));
        if let Some(Value::Array(required)) = map.get_mut("required") {
            required.retain(Value::is_string);
        }
        Value::Object(map)
    }
}

/// Whether a kept keyword's value has the type the subset gives it (a schema that is not
/// valid JSON Schema may hold anything).
fn well_typed(key: &str, value: &Value) -> bool {
    match key {
        "type" | "format" | "title" | "description" | "pattern" => value.is_string(),
        "nullable" => value.is_boolean(),
        "enum" | "required" | "anyOf" => value.is_array(),
        "properties" | "items" | "additionalProperties" => value.is_object(),
        "minItems" | "maxItems" | "minProperties" | "maxProperties" | "minLength" | "maxLength" => {
            value.is_u64()
        }
        "minimum" | "maximum" => value.is_number(),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lowered(schema: Value) -> Value {
        lower(schema.as_object().unwrap())
    }

    #[test]
    fn nulls_become_nullable_and_unions_any_of() {
        let out = lowered(json!({
            "type": "object",
            "properties": {
                "a": {"type": ["string", "null"]},
                "b": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                "c": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
                "d": {"type": ["integer", "boolean"]},
                "e": {"enum": ["x", "y", null]},
                "f": {"const": "fixed"},
                "g": {"enum": [1, 2, 3], "type": "integer"}
            },
            "required": ["a", "missing"],
            "additionalProperties": false,
            "$schema": "https://json-schema.org/draft/2020-12/schema"
        }));
        assert_eq!(
            out,
            json!({
                "type": "object",
                "properties": {
                    "a": {"type": "string", "nullable": true},
                    "b": {"type": "integer", "nullable": true},
                    "c": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
                    "d": {"anyOf": [{"type": "integer"}, {"type": "boolean"}]},
                    "e": {"enum": ["x", "y"], "nullable": true},
                    "f": {"enum": ["fixed"]},
                    "g": {"type": "integer", "description": "(one of: 1, 2, 3)"}
                },
                "required": ["a"]
            })
        );
    }

    #[test]
    fn references_are_inlined_and_recursion_described() {
        let out = lowered(json!({
            "type": "object",
            "$defs": {
                "Node": {"type": "object", "properties": {"name": {"type": "string"}, "child": {"$ref": "#/$defs/Node"}}},
                "Unit": {"type": "string", "enum": ["c", "f"]}
            },
            "properties": {
                "tree": {"$ref": "#/$defs/Node", "description": "The root."},
                "unit": {"$ref": "#/$defs/Unit"},
                "both": {"allOf": [{"properties": {"x": {"type": "number"}}, "required": ["x"]}, {"properties": {"y": {"type": "number"}}}], "type": "object"}
            }
        }));
        assert_eq!(out["properties"]["unit"], json!({"type": "string", "enum": ["c", "f"]}));
        let tree = &out["properties"]["tree"];
        assert_eq!(tree["description"], "The root.");
        assert_eq!(tree["properties"]["name"], json!({"type": "string"}));
        assert_eq!(tree["properties"]["child"]["type"], "object");
        assert!(tree["properties"]["child"]["description"].as_str().unwrap().contains("Node"));
        assert_eq!(out["properties"]["both"]["required"], json!(["x"]));
        assert!(out.get("$defs").is_none());
    }

    #[test]
    fn constraints_outside_the_subset_are_described() {
        let out = lowered(json!({
            "type": "object",
            "properties": {
                "n": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5, "description": "A step."},
                "u": {"type": "string", "format": "uri"},
                "t": {"type": "string", "format": "date-time", "x-vendor": 1}
            }
        }));
        assert_eq!(
            out["properties"]["n"],
            json!({"type": "number", "description": "A step. (exclusiveMinimum: 0; multipleOf: 0.5)"})
        );
        assert_eq!(out["properties"]["u"], json!({"type": "string", "description": "(format: uri)"}));
        assert_eq!(out["properties"]["t"], json!({"type": "string", "format": "date-time"}));
    }

    #[test]
    fn references_that_multiply_are_bounded() {
        let mut defs = Map::new();
        for level in 0..12 {
            let next = format!("#/$defs/L{}", level + 1);
            let properties: Map<String, Value> =
                (0..10).map(|i| (format!("p{i}"), json!({"$ref": next}))).collect();
            defs.insert(format!("L{level}"), json!({"type": "object", "properties": properties}));
        }
        defs.insert("L12".into(), json!({"type": "string"}));
        let out =
            lowered(json!({"type": "object", "$defs": defs, "properties": {"root": {"$ref": "#/$defs/L0"}}}));
        let text = out.to_string();
        assert!(text.contains("too large to describe"));
        assert!(text.len() < 1_000_000, "{} bytes", text.len());
    }

    #[test]
    fn keywords_of_the_wrong_type_are_dropped() {
        let out = lowered(json!({
            "type": 666,
            "properties": {"a": {"type": [1, "string"], "description": 5, "minLength": -1, "nullable": "yes"}},
            "required": ["a", 7]
        }));
        assert_eq!(out, json!({"properties": {"a": {"type": "string"}}, "required": ["a"]}));
    }

    #[test]
    fn deep_nesting_is_bounded() {
        let mut schema = json!({"type": "string"});
        for _ in 0..40 {
            schema = json!({"type": "object", "properties": {"x": schema}});
        }
        let out = lowered(schema);
        let text = out.to_string();
        assert!(text.contains("nested too deeply"));
        assert!(text.len() < 2_000);
    }
}
