//! OpenAI strict mode: lowering a canonical JSON Schema to the subset strict mode accepts,
//! and mapping the `null`s it makes the model send back to "absent".
//!
//! Rules (see the wire notes on strict mode): every object gets `additionalProperties:
//! false` and lists every property in `required`; a property that was optional becomes
//! nullable (`null` added to its `type`, and to its `enum` when it has one, or wrapped in
//! `anyOf` with `{"type":"null"}`); `oneOf` becomes `anyOf`; keywords strict mode does not
//! support are dropped and described in prose; `$ref` with siblings is inlined. Applied
//! recursively through `properties`, `items`, `anyOf` and `$defs`.

// The cache of lowered schemas and the parameters as sent serve the OpenAI adapters
// (Gemini uses the cache alone); without them they go unused.
#![cfg_attr(not(feature = "openai"), allow(dead_code))]

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use serde::Serialize;
use serde_json::{Map, Value, json};
use tackle_core::ToolDefinition;

/// Why a schema cannot be made strict; the adapter then sends it non-strict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotStrict(pub String);

/// Strict forms of tool schemas, lowered once per definition: the tools offered change
/// rarely, rounds come often. Keyed by the definition's address and checked against it, so a
/// definition dropped and another allocated in its place is lowered afresh.
#[derive(Debug, Default)]
pub(crate) struct Lowered {
    cache: Mutex<HashMap<usize, (Weak<ToolDefinition>, LoweredSchema)>>,
}

/// A schema's strict form, or why it has none.
type LoweredSchema = Result<Arc<Value>, String>;

/// How many strict forms are kept (the oldest half forgotten beyond it).
const LOWERED_KEPT: usize = 1024;

impl Lowered {
    pub(crate) fn get(&self, definition: &Arc<ToolDefinition>) -> LoweredSchema {
        self.get_with(definition, |schema| lower(schema).map_err(|why| why.0))
    }

    /// The form `lower` makes of `definition`'s schema, made once per definition.
    pub(crate) fn get_with(
        &self,
        definition: &Arc<ToolDefinition>,
        lower: impl FnOnce(&Map<String, Value>) -> Result<Value, String>,
    ) -> LoweredSchema {
        let key = Arc::as_ptr(definition) as usize;
        let mut cache = self.cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((weak, lowered)) = cache.get(&key)
            && weak.upgrade().is_some_and(|d| Arc::ptr_eq(&d, definition))
        {
            return lowered.clone();
        }
        let lowered = lower(definition.parameters.as_map()).map(Arc::new);
        if cache.len() >= LOWERED_KEPT {
            cache.retain(|_, (weak, _)| weak.strong_count() > 0);
        }
        if cache.len() < LOWERED_KEPT {
            cache.insert(key, (Arc::downgrade(definition), lowered.clone()));
        }
        lowered
    }
}

/// A tool's parameters as sent: its own schema, borrowed, or the strict form lowered once
/// and shared by every round that offers the tool.
#[derive(Debug)]
pub(crate) enum Parameters<'a> {
    Schema(&'a Map<String, Value>),
    Lowered(std::sync::Arc<Value>),
}

impl Serialize for Parameters<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Parameters::Schema(schema) => schema.serialize(serializer),
            Parameters::Lowered(lowered) => lowered.serialize(serializer),
        }
    }
}

