//! Toolsets: named groups of tools that compose — prefixed, filtered, renamed,
//! approval-required, combined — instead of a registry that grows flags.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use tackle_core::{DefinitionError, ToolDefinition, ToolKind};

use crate::context::RunContext;
use crate::tool::DynTool;

/// A per-run filter a toolset puts on its tools.
pub(crate) type OfferFilter = Arc<dyn Fn(&RunContext, &ToolDefinition) -> bool + Send + Sync>;

/// One tool as a toolset hands it to the registry: the tool, its definition as the
/// toolset shaped it, and where it came from.
#[derive(Clone)]
pub struct ToolEntry {
    /// The tool.
    pub tool: Arc<dyn DynTool>,
    /// Its definition after renaming, prefixing and the like.
    pub definition: ToolDefinition,
    /// Where the tool came from, for error messages (`toolset "web"`).
    pub source: String,
    /// The name its settings are stored under: the name its author gave it.
    pub settings_key: String,
    pub(crate) filters: Vec<(String, OfferFilter)>,
}

impl fmt::Debug for ToolEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolEntry")
            .field("name", &self.definition.name)
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

/// A tool whose definition could not be produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryError {
    /// Where the tool came from.
    pub source: String,
    /// The tool's name as far as it is known.
    pub tool: String,
    /// What is wrong.
    pub error: DefinitionError,
}

/// A named group of tools.
pub trait Toolset: Send + Sync {
    /// The toolset's name, used in error messages and reports.
    fn name(&self) -> &str;

    /// The tools, in a stable order.
    fn entries(&self) -> Vec<Result<ToolEntry, EntryError>>;
}

impl<T: Toolset + ?Sized> Toolset for Arc<T> {
    fn name(&self) -> &str {
        (**self).name()
    }

    fn entries(&self) -> Vec<Result<ToolEntry, EntryError>> {
        (**self).entries()
    }
}

/// A fixed list of tools.
#[derive(Clone, Default)]
pub struct StaticToolset {
    name: String,
    tools: Vec<Arc<dyn DynTool>>,
}

impl StaticToolset {
    /// An empty toolset called `name`.
    pub fn new(name: impl Into<String>) -> Self {
        StaticToolset { name: name.into(), tools: Vec::new() }
    }

    /// Adds a tool.
    pub fn tool(mut self, tool: impl DynTool) -> Self {
        self.tools.push(Arc::new(tool));
        self
    }

    /// Adds a shared tool.
    pub fn shared(mut self, tool: Arc<dyn DynTool>) -> Self {
        self.tools.push(tool);
        self
    }
}

impl Toolset for StaticToolset {
    fn name(&self) -> &str {
        &self.name
    }

    fn entries(&self) -> Vec<Result<ToolEntry, EntryError>> {
        let source = format!("toolset {:?}", self.name);
        self.tools
            .iter()
            .map(|tool| match tool.definition() {
                Ok(definition) => Ok(ToolEntry {
                    tool: Arc::clone(tool),
                    settings_key: definition.name.clone(),
                    definition,
                    source: source.clone(),
                    filters: Vec::new(),
                }),
                Err(error) => Err(EntryError { source: source.clone(), tool: String::from("?"), error }),
            })
            .collect()
    }
}

fn map_entries<T: Toolset + ?Sized>(
    inner: &T,
    mut f: impl FnMut(&mut ToolEntry),
) -> Vec<Result<ToolEntry, EntryError>> {
    let mut entries = inner.entries();
    for entry in entries.iter_mut().flatten() {
        f(entry);
    }
    entries
}

/// Puts `prefix_` before every tool name (a namespace).
pub struct Prefixed<T> {
    inner: T,
    prefix: String,
}

impl<T: Toolset> Toolset for Prefixed<T> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn entries(&self) -> Vec<Result<ToolEntry, EntryError>> {
        map_entries(&self.inner, |entry| {
            entry.definition.name = format!("{}_{}", self.prefix, entry.definition.name);
        })
    }
}

/// Offers a tool only in runs where a predicate holds.
pub struct Filtered<T> {
    inner: T,
    filter: OfferFilter,
}

impl<T: Toolset> Toolset for Filtered<T> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn entries(&self) -> Vec<Result<ToolEntry, EntryError>> {
        let name = self.inner.name().to_owned();
        map_entries(&self.inner, |entry| entry.filters.push((name.clone(), Arc::clone(&self.filter))))
    }
}

/// Gives tools new names.
pub struct Renamed<T> {
    inner: T,
    names: HashMap<String, String>,
}

impl<T: Toolset> Toolset for Renamed<T> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn entries(&self) -> Vec<Result<ToolEntry, EntryError>> {
        map_entries(&self.inner, |entry| {
            if let Some(new) = self.names.get(&entry.definition.name) {
                entry.definition.name.clone_from(new);
            }
        })
    }
}

