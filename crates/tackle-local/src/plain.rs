//! Tool schemas as the local model reads them. Generators write a parameter in shapes
//! that say the same thing indirectly: schemars and pydantic put an enumeration in `$defs`
//! behind a `$ref`, schemars writes one whose values have doc comments as a `oneOf` of
//! `const`s, and an optional parameter is `"type": ["string", "null"]` or an `anyOf` with a
//! `null` branch. Everything here that reads a schema — the one-line summary the model is
//! shown, the router's evidence, which spans a parameter copies, what its grammar admits —
//! reads `enum`, `type` and `format` where they stand, so it saw nothing in those shapes:
//! `grep`'s `output_mode` was shown to the model as `value`, and an MCP server's
//! `Optional[Literal[…]]` had no values to copy.
//!
//! [`plain`] rewrites such shapes in place: a local `$ref` is replaced by what it names
//! (its own annotations, a description or a default, kept over the target's; where it sets
//! a constraint the target sets otherwise, it stays a reference), a union of
//! constants becomes an `enum`, and `null` leaves unions and type lists (a call never
//! needs to write `null` for a parameter it can leave out). Every value the result admits is
//! admitted by the original, so a call written against it stays valid against the tool's
//! own schema. A recursive `$ref` stays as it is (the definitions stay too), and inlining
//! stops at a budget of nodes, so a schema from a server cannot make it unbounded.

use serde_json::{Map, Value};

/// The most schema nodes inlining may add, whatever the schema (definitions used many times
/// inside one another grow exponentially when inlined).
const INLINE_BUDGET: usize = 20_000;

/// The deepest a reference is inlined (objects inside objects): a chain of definitions that
/// each wrap the next would otherwise nest as deep as the budget allows.
const INLINE_DEPTH: usize = 48;

