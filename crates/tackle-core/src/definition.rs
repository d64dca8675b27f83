//! [`ToolDefinition`]: the canonical description of a tool, wherever it came from.

use std::collections::BTreeSet;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::name::{NameError, validate_tool_name};
use crate::policy::{Confidence, Visibility};
use crate::schema::JsonSchema;
use crate::usage::Cost;

/// How a tool's calls are carried out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolKind {
    /// Run by the executor as soon as the model asks.
    #[default]
    Function,
    /// Carried out by the host application outside tackle; the run suspends.
    External,
    /// Handed to another worker; the run suspends until the result is supplied.
    Deferred,
    /// Runs only after a human approved the call; the run suspends until then.
    ApprovalRequired,
}

/// Text a tool adds to the system prompt while it is offered.
///
/// Instructions with the same group are merged: one per group reaches the prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PolicyInstruction {
    /// The group; tools that share instructions name the same group. Defaults to the tool
    /// name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// The instruction text.
    pub text: String,
}

/// One setting a tool reads: a string value, possibly required, possibly secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct SettingField {
    /// The field name; settings are addressed as `<tool>.<field>`.
    pub name: String,
    /// What the setting means, for the person configuring it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Without a value the tool is "not configured" and is not offered.
    #[serde(default)]
    pub required: bool,
    /// The value is a secret: it lives in a secret store and is never shown.
    #[serde(default)]
    pub secret: bool,
    /// A named list of choices maintained by the host (never together with `choices`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option_source: Option<String>,
    /// An inline list of choices (never together with `option_source`).
    #[serde(default, rename = "enum", skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<String>,
    /// A group for display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// The value used when nobody set one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
}

impl SettingField {
    /// An optional plain field.
    pub fn new(name: impl Into<String>) -> Self {
        SettingField {
            name: name.into(),
            description: String::new(),
            required: false,
            secret: false,
            option_source: None,
            choices: Vec::new(),
            group: None,
            default: None,
        }
    }

    /// Marks the field required.
    pub fn required(mut self) -> Self {
        self.required = true;
        self
    }

    /// Marks the field secret.
    pub fn secret(mut self) -> Self {
        self.secret = true;
        self
    }

    /// Sets the description.
    pub fn describe(mut self, description: impl Into<String>) -> Self {
        self.description = description.into();
        self
    }

    /// Limits the values to `choices`.
    pub fn choices<I: IntoIterator<Item = S>, S: Into<String>>(mut self, choices: I) -> Self {
        self.choices = choices.into_iter().map(Into::into).collect();
        self
    }

    /// Takes the choices from a named option source.
    pub fn option_source(mut self, source: impl Into<String>) -> Self {
        self.option_source = Some(source.into());
        self
    }

    /// Sets the default value.
    pub fn default_value(mut self, value: impl Into<String>) -> Self {
        self.default = Some(value.into());
        self
    }

    /// Puts the field in a display group.
    pub fn group(mut self, group: impl Into<String>) -> Self {
        self.group = Some(group.into());
        self
    }
}

/// The settings a tool reads, in display order.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SettingsSchema {
    /// The fields.
    pub fields: Vec<SettingField>,
}