const UNSUPPORTED: &[&str] = &[
    "minLength",
    "maxLength",
    "patternProperties",
    "unevaluatedProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "unevaluatedItems",
    "contains",
    "minContains",
    "maxContains",
    "uniqueItems",
    "prefixItems",
];
const FORMATS: &[&str] =
    &["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];
const MAX_DEPTH: usize = 10;

/// Lowers `schema` (an object root) to OpenAI strict mode.
pub fn lower(schema: &Map<String, Value>) -> Result<Value, NotStrict> {
    let mut root = Value::Object(schema.clone());
    let defs = schema.get("$defs").cloned();
    if schema.contains_key("anyOf") || schema.contains_key("oneOf") {
        return Err(NotStrict("the root is a union".into()));
    }
    node(&mut root, defs.as_ref(), 0)?;
    Ok(root)
}

fn describe(map: &mut Map<String, Value>, notes: &[String]) {
    if notes.is_empty() {
        return;
    }
    let extra = notes.join(", ");
    let text = match map.get("description").and_then(Value::as_str) {
        Some(d) if !d.is_empty() => format!("{d} ({extra})"),
        _ => format!("({extra})"),
    };
    map.insert("description".into(), Value::String(text));
}

fn node(value: &mut Value, defs: Option<&Value>, depth: usize) -> Result<(), NotStrict> {
    if depth > MAX_DEPTH {
        return Err(NotStrict(format!("nesting deeper than {MAX_DEPTH} levels")));
    }
    let Value::Object(map) = value else { return Ok(()) };
    // A `$ref` must stand alone: inline it when it has siblings.
    if map.contains_key("$ref") && map.len() > 1 {
        let reference = map.get("$ref").and_then(Value::as_str).unwrap_or_default().to_owned();
        let target = reference
            .strip_prefix("#/$defs/")
            .and_then(|name| defs.and_then(|d| d.get(name)))
            .ok_or_else(|| NotStrict(format!("cannot inline {reference}")))?;
        map.remove("$ref");
        if let Value::Object(target) = target {
            for (k, v) in target {
                map.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
    }
    for key in ["allOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas"] {
        if key == "allOf"
            && let Some(Value::Array(parts)) = map.get("allOf")
            && parts.len() == 1
        {
            let only = parts[0].clone();
            map.remove("allOf");
            if let Value::Object(only) = only {
                for (k, v) in only {
                    map.entry(k).or_insert(v);
                }
            }
            continue;
        }
        if map.contains_key(key) {
            return Err(NotStrict(format!("`{key}` is not supported in strict mode")));
        }
    }
    if let Some(one_of) = map.remove("oneOf") {
        map.insert("anyOf".into(), one_of);
    }
    let mut notes = Vec::new();
    for key in UNSUPPORTED {
        if let Some(v) = map.remove(*key) {
            notes.push(format!("{key}: {v}"));
        }
    }
    if let Some(format) = map.get("format").and_then(Value::as_str)
        && !FORMATS.contains(&format)
    {
        notes.push(format!("format: {format}"));
        map.remove("format");
    }
    if map.get("default") == Some(&Value::Null) {
        map.remove("default");
    }
    describe(map, &notes);

    let is_object = match map.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
        None => map.contains_key("properties"),
        _ => false,
    };
    if is_object {
        let required: Vec<String> = match map.get("required") {
            Some(Value::Array(names)) => names.iter().filter_map(|n| n.as_str().map(str::to_owned)).collect(),
            _ => Vec::new(),
        };
        let mut properties = match map.remove("properties") {
            Some(Value::Object(properties)) => properties,
            None => Map::new(),
            Some(_) => return Err(NotStrict("`properties` is not an object".into())),
        };
        for (name, schema) in properties.iter_mut() {
            node(schema, defs, depth + 1)?;
            if !required.contains(name) {
                make_nullable(schema);
            }
        }
        let names: Vec<String> = properties.keys().cloned().collect();
        map.insert("properties".into(), Value::Object(properties));
        map.insert("required".into(), json!(names));
        match map.get("additionalProperties") {
            None | Some(Value::Bool(false)) => {}
            Some(Value::Bool(true)) | Some(Value::Object(_)) => {
                return Err(NotStrict(
                    "open objects (additionalProperties) are not allowed in strict mode".into(),
                ));
            }
            _ => {}
        }
        map.insert("additionalProperties".into(), Value::Bool(false));
    }
    if let Some(items) = map.get_mut("items") {
        node(items, defs, depth + 1)?;
    }
    if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
        for branch in branches {
            node(branch, defs, depth + 1)?;
        }
    }
    if let Some(Value::Object(definitions)) = map.get_mut("$defs") {
        for (_, definition) in definitions.iter_mut() {
            node(definition, defs, depth + 1)?;
        }
    }
    Ok(())
}

/// Makes a property schema accept `null` as well.
fn make_nullable(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    match map.get_mut("type") {
        Some(Value::String(t)) if t != "null" => {
            let t = t.clone();
            map.insert("type".into(), json!([t, "null"]));
        }
        Some(Value::Array(types)) if !types.iter().any(|t| t == "null") => types.push(json!("null")),
        Some(_) => {}
        None => {
            if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
                if !branches.iter().any(|b| b.get("type") == Some(&json!("null"))) {
                    branches.push(json!({"type": "null"}));
                }
                return;
            }
            let original = std::mem::take(map);
            map.insert("anyOf".into(), json!([Value::Object(original), {"type": "null"}]));
            return;
        }
    }
    if let Some(Value::Array(values)) = map.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
}