/// Keywords whose value is a map of subschemas.
const SCHEMA_MAPS: &[&str] = &["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/// Keywords whose value is one subschema.
const SCHEMA_ONE: &[&str] = &["items", "additionalProperties", "not", "contains", "propertyNames"];

/// Keywords whose value is a list of subschemas.
const SCHEMA_LISTS: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems"];

/// `schema` rewritten as the module describes; `None` when nothing in it needed it.
pub(crate) fn plain(schema: &Map<String, Value>) -> Option<Map<String, Value>> {
    let mut defs = Map::new();
    for key in ["$defs", "definitions"] {
        if let Some(Value::Object(map)) = schema.get(key) {
            for (name, def) in map {
                defs.insert(format!("#/{key}/{}", escape_pointer(name)), def.clone());
            }
        }
    }
    let mut walk = Walk { defs: &defs, stack: Vec::new(), budget: INLINE_BUDGET, depth: 0, changed: false };
    let out = walk.object(schema);
    walk.changed.then_some(out)
}

/// A name as a JSON Pointer writes it (`~` as `~0`, `/` as `~1`).
fn escape_pointer(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

struct Walk<'a> {
    /// The root's definitions by the `$ref` that names them.
    defs: &'a Map<String, Value>,
    /// The definitions being inlined, outermost first: one met again is recursive.
    stack: Vec<String>,
    /// Nodes inlining may still add.
    budget: usize,
    /// How many objects deep the walk stands.
    depth: usize,
    changed: bool,
}

impl Walk<'_> {
    fn schema(&mut self, value: &Value) -> Value {
        match value {
            Value::Object(map) => Value::Object(self.object(map)),
            other => other.clone(),
        }
    }

    fn object(&mut self, map: &Map<String, Value>) -> Map<String, Value> {
        self.depth += 1;
        let out = self.object_at_depth(map);
        self.depth -= 1;
        out
    }

    fn object_at_depth(&mut self, map: &Map<String, Value>) -> Map<String, Value> {
        // A local reference, not recursive, within the budget and the depth: what it
        // names, under this object's own keywords.
        if let Some(Value::String(target)) = map.get("$ref")
            && self.depth <= INLINE_DEPTH
            && let Some(def) = self.defs.get(target).and_then(Value::as_object)
            && !self.stack.contains(target)
            && agrees(map, def)
        {
            let size = nodes(def);
            if size <= self.budget {
                self.budget -= size;
                self.changed = true;
                self.stack.push(target.clone());
                let mut out = self.object(def);
                self.stack.pop();
                for (key, value) in map {
                    if key != "$ref" {
                        out.insert(key.clone(), self.keyword(key, value));
                    }
                }
                return self.simplified(out);
            }
        }
        let out = map.iter().map(|(key, value)| (key.clone(), self.keyword(key, value))).collect();
        self.simplified(out)
    }

    fn keyword(&mut self, key: &str, value: &Value) -> Value {
        match value {
            Value::Object(map) if SCHEMA_MAPS.contains(&key) => {
                Value::Object(map.iter().map(|(name, inner)| (name.clone(), self.schema(inner))).collect())
            }
            Value::Object(_) if SCHEMA_ONE.contains(&key) => self.schema(value),
            Value::Array(list) if SCHEMA_LISTS.contains(&key) => {
                Value::Array(list.iter().map(|inner| self.schema(inner)).collect())
            }
            // Values (`enum`, `const`, `default`, `examples`) and annotations are data.
            other => other.clone(),
        }
    }

    /// Unions and type lists of one object, its subschemas already rewritten.
    fn simplified(&mut self, mut out: Map<String, Value>) -> Map<String, Value> {
        // `"type": ["string", "null"]`: the one type that is not null.
        if let Some(Value::Array(types)) = out.get("type") {
            let kept: Vec<Value> = types.iter().filter(|t| t.as_str() != Some("null")).cloned().collect();
            if kept.len() < types.len() && !kept.is_empty() {
                let kept = if kept.len() == 1 { kept[0].clone() } else { Value::Array(kept) };
                out.insert("type".to_owned(), kept);
                self.changed = true;
            }
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            let Some(Value::Array(branches)) = out.get(key) else { continue };
            let kept: Vec<&Value> = if key == "allOf" {
                branches.iter().collect()
            } else {
                branches.iter().filter(|b| !is_null(b)).collect()
            };
            if kept.is_empty() {
                continue;
            }
            if let Some(values) = constants(&kept)
                && key != "allOf"
            {
                // A union of constants: an enumeration (of one type where they share it).
                out.remove(key);
                out.insert("enum".to_owned(), Value::Array(values.clone()));
                if !out.contains_key("type")
                    && let Some(kind) = shared_type(&values)
                {
                    out.insert("type".to_owned(), Value::String(kind.to_owned()));
                }
                self.changed = true;
            } else if kept.len() == 1
                && let Some(branch) = kept[0].as_object()
                && branch.keys().all(|k| !out.contains_key(k) || k == "description" || k == "title")
            {
                // One branch left: it is the schema, under this object's own keywords.
                let mut merged = branch.clone();
                out.remove(key);
                for (k, v) in out {
                    merged.insert(k, v);
                }
                out = merged;
                self.changed = true;
            } else if kept.len() < branches.len() {
                let kept: Vec<Value> = kept.into_iter().cloned().collect();
                out.insert(key.to_owned(), Value::Array(kept));
                self.changed = true;
            }
        }
        out
    }
}

/// Keywords that describe a schema without constraining it: beside a `$ref`, this
/// object's own take the place of what it names.
const ANNOTATIONS: &[&str] =
    &["description", "title", "default", "examples", "deprecated", "readOnly", "writeOnly"];

/// Whether the keywords beside a `$ref` (`map`) and those of what it names (`def`) may be
/// joined into one object: no constraint is in both with different values (both apply to
/// the original; one of them would be lost).
fn agrees(map: &Map<String, Value>, def: &Map<String, Value>) -> bool {
    map.iter()
        .filter(|(key, _)| *key != "$ref" && !ANNOTATIONS.contains(&key.as_str()))
        .all(|(key, value)| def.get(key).is_none_or(|other| other == value))
}

