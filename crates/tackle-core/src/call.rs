//! [`ToolCall`]: what a model asked to run.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::message::ProviderData;
use crate::schema::json_type_name;

/// One call a model asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The id that correlates the call with its result. Adapters supply one where the
    /// provider left it out and the wire API allows that; an empty id means none could be.
    pub id: String,
    /// The tool name exactly as the model wrote it.
    pub name: String,
    /// The arguments, parsed where they were valid JSON.
    pub arguments: ToolArguments,
    /// Provider data that must be sent back with the call (for example a signature).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider_data: Option<ProviderData>,
}

impl ToolCall {
    /// A call with parsed arguments.
    pub fn new(id: impl Into<String>, name: impl Into<String>, arguments: Value) -> Self {
        ToolCall {
            id: id.into(),
            name: name.into(),
            arguments: ToolArguments::Json(arguments),
            provider_data: None,
        }
    }

    /// A call whose arguments arrived as text, parsed with [`ToolArguments::parse`].
    pub fn from_raw(id: impl Into<String>, name: impl Into<String>, raw: &str) -> Self {
        ToolCall {
            id: id.into(),
            name: name.into(),
            arguments: ToolArguments::parse(raw),
            provider_data: None,
        }
    }
}

/// The arguments of a call: parsed JSON, or the text exactly as received when it was not
/// valid JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolArguments {
    /// Valid JSON (not necessarily an object).
    Json(Value),
    /// Text that is not valid JSON, kept byte for byte.
    Invalid {
        /// The text as the model produced it.
        raw: String,
        /// What the JSON parser said.
        error: String,
    },
}

impl ToolArguments {
    /// The arguments as shown to people and telemetry: the values of `sensitive` arguments
    /// replaced by `*****`, unparsable text cut to 200 characters.
    ///
    /// ```
    /// use tackle_core::ToolArguments;
    /// let args = ToolArguments::parse(r#"{"user":"ann","password":"hunter2"}"#);
    /// assert_eq!(args.redacted(&["password".into()]).to_string(), r#"{"user":"ann","password":"*****"}"#);
    /// ```
    pub fn redacted(&self, sensitive: &[String]) -> Value {
        match self {
            ToolArguments::Json(Value::Object(map)) if !sensitive.is_empty() => Value::Object(
                map.iter()
                    .map(|(k, v)| {
                        let v = if sensitive.iter().any(|s| s == k) {
                            Value::String("*****".into())
                        } else {
                            v.clone()
                        };
                        (k.clone(), v)
                    })
                    .collect::<Map<String, Value>>(),
            ),
            ToolArguments::Json(value) => value.clone(),
            ToolArguments::Invalid { raw, .. } => Value::String(raw.chars().take(200).collect()),
        }
    }

    /// Parses argument text. Blank text counts as `{}`: providers stream an empty argument
    /// buffer for calls to tools without parameters.
    ///
    /// ```
    /// use tackle_core::ToolArguments;
    /// assert!(ToolArguments::parse("").as_object().is_some());
    /// assert!(ToolArguments::parse(r#"{"a":1}"#).as_object().is_some());
    /// let broken = ToolArguments::parse(r#"{"a":"#);
    /// assert_eq!(broken.raw_text(), r#"{"a":"#);
    /// ```
    pub fn parse(raw: &str) -> Self {
        if raw.trim().is_empty() {
            return ToolArguments::Json(Value::Object(Map::new()));
        }
        match serde_json::from_str(raw) {
            Ok(value) => ToolArguments::Json(value),
            Err(error) => ToolArguments::Invalid { raw: raw.to_owned(), error: error.to_string() },
        }
    }

    /// The arguments as an object, when they are one.
    pub fn as_object(&self) -> Option<&Map<String, Value>> {
        match self {
            ToolArguments::Json(Value::Object(map)) => Some(map),
            _ => None,
        }
    }

    /// Why these arguments cannot be passed to a tool, or `None` when they are an object.
    pub fn problem(&self) -> Option<String> {
        match self {
            ToolArguments::Json(Value::Object(_)) => None,
            ToolArguments::Json(other) => {
                Some(format!("the arguments must be a JSON object, not {}", json_type_name(other)))
            }
            ToolArguments::Invalid { error, .. } => {
                Some(format!("the arguments are not valid JSON ({error})"))
            }
        }
    }

    /// The arguments as text: compact JSON, or the raw text when they were not valid JSON.
    pub fn raw_text(&self) -> String {
        match self {
            ToolArguments::Json(value) => value.to_string(),
            ToolArguments::Invalid { raw, .. } => raw.clone(),
        }
    }
}

impl From<Value> for ToolArguments {
    fn from(value: Value) -> Self {
        ToolArguments::Json(value)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    #[test]
    fn non_objects_are_explained() {
        assert_eq!(
            ToolArguments::parse("[1,2]").problem().unwrap(),
            "the arguments must be a JSON object, not an array"
        );
        assert!(ToolArguments::parse("{").problem().unwrap().starts_with("the arguments are not valid JSON"));
        assert_eq!(ToolArguments::parse("  \n").problem(), None);
    }

    fn arb_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            (-1.0e12f64..1.0e12).prop_map(|f| json!(f)),
            ".{0,12}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec((".{0,6}", inner), 0..6)
                    .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// Arguments survive text → parse → text → parse unchanged, and key order is kept.
        #[test]
        fn argument_json_round_trips(
            pairs in prop::collection::vec(("[a-z]{1,6}", arb_json()), 0..8)
        ) {
            let object = Value::Object(pairs.into_iter().collect());
            let text = object.to_string();
            let parsed = ToolArguments::parse(&text);
            prop_assert_eq!(parsed.as_object(), object.as_object());
            prop_assert_eq!(parsed.raw_text(), text.clone());
            let call = ToolCall::from_raw("c1", "t", &text);
            let stored = serde_json::to_string(&call).unwrap();
            let back: ToolCall = serde_json::from_str(&stored).unwrap();
            prop_assert_eq!(back, call);
        }

        /// Text that is not JSON is kept exactly, through serialisation too.
        #[test]
        fn invalid_text_is_kept_verbatim(raw in ".{1,40}") {
            let args = ToolArguments::parse(&raw);
            if serde_json::from_str::<Value>(&raw).is_err() && !raw.trim().is_empty() {
                prop_assert_eq!(args.raw_text(), raw.clone());
                let stored = serde_json::to_string(&args).unwrap();
                let back: ToolArguments = serde_json::from_str(&stored).unwrap();
                prop_assert_eq!(back.raw_text(), raw);
            }
        }
    }
}