type DefinitionPredicate = Arc<dyn Fn(&ToolDefinition) -> bool + Send + Sync>;

/// Makes tools approval-required: each call waits for a human.
pub struct ApprovalRequired<T> {
    inner: T,
    only: Option<DefinitionPredicate>,
}

impl<T: Toolset> Toolset for ApprovalRequired<T> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn entries(&self) -> Vec<Result<ToolEntry, EntryError>> {
        map_entries(&self.inner, |entry| {
            let applies = self.only.as_ref().is_none_or(|only| only(&entry.definition));
            if applies && entry.definition.kind == ToolKind::Function {
                entry.definition.kind = ToolKind::ApprovalRequired;
            }
        })
    }
}

/// Lets tools run without approval that their definitions say need it: a user's explicit
/// choice (`approval = false` in the CLI's settings), never a default.
pub struct ApprovalWaived<T> {
    inner: T,
    only: DefinitionPredicate,
}

impl<T: Toolset> Toolset for ApprovalWaived<T> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn entries(&self) -> Vec<Result<ToolEntry, EntryError>> {
        map_entries(&self.inner, |entry| {
            if entry.definition.kind == ToolKind::ApprovalRequired && (self.only)(&entry.definition) {
                entry.definition.kind = ToolKind::Function;
            }
        })
    }
}

/// What a tool's calls cost, by its definition.
type PriceOf = Arc<dyn Fn(&ToolDefinition) -> Option<tackle_core::Cost> + Send + Sync>;

/// Sets what a call costs, for tools whose definitions do not say.
pub struct Priced<T> {
    inner: T,
    price: PriceOf,
}

impl<T: Toolset> Toolset for Priced<T> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn entries(&self) -> Vec<Result<ToolEntry, EntryError>> {
        map_entries(&self.inner, |entry| {
            if entry.definition.cost.is_none() {
                entry.definition.cost = (self.price)(&entry.definition);
            }
        })
    }
}

/// Several toolsets as one, in order.
#[derive(Clone)]
pub struct Combined {
    name: String,
    sets: Vec<Arc<dyn Toolset>>,
}

impl Combined {
    /// Combines `sets` under `name`.
    pub fn new(name: impl Into<String>, sets: Vec<Arc<dyn Toolset>>) -> Self {
        Combined { name: name.into(), sets }
    }
}

impl Toolset for Combined {
    fn name(&self) -> &str {
        &self.name
    }

    fn entries(&self) -> Vec<Result<ToolEntry, EntryError>> {
        self.sets.iter().flat_map(|set| set.entries()).collect()
    }
}

/// Combinators for every toolset.
pub trait ToolsetExt: Toolset + Sized {
    /// Puts `prefix_` before every tool name.
    fn prefixed(self, prefix: impl Into<String>) -> Prefixed<Self> {
        Prefixed { inner: self, prefix: prefix.into() }
    }

    /// Offers a tool only in runs where `filter` holds for it.
    fn filtered<F>(self, filter: F) -> Filtered<Self>
    where
        F: Fn(&RunContext, &ToolDefinition) -> bool + Send + Sync + 'static,
    {
        Filtered { inner: self, filter: Arc::new(filter) }
    }

    /// Renames tools: pairs of (old name, new name).
    fn renamed<I, A, B>(self, names: I) -> Renamed<Self>
    where
        I: IntoIterator<Item = (A, B)>,
        A: Into<String>,
        B: Into<String>,
    {
        Renamed { inner: self, names: names.into_iter().map(|(a, b)| (a.into(), b.into())).collect() }
    }

    /// Every call of every tool waits for a human's approval.
    fn approval_required(self) -> ApprovalRequired<Self> {
        ApprovalRequired { inner: self, only: None }
    }

    /// Gives the tools whose definitions name no cost the cost `price` returns: each call
    /// that reaches such a tool and reports no cost of its own is charged it.
    fn priced<F>(self, price: F) -> Priced<Self>
    where
        F: Fn(&ToolDefinition) -> Option<tackle_core::Cost> + Send + Sync + 'static,
    {
        Priced { inner: self, price: Arc::new(price) }
    }

    /// Calls of the tools for which `only` holds wait for a human's approval.
    fn approval_required_if<F>(self, only: F) -> ApprovalRequired<Self>
    where
        F: Fn(&ToolDefinition) -> bool + Send + Sync + 'static,
    {
        ApprovalRequired { inner: self, only: Some(Arc::new(only)) }
    }

    /// Calls of the tools for which `only` holds run without approval, even where their
    /// definitions ask for it.
    fn approval_waived_if<F>(self, only: F) -> ApprovalWaived<Self>
    where
        F: Fn(&ToolDefinition) -> bool + Send + Sync + 'static,
    {
        ApprovalWaived { inner: self, only: Arc::new(only) }
    }
}

impl<T: Toolset + Sized> ToolsetExt for T {}