/// Whether `branch` admits only `null`.
fn is_null(branch: &Value) -> bool {
    branch.get("type").and_then(Value::as_str) == Some("null")
        || branch.get("const").is_some_and(Value::is_null)
}

/// The values of branches that are each a constant or an enumeration of scalars (and say
/// nothing else but their type, a title or a description); `None` otherwise.
fn constants(branches: &[&Value]) -> Option<Vec<Value>> {
    let mut values = Vec::new();
    for branch in branches {
        let map = branch.as_object()?;
        if !map.keys().all(|k| matches!(k.as_str(), "const" | "enum" | "type" | "title" | "description")) {
            return None;
        }
        match (map.get("const"), map.get("enum")) {
            (Some(value), None) if !value.is_object() && !value.is_array() && !value.is_null() => {
                values.push(value.clone())
            }
            (None, Some(Value::Array(list)))
                if list.iter().all(|v| !v.is_object() && !v.is_array() && !v.is_null()) =>
            {
                values.extend(list.iter().cloned())
            }
            _ => return None,
        }
    }
    Some(values)
}

/// The JSON type every value has, where they share one.
fn shared_type(values: &[Value]) -> Option<&'static str> {
    let kind = |v: &Value| match v {
        Value::String(_) => Some("string"),
        Value::Bool(_) => Some("boolean"),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some("integer"),
        Value::Number(_) => Some("number"),
        _ => None,
    };
    let first = kind(values.first()?)?;
    values.iter().all(|v| kind(v) == Some(first)).then_some(first)
}

