//! [`ToolRegistry`]: every tool, validated the same way, and the decision which of them a
//! run is offered.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt;
use std::sync::Arc;

use tackle_core::{Component, Confidence, DefinitionError, ToolDefinition};

use crate::context::RunContext;
use crate::schema::CompiledSchema;
use crate::tool::{DynTool, Prepared};
use crate::toolset::{EntryError, OfferFilter, StaticToolset, ToolEntry, Toolset};

pub(crate) struct Registered {
    pub(crate) tool: Arc<dyn DynTool>,
    pub(crate) definition: Arc<ToolDefinition>,
    pub(crate) schema: Arc<CompiledSchema>,
    pub(crate) source: String,
    pub(crate) settings_key: Arc<str>,
    filters: Vec<(String, OfferFilter)>,
}

impl Registered {
    /// `tool` registered from `source`: its definition checked and its schema compiled.
    pub(crate) fn new(
        tool: Arc<dyn DynTool>,
        source: &str,
    ) -> Result<Registered, (String, Vec<DefinitionError>)> {
        let definition = tool.definition().map_err(|e| (String::from("?"), vec![e]))?;
        let mut errors = definition.check();
        let schema = CompiledSchema::parameters(&definition.parameters).map_err(|e| errors.push(e)).ok();
        match schema {
            Some(schema) if errors.is_empty() => Ok(Registered {
                tool,
                settings_key: Arc::from(definition.name.as_str()),
                definition: Arc::new(definition),
                schema: Arc::new(schema),
                source: source.to_owned(),
                filters: Vec::new(),
            }),
            _ => Err((definition.name, errors)),
        }
    }

    /// The same tool with one more offer filter (`reason` names it in reports).
    pub(crate) fn with_filter(&self, reason: &str, filter: OfferFilter) -> Registered {
        let mut filters = self.filters.clone();
        filters.push((reason.to_owned(), filter));
        Registered {
            tool: Arc::clone(&self.tool),
            definition: Arc::clone(&self.definition),
            schema: Arc::clone(&self.schema),
            source: self.source.clone(),
            settings_key: Arc::clone(&self.settings_key),
            filters,
        }
    }
}

/// Where a harness gets its registry again when the tools can change while runs go on
/// (an MCP server that adds tools, say): asked at the start of every round.
pub trait RegistrySource: Send + Sync {
    /// A registry with the tools as they are now, when they changed since the last one this
    /// source made; `None` when nothing changed (or the new tools do not fit together,
    /// which the source reports itself).
    fn refreshed(&self) -> Option<ToolRegistry>;
}

/// Every registered tool, validated, in registration order.
#[derive(Clone)]
pub struct ToolRegistry {
    pub(crate) tools: Vec<Arc<Registered>>,
    pub(crate) index: Arc<HashMap<String, usize>>,
    pub(crate) option_sources: Arc<HashMap<String, Vec<String>>>,
}

impl ToolRegistry {
    pub(crate) fn from_parts(
        tools: Vec<Arc<Registered>>,
        index: Arc<HashMap<String, usize>>,
        option_sources: Arc<HashMap<String, Vec<String>>>,
    ) -> ToolRegistry {
        ToolRegistry { tools, index, option_sources }
    }
}

impl fmt::Debug for ToolRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.tools.iter().map(|t| &t.definition.name)).finish()
    }
}

/// One problem the registry found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryProblem {
    /// A definition breaks a rule.
    #[error("tool {tool:?} from {source_name}: {error}")]
    Invalid {
        /// The tool's name.
        tool: String,
        /// Where it came from.
        source_name: String,
        /// The rule it breaks.
        error: DefinitionError,
    },
    /// Two tools have the same name.
    #[error("tool name {name:?} is used twice: by {first} and by {second}")]
    Duplicate {
        /// The name.
        name: String,
        /// Where the first tool came from.
        first: String,
        /// Where the second came from.
        second: String,
    },
}

