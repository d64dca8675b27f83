//! [`JsonSchema`]: a JSON Schema whose root describes an object.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// A JSON Schema document whose root is an object schema (`"type": "object"`).
///
/// Tool parameters are always objects: every provider API sends arguments as a JSON object.
/// The schema is plain JSON Schema; dialects that providers want (OpenAI strict mode,
/// Gemini's subset) are produced from it by the adapter that needs them.
///
/// Cloning is cheap: the document is shared.
///
/// ```
/// use serde_json::json;
/// use tackle_core::JsonSchema;
///
/// let schema = JsonSchema::new(json!({
///     "type": "object",
///     "properties": {"city": {"type": "string"}},
///     "required": ["city"]
/// }))?;
/// assert_eq!(schema.property_names().collect::<Vec<_>>(), ["city"]);
/// assert!(JsonSchema::new(json!({"type": "string"})).is_err());
/// # Ok::<(), tackle_core::SchemaError>(())
/// ```
#[derive(Clone, PartialEq)]
pub struct JsonSchema(Arc<Map<String, Value>>);

/// Why a value is not an object-root JSON Schema.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SchemaError {
    /// The schema is not a JSON object at all.
    #[error("a parameters schema must be a JSON object, found {found}")]
    NotAnObject {
        /// The JSON type that was found.
        found: &'static str,
    },
    /// The root does not say `"type": "object"`.
    #[error("a parameters schema must have \"type\": \"object\" at its root, found {found}")]
    RootNotObject {
        /// What the root's `type` was.
        found: String,
    },
    /// `properties` is present but is not an object.
    #[error("\"properties\" must be an object")]
    BadProperties,
    /// `required` is present but is not an array of strings.
    #[error("\"required\" must be an array of property names")]
    BadRequired,
}

pub(crate) fn json_type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl JsonSchema {
    /// Checks that `value` has an object root and wraps it.
    ///
    /// This checks the shape tackle relies on; whether the document is valid JSON Schema
    /// as a whole is checked by the tool registry, which compiles it.
    pub fn new(value: Value) -> Result<Self, SchemaError> {
        let Value::Object(map) = value else {
            return Err(SchemaError::NotAnObject { found: json_type_name(&value) });
        };
        Self::from_map(map)
    }

    /// Like [`JsonSchema::new`], from a map.
    pub fn from_map(map: Map<String, Value>) -> Result<Self, SchemaError> {
        match map.get("type") {
            Some(Value::String(t)) if t == "object" => {}
            Some(other) => {
                return Err(SchemaError::RootNotObject { found: other.to_string() });
            }
            None => return Err(SchemaError::RootNotObject { found: "no \"type\"".into() }),
        }
        if let Some(props) = map.get("properties")
            && !props.is_object()
        {
            return Err(SchemaError::BadProperties);
        }
        if let Some(required) = map.get("required") {
            let ok = required.as_array().is_some_and(|names| names.iter().all(Value::is_string));
            if !ok {
                return Err(SchemaError::BadRequired);
            }
        }
        Ok(JsonSchema(Arc::new(map)))
    }

    /// The schema of an object that takes no properties: `{"type":"object","properties":{}}`.
    pub fn empty_object() -> Self {
        let mut map = Map::new();
        map.insert("type".into(), Value::String("object".into()));
        map.insert("properties".into(), Value::Object(Map::new()));
        JsonSchema(Arc::new(map))
    }

    /// The schema document.
    pub fn as_map(&self) -> &Map<String, Value> {
        &self.0
    }

    /// The schema document as a JSON value (a copy).
    pub fn to_value(&self) -> Value {
        Value::Object((*self.0).clone())
    }

    /// The names of the root's properties, in document order.
    pub fn property_names(&self) -> impl Iterator<Item = &str> {
        self.0
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|props| props.keys().map(String::as_str))
    }

    /// The names the root lists as required.
    pub fn required_names(&self) -> impl Iterator<Item = &str> {
        self.0
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flat_map(|names| names.iter().filter_map(Value::as_str))
    }
}

impl fmt::Debug for JsonSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JsonSchema({})", Value::Object((*self.0).clone()))
    }
}

impl Serialize for JsonSchema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for JsonSchema {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        JsonSchema::new(value).map_err(serde::de::Error::custom)
    }
}

impl TryFrom<Value> for JsonSchema {
    type Error = SchemaError;

    fn try_from(value: Value) -> Result<Self, Self::Error> {
        JsonSchema::new(value)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn refuses_roots_that_are_not_objects() {
        assert_eq!(JsonSchema::new(json!([1])), Err(SchemaError::NotAnObject { found: "an array" }));
        assert!(matches!(JsonSchema::new(json!({"type": "array"})), Err(SchemaError::RootNotObject { .. })));
        assert!(matches!(JsonSchema::new(json!({})), Err(SchemaError::RootNotObject { .. })));
        assert_eq!(
            JsonSchema::new(json!({"type": "object", "properties": []})),
            Err(SchemaError::BadProperties)
        );
        assert_eq!(
            JsonSchema::new(json!({"type": "object", "required": [1]})),
            Err(SchemaError::BadRequired)
        );
    }

    #[test]
    fn keeps_property_order() {
        let schema = JsonSchema::new(json!({
            "type": "object",
            "properties": {"z": {}, "a": {}, "m": {}},
            "required": ["m"]
        }))
        .unwrap();
        assert_eq!(schema.property_names().collect::<Vec<_>>(), ["z", "a", "m"]);
        assert_eq!(schema.required_names().collect::<Vec<_>>(), ["m"]);
        let text = serde_json::to_string(&schema).unwrap();
        assert!(text.find("\"z\"") < text.find("\"a\""));
    }

    #[test]
    fn deserialising_checks_the_root() {
        let err = serde_json::from_str::<JsonSchema>(r#"{"type":"string"}"#).unwrap_err();
        assert!(err.to_string().contains("\"type\": \"object\""));
    }
}