/// How many JSON nodes `map` holds.
fn nodes(map: &Map<String, Value>) -> usize {
    fn count(value: &Value) -> usize {
        match value {
            Value::Object(map) => 1 + map.values().map(count).sum::<usize>(),
            Value::Array(list) => 1 + list.iter().map(count).sum::<usize>(),
            _ => 1,
        }
    }
    1 + map.values().map(count).sum::<usize>()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn plain_of(schema: Value) -> Value {
        let map = schema.as_object().expect("an object").clone();
        plain(&map).map_or(Value::Null, Value::Object)
    }

    #[test]
    fn an_enumeration_behind_a_reference_is_read_where_it_is_used() {
        // schemars: an enum whose values carry doc comments, in `$defs`, with a default.
        let schema = json!({
            "type": "object",
            "properties": {
                "pattern": {"type": "string"},
                "output_mode": {"$ref": "#/$defs/OutputMode", "default": "content"}
            },
            "$defs": {"OutputMode": {"oneOf": [
                {"description": "Matching lines.", "type": "string", "const": "content"},
                {"description": "The files that match.", "type": "string", "const": "files_with_matches"},
                {"description": "Matching lines per file.", "type": "string", "const": "count"}
            ]}}
        });
        let out = plain_of(schema);
        assert_eq!(
            out["properties"]["output_mode"],
            json!({"type": "string", "enum": ["content", "files_with_matches", "count"], "default": "content"})
        );
        assert_eq!(out["properties"]["pattern"], json!({"type": "string"}));
    }

    #[test]
    fn an_optional_parameter_reads_as_what_it_holds() {
        // pydantic: `Optional[Literal["celsius", "fahrenheit"]]` and `Optional[AnyUrl]`;
        // schemars: `Option<usize>`.
        let schema = json!({
            "type": "object",
            "properties": {
                "unit": {"anyOf": [{"enum": ["celsius", "fahrenheit"], "type": "string"}, {"type": "null"}], "default": null, "title": "Unit"},
                "url": {"anyOf": [{"type": "string", "format": "uri", "minLength": 1}, {"type": "null"}], "description": "The page"},
                "limit": {"type": ["integer", "null"], "format": "uint", "minimum": 0}
            }
        });
        let out = plain_of(schema);
        assert_eq!(out["properties"]["unit"]["enum"], json!(["celsius", "fahrenheit"]));
        assert!(out["properties"]["unit"].get("anyOf").is_none());
        assert_eq!(
            out["properties"]["url"],
            json!({"type": "string", "format": "uri", "minLength": 1, "description": "The page"})
        );
        assert_eq!(out["properties"]["limit"]["type"], "integer");
    }

    #[test]
    fn what_it_cannot_say_plainly_stays_as_it_was() {
        // Already plain: nothing to do.
        assert_eq!(plain_of(json!({"type": "object", "properties": {"q": {"type": "string"}}})), Value::Null);
        // A union of two real shapes keeps both, without `null`.
        let out = plain_of(json!({"type": "object", "properties": {"v": {"anyOf": [
            {"type": "integer"}, {"type": "string"}, {"type": "null"}
        ]}}}));
        assert_eq!(out["properties"]["v"]["anyOf"], json!([{"type": "integer"}, {"type": "string"}]));
        // A recursive definition is inlined once and then left as a reference.
        let out = plain_of(json!({"type": "object", "properties": {"tree": {"$ref": "#/$defs/Node"}},
            "$defs": {"Node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}}}));
        assert_eq!(
            out["properties"]["tree"]["properties"]["children"]["items"],
            json!({"$ref": "#/$defs/Node"})
        );
        assert!(out["$defs"]["Node"].is_object());
        // A constraint beside a reference that differs from the one it names: both apply,
        // so the reference stays.
        let out = plain_of(json!({"type": "object", "properties": {
            "code": {"$ref": "#/$defs/Code", "maxLength": 5},
            "note": {"type": ["string", "null"]}
        }, "$defs": {"Code": {"type": "string", "maxLength": 10}}}));
        assert_eq!(out["properties"]["code"], json!({"$ref": "#/$defs/Code", "maxLength": 5}));
        // Values are data, never read as schemas.
        let out = plain_of(
            json!({"type": "object", "properties": {"x": {"type": ["string", "null"], "default": {"anyOf": []}}}}),
        );
        assert_eq!(out["properties"]["x"]["default"], json!({"anyOf": []}));
    }

    #[test]
    fn a_chain_of_definitions_is_inlined_only_so_deep() {
        // Each definition holds the next: inlined whole, some 3,000 objects deep (as far as
        // the budget goes), deeper than a thread's stack allows the walk to recurse.
        let mut defs = Map::new();
        defs.insert("D5000".to_owned(), json!({"type": "string"}));
        for level in 0..5000 {
            let next = format!("#/$defs/D{}", level + 1);
            defs.insert(
                format!("D{level}"),
                json!({"type": "object", "properties": {"next": {"$ref": next}}}),
            );
        }
        let schema = json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/D0"}}, "$defs": defs});
        let out = plain_of(schema);
        fn depth(value: &Value) -> usize {
            match value {
                Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
                Value::Array(list) => 1 + list.iter().map(depth).max().unwrap_or(0),
                _ => 0,
            }
        }
        let x = &out["properties"]["x"];
        assert!(depth(x) <= 3 * INLINE_DEPTH, "{}", depth(x));
        assert!(depth(x) > INLINE_DEPTH, "{}", depth(x));
    }

    #[test]
    fn definitions_used_inside_one_another_stay_within_a_budget() {
        // Each level uses the one below twice: inlining it whole would take 2^40 nodes.
        let mut defs = Map::new();
        defs.insert("L0".to_owned(), json!({"type": "string"}));
        for level in 1..40 {
            let below = format!("#/$defs/L{}", level - 1);
            defs.insert(
                format!("L{level}"),
                json!({"type": "object", "properties": {"a": {"$ref": below}, "b": {"$ref": below}}}),
            );
        }
        let schema = json!({"type": "object", "properties": {"top": {"$ref": "#/$defs/L39"}}, "$defs": defs});
        let out = plain_of(schema);
        let size = nodes(out.as_object().expect("an object"));
        assert!(size < INLINE_BUDGET * 3, "{size}");
    }
}