/// Why a registry could not be built: every problem found, not just the first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegistryError {
    /// The problems.
    pub problems: Vec<RegistryProblem>,
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} tool definition problem(s):", self.problems.len())?;
        for problem in &self.problems {
            write!(f, "\n  - {problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for RegistryError {}

/// Collects tools and toolsets, then validates them all at once.
#[derive(Default)]
#[must_use]
pub struct RegistryBuilder {
    entries: Vec<Result<ToolEntry, EntryError>>,
    components: Option<BTreeSet<Component>>,
    option_sources: HashMap<String, Vec<String>>,
}

impl RegistryBuilder {
    /// Adds one tool.
    pub fn tool(mut self, tool: impl DynTool) -> Self {
        self.entries.extend(StaticToolset::new("code").tool(tool).entries());
        self
    }

    /// Adds every tool of a toolset.
    pub fn toolset(mut self, toolset: impl Toolset) -> Self {
        self.entries.extend(toolset.entries());
        self
    }

    /// Adds entries a toolset gave earlier (kept to build the registry again when another
    /// toolset's tools change).
    pub fn entries(mut self, entries: impl IntoIterator<Item = Result<ToolEntry, EntryError>>) -> Self {
        self.entries.extend(entries);
        self
    }

    /// Declares the components of the host; definitions naming others are refused.
    pub fn components<I: IntoIterator<Item = C>, C: Into<Component>>(mut self, components: I) -> Self {
        self.components = Some(components.into_iter().map(Into::into).collect());
        self
    }

    /// Declares an option source: a named list of choices settings may refer to.
    pub fn option_source<I: IntoIterator<Item = S>, S: Into<String>>(
        mut self,
        name: impl Into<String>,
        values: I,
    ) -> Self {
        self.option_sources.insert(name.into(), values.into_iter().map(Into::into).collect());
        self
    }

    fn host_rules(&self, definition: &ToolDefinition) -> Vec<DefinitionError> {
        let mut errors = Vec::new();
        if let Some(known) = &self.components {
            let visibility = &definition.visibility;
            for component in visibility.allowed.iter().chain(&visibility.denied) {
                if !known.contains(component) {
                    errors.push(DefinitionError::UnknownComponent(component.to_string()));
                }
            }
        }
        for field in &definition.settings.fields {
            if let Some(source) = &field.option_source
                && !self.option_sources.contains_key(source)
            {
                errors.push(DefinitionError::UnknownOptionSource {
                    field: field.name.clone(),
                    source_name: source.clone(),
                });
            }
        }
        if let Some(schema) = &definition.return_schema
            && let Err(e) = CompiledSchema::compile(schema)
        {
            errors.push(DefinitionError::ReturnSchema(e));
        }
        errors
    }

    /// Validates every definition and builds the registry. Fails with every problem found.
    pub fn build(self) -> Result<ToolRegistry, RegistryError> {
        let mut problems = Vec::new();
        let mut tools: Vec<Arc<Registered>> = Vec::new();
        let mut by_name: HashMap<String, String> = HashMap::new();
        for entry in &self.entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    problems.push(RegistryProblem::Invalid {
                        tool: e.tool.clone(),
                        source_name: e.source.clone(),
                        error: e.error.clone(),
                    });
                    continue;
                }
            };
            let definition = &entry.definition;
            let invalid = |error| RegistryProblem::Invalid {
                tool: definition.name.clone(),
                source_name: entry.source.clone(),
                error,
            };
            if let Some(first) = by_name.get(&definition.name) {
                problems.push(RegistryProblem::Duplicate {
                    name: definition.name.clone(),
                    first: first.clone(),
                    second: entry.source.clone(),
                });
                continue;
            }
            by_name.insert(definition.name.clone(), entry.source.clone());
            let mut errors = definition.check();
            errors.extend(self.host_rules(definition));
            let schema = match CompiledSchema::parameters(&definition.parameters) {
                Ok(schema) => Some(schema),
                Err(e) => {
                    errors.push(e);
                    None
                }
            };
            if !errors.is_empty() {
                problems.extend(errors.into_iter().map(invalid));
                continue;
            }
            if let Some(schema) = schema {
                tools.push(Arc::new(Registered {
                    tool: Arc::clone(&entry.tool),
                    definition: Arc::new(definition.clone()),
                    schema: Arc::new(schema),
                    source: entry.source.clone(),
                    settings_key: Arc::from(entry.settings_key.as_str()),
                    filters: entry.filters.clone(),
                }));
            }
        }
        if problems.is_empty() {
            let index = tools.iter().enumerate().map(|(i, t)| (t.definition.name.clone(), i)).collect();
            Ok(ToolRegistry { tools, index: Arc::new(index), option_sources: Arc::new(self.option_sources) })
        } else {
            Err(RegistryError { problems })
        }
    }
}