impl SettingsSchema {
    /// Whether the tool reads no settings.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// The field called `name`.
    pub fn field(&self, name: &str) -> Option<&SettingField> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// The canonical definition of a tool.
///
/// The same shape serves tools written in Rust, tools from MCP servers and tools from
/// files; the tool registry validates all of them the same way. The fields that shape what
/// the model sees are `name`, `description`, `parameters` and `strict`; the rest is policy
/// for the executor, the registry and the harness.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct ToolDefinition {
    /// The name the model calls the tool by: 1–64 of `[A-Za-z0-9_-]`.
    pub name: String,
    /// What the tool does, for the model.
    #[serde(default)]
    pub description: String,
    /// The arguments, as a JSON Schema with an object root.
    pub parameters: JsonSchema,
    /// The shape of a successful result, when the tool promises one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_schema: Option<Value>,
    /// Whether the tool prefers strict schema enforcement where a provider offers it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
    /// Calls of this tool run alone, in the position the model gave them.
    #[serde(default)]
    pub sequential: bool,
    /// How long one call may take; the executor's default applies when unset.
    #[serde(default, with = "duration_ms", skip_serializing_if = "Option::is_none")]
    pub timeout: Option<Duration>,
    /// How many correction requests the model gets in a row before the run fails;
    /// the executor's default applies when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_retries: Option<u32>,
    /// Unexpected failures may be retried by the executor: calling twice does no harm.
    #[serde(default)]
    pub idempotent: bool,
    /// How calls are carried out.
    #[serde(default)]
    pub kind: ToolKind,
    /// Capability tags (for grouping and policy).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// The tool is hidden while any of these tags is active in the run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hidden_by_tags: Vec<String>,
    /// Text for the system prompt while the tool is offered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<PolicyInstruction>,
    /// The lowest provider confidence the tool may be offered to.
    #[serde(default)]
    pub min_confidence: Confidence,
    /// The components the tool may be offered in.
    #[serde(default, skip_serializing_if = "Visibility::is_unrestricted")]
    pub visibility: Visibility,
    /// The settings the tool reads.
    #[serde(default, skip_serializing_if = "SettingsSchema::is_empty")]
    pub settings: SettingsSchema,
    /// Results contain content from outside (web pages, mail) that must be treated as
    /// untrusted.
    #[serde(default)]
    pub returns_untrusted_content: bool,
    /// Argument names whose values never appear in traces or logs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sensitive_arguments: Vec<String>,
    /// What one call costs, as far as it is known in advance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
    /// The plan capability that switches the tool on (`web_search`, `memory`, ...); a tool
    /// without one is not gated by plans.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capability: Option<String>,
    /// The tool keeps conversation state (memory, canvas); temporary conversations do
    /// without it.
    #[serde(default)]
    pub keeps_conversation_state: bool,
    /// One sentence saying when to use the tool, for small models that choose by reading
    /// short texts (the embedded model's router reads it instead of the description's first
    /// sentence, and tool search weighs it); at most [`MAX_ROUTING_HINT`] characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub routing_hint: Option<String>,
}

/// The longest [`ToolDefinition::routing_hint`], in characters.
pub const MAX_ROUTING_HINT: usize = 200;

/// A rule a [`ToolDefinition`] breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DefinitionError {
    /// The name is not usable.
    #[error("invalid name {name:?}: {source}")]
    Name {
        /// The name.
        name: String,
        /// What is wrong with it.
        source: NameError,
    },
    /// The parameters are not valid JSON Schema.
    #[error("parameters are not a valid JSON Schema: {0}")]
    Parameters(String),
    /// The return schema is not valid JSON Schema.
    #[error("return schema is not a valid JSON Schema: {0}")]
    ReturnSchema(String),
    /// A component is both allowed and denied.
    #[error("component {0:?} is both allowed and denied")]
    VisibilityConflict(String),
    /// A component is not one the host declared.
    #[error("component {0:?} is not a known component")]
    UnknownComponent(String),
    /// A setting field name is blank, malformed or repeated.
    #[error("setting field {0:?} must be a unique name of ASCII letters, digits, '_' or '-'")]
    SettingName(String),
    /// A setting group is whitespace only.
    #[error("setting field {0:?} has a blank group")]
    SettingGroup(String),
    /// A setting declares both an option source and inline choices.
    #[error("setting field {0:?} declares both an option source and inline choices")]
    SettingChoiceConflict(String),
    /// A setting names an option source the host does not provide.
    #[error("setting field {field:?} uses the unknown option source {source_name:?}")]
    UnknownOptionSource {
        /// The field.
        field: String,
        /// The option source it named.
        source_name: String,
    },
    /// A setting's inline choices are empty strings or repeated.
    #[error("setting field {0:?} has blank or repeated choices")]
    SettingChoices(String),
    /// A setting's default is not one of its choices.
    #[error("setting field {field:?} defaults to {value:?}, which is not one of its choices")]
    SettingDefault {
        /// The field.
        field: String,
        /// The default.
        value: String,
    },
    /// A secret setting has a default value (secrets never live in definitions).
    #[error("secret setting field {0:?} must not have a default")]
    SecretDefault(String),
    /// A sensitive argument name is not one of the parameters.
    #[error("sensitive argument {0:?} is not a parameter")]
    SensitiveArgument(String),
    /// The policy instruction or its group is blank.
    #[error("policy instruction text and group must not be blank")]
    BlankPolicy,
    /// A tag is blank.
    #[error("tags must not be blank")]
    BlankTag,
    /// The capability key is blank.
    #[error("capability must not be blank")]
    BlankCapability,
    /// The timeout is zero.
    #[error("timeout must be longer than zero")]
    ZeroTimeout,
    /// The routing hint is blank or longer than [`MAX_ROUTING_HINT`] characters.
    #[error("routing hint must be one short sentence (1-{MAX_ROUTING_HINT} characters)")]
    RoutingHint,
}

