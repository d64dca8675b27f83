//! JSON Schema derivation (schemars) and compiled validation (jsonschema).

use std::fmt::Write as _;

use serde_json::Value;
use tackle_core::{DefinitionError, JsonSchema, SchemaError};

/// The parameters schema of the argument type `T`, as tools offer it to models:
/// field doc comments become descriptions, `#[serde(default)]` fields are optional,
/// nested types stay in `$defs`. The `$schema` and `title` keys are left out.
///
/// ```
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Args {
///     /// The city to look up.
///     city: String,
///     #[serde(default)]
///     days: u8,
/// }
/// let schema = tackle_tools::schema_for::<Args>().unwrap();
/// assert_eq!(schema.required_names().collect::<Vec<_>>(), ["city"]);
/// ```
pub fn schema_for<T: schemars::JsonSchema>() -> Result<JsonSchema, SchemaError> {
    let generator =
        schemars::generate::SchemaSettings::draft2020_12().with(|s| s.meta_schema = None).into_generator();
    let schema = generator.into_root_schema_for::<T>();
    let mut value = schema.to_value();
    if let Value::Object(map) = &mut value {
        map.remove("title");
    }
    JsonSchema::new(value)
}

/// The schema generator tackle derives schemas with: JSON Schema 2020-12, no `$schema` key.
pub(crate) fn generator() -> schemars::SchemaGenerator {
    schemars::generate::SchemaSettings::draft2020_12().with(|s| s.meta_schema = None).into_generator()
}

/// A compiled argument validator.
#[derive(Debug)]
pub(crate) struct CompiledSchema {
    validator: jsonschema::Validator,
}

/// At most this many problems are listed to the model for one call.
const MAX_LISTED_PROBLEMS: usize = 5;

impl CompiledSchema {
    /// Checks that `schema` is valid JSON Schema and compiles it.
    pub(crate) fn compile(schema: &Value) -> Result<Self, String> {
        jsonschema::meta::validate(schema).map_err(|e| {
            let path = e.instance_path().to_string();
            if path.is_empty() { e.to_string() } else { format!("at {path}: {e}") }
        })?;
        let validator = jsonschema::validator_for(schema).map_err(|e| e.to_string())?;
        Ok(CompiledSchema { validator })
    }

    /// Compiles a parameters schema.
    pub(crate) fn parameters(schema: &JsonSchema) -> Result<Self, DefinitionError> {
        Self::compile(&schema.to_value()).map_err(DefinitionError::Parameters)
    }

    /// Validates `instance`; on failure, says what is wrong in words for the model.
    pub(crate) fn check(&self, instance: &Value) -> Result<(), String> {
        if self.validator.is_valid(instance) {
            return Ok(());
        }
        let mut text = String::new();
        let mut count = 0;
        for error in self.validator.iter_errors(instance) {
            count += 1;
            if count > MAX_LISTED_PROBLEMS {
                continue;
            }
            if !text.is_empty() {
                text.push_str("; ");
            }
            let path = error.instance_path().to_string();
            let location = if path.is_empty() { "arguments".to_owned() } else { format!("`{path}`") };
            let _ = write!(text, "{location}: {}", shorten(&error.to_string(), 300));
        }
        if count > MAX_LISTED_PROBLEMS {
            let _ = write!(text, "; and {} more problems", count - MAX_LISTED_PROBLEMS);
        }
        Err(text)
    }
}

/// Cuts `text` to at most `max` characters, marking the cut.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some((end, _)) => format!("{}…", &text[..end]),
    }
}

/// The user's `response` with the form's defaults filled in for the fields an accepted
/// answer leaves out (as MCP elicitation asks of clients).
pub fn with_defaults(
    request: &tackle_core::InputRequest,
    mut response: tackle_core::InputResponse,
) -> tackle_core::InputResponse {
    if response.action != tackle_core::InputAction::Accept {
        return response;
    }
    let content = response.content.get_or_insert_with(serde_json::Map::new);
    if let Some(Value::Object(properties)) = request.schema.get("properties") {
        for (name, field) in properties {
            if let Some(default) = field.get("default")
                && !content.contains_key(name)
            {
                content.insert(name.clone(), default.clone());
            }
        }
    }
    response
}

/// Checks the user's `response` to a question a call asked: an accepted answer must be an
/// object that matches the request's schema; declining or cancelling needs no content.
pub fn check_input(
    request: &tackle_core::InputRequest,
    response: &tackle_core::InputResponse,
) -> Result<(), String> {
    if response.action != tackle_core::InputAction::Accept {
        return Ok(());
    }
    let Some(content) = &response.content else {
        return Err("an accepted answer needs content".into());
    };
    let schema = CompiledSchema::compile(&request.schema)
        .map_err(|e| format!("the question's form cannot be checked: {e}"))?;
    schema.check(&Value::Object(content.clone())).map_err(|e| e.replace("arguments", "the answer"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn explains_every_problem_briefly() {
        let schema = CompiledSchema::compile(&json!({
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
            "additionalProperties": false
        }))
        .unwrap();
        assert!(schema.check(&json!({"a": 1, "b": 2})).is_ok());
        let problem = schema.check(&json!({"a": "one", "c": 1})).unwrap_err();
        assert!(problem.contains("`/a`"), "{problem}");
        assert!(problem.contains("\"b\" is a required property"), "{problem}");
        assert!(problem.contains("c"), "{problem}");
    }

    #[test]
    fn refuses_invalid_schemas() {
        let err =
            CompiledSchema::compile(&json!({"type": "object", "properties": {"a": {"type": "integr"}}}))
                .unwrap_err();
        assert!(err.contains("integr"), "{err}");
        let err = CompiledSchema::compile(&json!({"type": "object", "minProperties": -1})).unwrap_err();
        assert!(!err.is_empty());
    }

    #[test]
    fn shorten_respects_characters() {
        assert_eq!(shorten("äöü", 2), "äö…");
        assert_eq!(shorten("abc", 3), "abc");
    }
}