/// Why a registered tool is not offered in a run.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotOffered {
    /// Tools are switched off for the whole run.
    ToolsSwitchedOff,
    /// The model cannot call tools.
    ModelCannotUseTools,
    /// The host or organisation switched the tool off.
    Disabled,
    /// The tool is not visible in this component.
    NotVisibleHere {
        /// The run's component.
        component: Component,
    },
    /// The tool's availability check said no.
    Unavailable,
    /// A toolset's filter left the tool out.
    FilteredOut {
        /// The toolset.
        toolset: String,
    },
    /// Required settings are missing.
    NotConfigured {
        /// The missing fields.
        missing: Vec<String>,
    },
    /// A setting holds a value that is not one of its choices.
    InvalidSetting {
        /// The field.
        field: String,
    },
    /// The provider is not trusted enough.
    ConfidenceTooLow {
        /// What the tool needs.
        required: Confidence,
        /// What the provider has.
        provider: Confidence,
    },
    /// The plan does not include the tool's capability.
    NotInPlan {
        /// The capability.
        capability: String,
    },
    /// The user turned the tool (or its capability) off.
    TurnedOffByUser,
    /// Temporary conversations go without tools that keep conversation state.
    TemporaryConversation,
    /// An active tag hides the tool.
    HiddenByTag {
        /// The tag.
        tag: String,
    },
    /// The tool's prepare step hid it for this run.
    HiddenForThisRun,
    /// The tool's prepare step produced an invalid definition.
    PrepareFailed {
        /// What was wrong.
        reason: String,
    },
}

impl fmt::Display for NotOffered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotOffered::ToolsSwitchedOff => f.write_str("tools are switched off"),
            NotOffered::ModelCannotUseTools => f.write_str("the model cannot use tools"),
            NotOffered::Disabled => f.write_str("switched off by the host"),
            NotOffered::NotVisibleHere { component } => write!(f, "not available in {component}"),
            NotOffered::Unavailable => f.write_str("not available in this run"),
            NotOffered::FilteredOut { toolset } => write!(f, "left out by toolset {toolset:?}"),
            NotOffered::NotConfigured { missing } => {
                write!(f, "not configured: missing {}", missing.join(", "))
            }
            NotOffered::InvalidSetting { field } => write!(f, "not configured: {field} has an invalid value"),
            NotOffered::ConfidenceTooLow { required, provider } => {
                write!(f, "needs a provider with confidence {required} or higher (this one: {provider})")
            }
            NotOffered::NotInPlan { capability } => write!(f, "the plan does not include {capability}"),
            NotOffered::TurnedOffByUser => f.write_str("turned off by the user"),
            NotOffered::TemporaryConversation => f.write_str("not used in temporary conversations"),
            NotOffered::HiddenByTag { tag } => write!(f, "hidden while {tag} is active"),
            NotOffered::HiddenForThisRun => f.write_str("hidden for this run"),
            NotOffered::PrepareFailed { reason } => write!(f, "could not be prepared: {reason}"),
        }
    }
}

/// One line of an [`AvailabilityReport`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Availability {
    /// The tool's name.
    pub name: String,
    /// Where it came from.
    pub source: String,
    /// `Ok` when offered, else why not.
    pub status: Result<(), NotOffered>,
}