fn is_identifier(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

impl ToolDefinition {
    /// The first sentence of the description, at most 200 characters (`…` where cut).
    pub fn summary(&self) -> String {
        let description = self.description.as_str();
        let first = description.split_inclusive(['.', '\n']).next().unwrap_or(description).trim();
        let short: String = first.chars().take(200).collect();
        if short.len() < first.len() { format!("{short}…") } else { short }
    }

    /// A function tool with these essentials and every policy field at its default.
    pub fn new(name: impl Into<String>, description: impl Into<String>, parameters: JsonSchema) -> Self {
        ToolDefinition {
            name: name.into(),
            description: description.into(),
            parameters,
            return_schema: None,
            strict: None,
            sequential: false,
            timeout: None,
            max_retries: None,
            idempotent: false,
            kind: ToolKind::Function,
            tags: Vec::new(),
            hidden_by_tags: Vec::new(),
            policy: None,
            min_confidence: Confidence::None,
            visibility: Visibility::default(),
            settings: SettingsSchema::default(),
            returns_untrusted_content: false,
            sensitive_arguments: Vec::new(),
            cost: None,
            capability: None,
            keeps_conversation_state: false,
            routing_hint: None,
        }
    }

    /// The routing hint, trimmed, when it says anything (definitions that skipped
    /// [`ToolDefinition::check`] may hold a blank one).
    pub fn hint(&self) -> Option<&str> {
        self.routing_hint.as_deref().map(str::trim).filter(|h| !h.is_empty())
    }

    /// Checks every rule that needs nothing but the definition itself. Compiling the
    /// schemas and checking components and option sources against what the host declared
    /// is the registry's part.
    pub fn check(&self) -> Vec<DefinitionError> {
        let mut errors = Vec::new();
        if let Err(source) = validate_tool_name(&self.name) {
            errors.push(DefinitionError::Name { name: self.name.clone(), source });
        }
        for component in &self.visibility.allowed {
            if self.visibility.denied.contains(component) {
                errors.push(DefinitionError::VisibilityConflict(component.to_string()));
            }
        }
        let mut seen = BTreeSet::new();
        for field in &self.settings.fields {
            if !is_identifier(&field.name) || !seen.insert(field.name.as_str()) {
                errors.push(DefinitionError::SettingName(field.name.clone()));
            }
            if field.group.as_deref().is_some_and(|g| g.trim().is_empty()) {
                errors.push(DefinitionError::SettingGroup(field.name.clone()));
            }
            if field.option_source.is_some() && !field.choices.is_empty() {
                errors.push(DefinitionError::SettingChoiceConflict(field.name.clone()));
            }
            let mut choices = BTreeSet::new();
            if field.choices.iter().any(|c| c.trim().is_empty() || !choices.insert(c.as_str())) {
                errors.push(DefinitionError::SettingChoices(field.name.clone()));
            }
            if let Some(default) = &field.default {
                if field.secret {
                    errors.push(DefinitionError::SecretDefault(field.name.clone()));
                } else if !field.choices.is_empty() && !field.choices.contains(default) {
                    errors.push(DefinitionError::SettingDefault {
                        field: field.name.clone(),
                        value: default.clone(),
                    });
                }
            }
        }
        for argument in &self.sensitive_arguments {
            if !self.parameters.property_names().any(|p| p == argument) {
                errors.push(DefinitionError::SensitiveArgument(argument.clone()));
            }
        }
        if let Some(policy) = &self.policy
            && (policy.text.trim().is_empty() || policy.group.as_deref().is_some_and(|g| g.trim().is_empty()))
        {
            errors.push(DefinitionError::BlankPolicy);
        }
        if self.tags.iter().chain(&self.hidden_by_tags).any(|t| t.trim().is_empty()) {
            errors.push(DefinitionError::BlankTag);
        }
        if self.capability.as_deref().is_some_and(|c| c.trim().is_empty()) {
            errors.push(DefinitionError::BlankCapability);
        }
        if self.timeout == Some(Duration::ZERO) {
            errors.push(DefinitionError::ZeroTimeout);
        }
        if self
            .routing_hint
            .as_deref()
            .is_some_and(|h| h.trim().is_empty() || h.chars().count() > MAX_ROUTING_HINT || h.contains('\n'))
        {
            errors.push(DefinitionError::RoutingHint);
        }
        errors
    }

    /// The group this tool's policy instruction belongs to.
    pub fn policy_group(&self) -> Option<&str> {
        self.policy.as_ref().map(|p| p.group.as_deref().unwrap_or(&self.name))
    }

    /// Whether `argument` must be kept out of traces and logs.
    pub fn is_sensitive(&self, argument: &str) -> bool {
        self.sensitive_arguments.iter().any(|a| a == argument)
    }
}

mod duration_ms {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(
        value: &Option<Duration>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(d) => serializer.serialize_u64(u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
            None => serializer.serialize_none(),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Duration>, D::Error> {
        Ok(Option::<u64>::deserialize(deserializer)?.map(Duration::from_millis))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn schema() -> JsonSchema {
        JsonSchema::new(
            json!({"type": "object", "properties": {"city": {"type": "string"}, "key": {"type": "string"}}}),
        )
        .unwrap()
    }

    #[test]
    fn a_plain_definition_passes() {
        assert_eq!(ToolDefinition::new("weather", "Get the weather", schema()).check(), vec![]);
    }

    #[test]
    fn a_routing_hint_is_one_short_sentence_and_survives_a_round_trip() {
        let mut def = ToolDefinition::new("weather", "Get the weather", schema());
        def.routing_hint = Some("Use when the user asks about the weather somewhere.".into());
        assert_eq!(def.check(), vec![]);
        let back: ToolDefinition = serde_json::from_value(serde_json::to_value(&def).unwrap()).unwrap();
        assert_eq!(back, def);
        for bad in [" ".to_owned(), "x".repeat(MAX_ROUTING_HINT + 1), "Two\nlines.".to_owned()] {
            def.routing_hint = Some(bad);
            assert_eq!(def.check(), vec![DefinitionError::RoutingHint]);
        }
        // Without one, nothing is written.
        def.routing_hint = None;
        assert!(serde_json::to_value(&def).unwrap().get("routing_hint").is_none());
    }

    #[test]
    fn every_rule_is_checked() {
        let mut def = ToolDefinition::new("bad name", "", schema());
        def.visibility.allowed = vec!["chat".into()];
        def.visibility.denied = vec!["chat".into()];
        def.settings.fields = vec![
            SettingField::new("lang").option_source("languages").choices(["en"]),
            SettingField::new("lang"),
            SettingField::new("unit").choices(["c", "f"]).default_value("k"),
            SettingField::new("key").secret().default_value("abc"),
            SettingField::new("g").group("  "),
            SettingField::new("dupes").choices(["a", "a"]),
            SettingField::new(""),
        ];
        def.sensitive_arguments = vec!["password".into()];
        def.policy = Some(PolicyInstruction { group: Some(" ".into()), text: "x".into() });
        def.tags = vec![" ".into()];
        def.capability = Some(String::new());
        def.timeout = Some(Duration::ZERO);
        let errors = def.check();
        let texts: Vec<String> = errors.iter().map(ToString::to_string).collect();
        for expected in [
            "invalid name \"bad name\"",
            "component \"chat\" is both allowed and denied",
            "declares both an option source and inline choices",
            "setting field \"lang\" must be a unique name",
            "defaults to \"k\"",
            "secret setting field \"key\" must not have a default",
            "setting field \"g\" has a blank group",
            "setting field \"dupes\" has blank or repeated choices",
            "setting field \"\" must be a unique name",
            "sensitive argument \"password\" is not a parameter",
            "policy instruction",
            "tags must not be blank",
            "capability must not be blank",
            "timeout must be longer than zero",
        ] {
            assert!(texts.iter().any(|t| t.contains(expected)), "missing {expected:?} in {texts:#?}");
        }
    }

    #[test]
    fn definitions_read_from_files_reject_typos() {
        let ok: ToolDefinition = serde_json::from_value(json!({
            "name": "weather",
            "description": "Get the weather",
            "parameters": {"type": "object", "properties": {}},
            "timeout": 1500,
            "settings": [{"name": "api_key", "required": true, "secret": true}]
        }))
        .unwrap();
        assert_eq!(ok.timeout, Some(Duration::from_millis(1500)));
        assert!(ok.settings.field("api_key").is_some_and(|f| f.secret));
        let err = serde_json::from_value::<ToolDefinition>(json!({
            "name": "weather", "parameters": {"type": "object"}, "sequentail": true
        }))
        .unwrap_err();
        assert!(err.to_string().contains("sequentail"), "{err}");
        let back: ToolDefinition = serde_json::from_value(serde_json::to_value(&ok).unwrap()).unwrap();
        assert_eq!(back, ok);
    }

    #[test]
    fn policy_group_defaults_to_the_name() {
        let mut def = ToolDefinition::new("weather", "", schema());
        assert_eq!(def.policy_group(), None);
        def.policy = Some(PolicyInstruction { group: None, text: "Use it".into() });
        assert_eq!(def.policy_group(), Some("weather"));
    }
}