/// Removes the `null`s strict mode made the model send for optional properties, so that
/// the arguments validate against the canonical schema again.
pub fn strip_optional_nulls(schema: &Map<String, Value>, arguments: &mut Value) {
    let Value::Object(args) = arguments else { return };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let properties = schema.get("properties").and_then(Value::as_object);
    args.retain(|name, value| !value.is_null() || required.contains(&name.as_str()));
    if let Some(properties) = properties {
        for (name, value) in args.iter_mut() {
            if let Some(Value::Object(sub)) = properties.get(name) {
                strip_optional_nulls(sub, value);
                if let (Some(Value::Object(items)), Value::Array(elements)) = (sub.get("items"), &mut *value)
                {
                    for element in elements {
                        strip_optional_nulls(items, element);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    #[test]
    fn optional_becomes_nullable_and_everything_required_recursively() {
        let schema = obj(json!({
            "type": "object",
            "properties": {
                "city": {"type": "string", "maxLength": 80},
                "unit": {"type": "string", "enum": ["c", "f"]},
                "days": {"type": "integer"},
                "where": {"type": "object", "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}}, "required": ["lat"]},
                "tags": {"type": "array", "items": {"type": "object", "properties": {"k": {"type": "string"}}}},
                "either": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                "ref": {"$ref": "#/$defs/Place", "description": "a place"}
            },
            "required": ["city"],
            "$defs": {"Place": {"type": "object", "properties": {"name": {"type": "string"}}}}
        }));
        let lowered = lower(&schema).unwrap();
        assert_eq!(lowered["required"], json!(["city", "unit", "days", "where", "tags", "either", "ref"]));
        assert_eq!(lowered["additionalProperties"], false);
        let p = &lowered["properties"];
        assert_eq!(p["city"]["type"], "string");
        assert_eq!(p["city"]["description"], "(maxLength: 80)");
        assert_eq!(p["unit"]["type"], json!(["string", "null"]));
        assert_eq!(p["unit"]["enum"], json!(["c", "f", null]));
        assert_eq!(p["where"]["required"], json!(["lat", "lon"]));
        assert_eq!(p["where"]["properties"]["lon"]["type"], json!(["number", "null"]));
        assert_eq!(p["where"]["additionalProperties"], false);
        assert_eq!(p["tags"]["items"]["additionalProperties"], false);
        assert_eq!(p["tags"]["items"]["required"], json!(["k"]));
        assert_eq!(p["either"]["anyOf"][2], json!({"type": "null"}));
        assert!(p["ref"].get("$ref").is_none());
        assert_eq!(p["ref"]["required"], json!(["name"]));
        assert_eq!(lowered["$defs"]["Place"]["additionalProperties"], false);
    }

    #[test]
    fn what_cannot_be_strict_is_refused() {
        assert!(lower(&obj(json!({"type": "object", "properties": {"a": {"allOf": [{"type": "string"}, {"minLength": 1}]}}}))).is_err());
        assert!(lower(&obj(json!({"type": "object", "additionalProperties": {"type": "string"}}))).is_err());
        let ok = lower(&obj(json!({"type": "object"}))).unwrap();
        assert_eq!(
            ok,
            json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false})
        );
    }

    #[test]
    fn nulls_for_optional_fields_become_absent() {
        let schema = obj(json!({
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}, "o": {"type": "object", "properties": {"x": {"type": "integer"}}}},
            "required": ["a"]
        }));
        let mut args = json!({"a": null, "b": null, "o": {"x": null}});
        strip_optional_nulls(&schema, &mut args);
        assert_eq!(args, json!({"a": null, "o": {}}));
    }
}