/// Every registered tool, whether it is offered in a run and, if not, why.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct AvailabilityReport {
    /// One line per tool, in registration order.
    pub tools: Vec<Availability>,
}

impl AvailabilityReport {
    /// The names of the offered tools.
    pub fn offered(&self) -> impl Iterator<Item = &str> {
        self.tools.iter().filter(|t| t.status.is_ok()).map(|t| t.name.as_str())
    }

    /// The tools not offered, with the reason.
    pub fn not_offered(&self) -> impl Iterator<Item = (&str, &NotOffered)> {
        self.tools.iter().filter_map(|t| t.status.as_ref().err().map(|r| (t.name.as_str(), r)))
    }
}

/// A tool as offered in one run.
#[derive(Clone)]
pub struct OfferedTool {
    pub(crate) registered: Arc<Registered>,
    pub(crate) definition: Arc<ToolDefinition>,
    pub(crate) schema: Arc<CompiledSchema>,
}

impl OfferedTool {
    /// The definition the model is shown.
    pub fn definition(&self) -> &Arc<ToolDefinition> {
        &self.definition
    }

    /// Where the tool came from.
    pub fn source(&self) -> &str {
        &self.registered.source
    }
}

/// The tools offered in one run, in a stable order. Only these can be executed.
#[derive(Clone, Default)]
pub struct Offer {
    tools: Vec<OfferedTool>,
    index: HashMap<String, usize>,
}

impl fmt::Debug for Offer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.tools.iter().map(|t| &t.definition.name)).finish()
    }
}

impl Offer {
    /// The offered definitions, in order, for the model request.
    pub fn definitions(&self) -> Vec<Arc<ToolDefinition>> {
        self.tools.iter().map(|t| Arc::clone(&t.definition)).collect()
    }

    /// The offered tool called `name`.
    pub fn get(&self, name: &str) -> Option<&OfferedTool> {
        self.index.get(name).map(|&i| &self.tools[i])
    }

    /// How many tools are offered.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether nothing is offered.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The offered tools' names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tools.iter().map(|t| t.definition.name.as_str())
    }

    /// The policy instructions of the offered tools for the system prompt: one per group
    /// (the first tool of a group in offer order speaks for it), identical texts once,
    /// in offer order. Returns (group, text) pairs.
    pub fn policy_instructions(&self) -> Vec<(&str, &str)> {
        let mut groups = HashSet::new();
        let mut texts = HashSet::new();
        let mut out = Vec::new();
        for tool in &self.tools {
            let definition = &tool.definition;
            let (Some(group), Some(policy)) = (definition.policy_group(), &definition.policy) else {
                continue;
            };
            if groups.insert(group) && texts.insert(policy.text.trim()) {
                out.push((group, policy.text.as_str()));
            }
        }
        out
    }
}

impl ToolRegistry {
    /// Starts a registry.
    pub fn builder() -> RegistryBuilder {
        RegistryBuilder::default()
    }

    /// How many tools are registered.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether no tool is registered.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// Every registered definition, in registration order.
    pub fn definitions(&self) -> impl Iterator<Item = &ToolDefinition> {
        self.tools.iter().map(|t| &*t.definition)
    }

    /// The registered definition called `name`.
    pub fn definition(&self, name: &str) -> Option<&ToolDefinition> {
        self.index.get(name).map(|&i| &*self.tools[i].definition)
    }

    /// The tools offered in `run`, in registration order.
    pub fn offer(&self, run: &RunContext) -> Offer {
        let mut offer = Offer::default();
        for registered in &self.tools {
            if let Ok(tool) = self.evaluate(run, registered) {
                offer.index.insert(tool.definition.name.clone(), offer.tools.len());
                offer.tools.push(tool);
            }
        }
        offer
    }

    /// Every registered tool with whether it is offered in `run` and, if not, why.
    pub fn availability(&self, run: &RunContext) -> AvailabilityReport {
        AvailabilityReport {
            tools: self
                .tools
                .iter()
                .map(|registered| Availability {
                    name: registered.definition.name.clone(),
                    source: registered.source.clone(),
                    status: self.evaluate(run, registered).map(|_| ()),
                })
                .collect(),
        }
    }

    fn evaluate(&self, run: &RunContext, registered: &Arc<Registered>) -> Result<OfferedTool, NotOffered> {
        let definition = &registered.definition;
        if !run.tools_enabled {
            return Err(NotOffered::ToolsSwitchedOff);
        }
        if !run.model_supports_tools {
            return Err(NotOffered::ModelCannotUseTools);
        }
        if run.disabled_tools.contains(&definition.name) {
            return Err(NotOffered::Disabled);
        }
        if !definition.visibility.is_visible_in(&run.component) {
            return Err(NotOffered::NotVisibleHere { component: run.component.clone() });
        }
        if !registered.tool.is_available(run) {
            return Err(NotOffered::Unavailable);
        }
        if let Some((toolset, _)) = registered.filters.iter().find(|(_, keep)| !keep(run, definition)) {
            return Err(NotOffered::FilteredOut { toolset: toolset.clone() });
        }
        self.check_settings(run, registered)?;
        if !run.provider_confidence.satisfies(definition.min_confidence) {
            return Err(NotOffered::ConfidenceTooLow {
                required: definition.min_confidence,
                provider: run.provider_confidence,
            });
        }
        if let (Some(plan), Some(capability)) = (&run.plan, &definition.capability)
            && !plan.capabilities.contains(capability)
        {
            return Err(NotOffered::NotInPlan { capability: capability.clone() });
        }
        let prefs = &run.preferences;
        if prefs.disabled_tools.contains(&definition.name)
            || definition.capability.as_ref().is_some_and(|c| prefs.disabled_capabilities.contains(c))
        {
            return Err(NotOffered::TurnedOffByUser);
        }
        if run.temporary && definition.keeps_conversation_state {
            return Err(NotOffered::TemporaryConversation);
        }
        if let Some(tag) = definition.hidden_by_tags.iter().find(|t| run.active_tags.contains(*t)) {
            return Err(NotOffered::HiddenByTag { tag: tag.clone() });
        }
        let offered =
            |definition, schema| OfferedTool { registered: Arc::clone(registered), definition, schema };
        match registered.tool.prepare(run, definition) {
            Prepared::Unchanged => Ok(offered(Arc::clone(definition), Arc::clone(&registered.schema))),
            Prepared::Hidden => Err(NotOffered::HiddenForThisRun),
            Prepared::Replaced(prepared) => {
                let mut prepared = *prepared;
                prepared.name.clone_from(&definition.name);
                let fail = |reason: String| NotOffered::PrepareFailed { reason };
                if let Some(e) = prepared.check().into_iter().next() {
                    return Err(fail(e.to_string()));
                }
                let schema = if prepared.parameters == definition.parameters {
                    Arc::clone(&registered.schema)
                } else {
                    Arc::new(
                        CompiledSchema::parameters(&prepared.parameters).map_err(|e| fail(e.to_string()))?,
                    )
                };
                Ok(offered(Arc::new(prepared), schema))
            }
        }
    }

    fn check_settings(&self, run: &RunContext, registered: &Registered) -> Result<(), NotOffered> {
        let key = &*registered.settings_key;
        let mut missing = Vec::new();
        for field in &registered.definition.settings.fields {
            if !run.settings.is_set(key, field) {
                if field.required {
                    missing.push(field.name.clone());
                }
                continue;
            }
            let choices = match &field.option_source {
                Some(source) => self.option_sources.get(source).map(Vec::as_slice).unwrap_or_default(),
                None => field.choices.as_slice(),
            };
            if let (false, Some((value, _))) = (choices.is_empty(), run.settings.resolve(key, field))
                && !choices.iter().any(|c| c == value)
            {
                return Err(NotOffered::InvalidSetting { field: field.name.clone() });
            }
        }
        if missing.is_empty() { Ok(()) } else { Err(NotOffered::NotConfigured { missing }) }
    }
}
