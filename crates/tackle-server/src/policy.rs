//! What a user's run is set up with: the model the organisation allows, the settings
//! layers (the server's, the organisation's `locked` and `defaults`, the user's values),
//! the organisation's secrets (opened with the server key), the user's plan and
//! preferences, a temporary conversation, and the tools the request chose. The gates are
//! the registry's own; this module feeds them from the store.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tackle_core::{Confidence, Cost, Model, Secret, Usage};
use tackle_tools::{Plan, RunContext, SecretStore, SettingOrigin, Settings, UserPreferences};

use crate::Engine;
use crate::store::{Principal, TenantRecord};

/// An organisation's policy, as kept in the store (JSON) and set with
/// `tackle serve org set`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrgPolicy {
    /// Setting values the organisation's users cannot change, by `<tool>.<field>`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub locked: BTreeMap<String, String>,
    /// The organisation's defaults, by `<tool>.<field>`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub defaults: BTreeMap<String, String>,
    /// The models its users may choose, by the server's names; absent: all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub models: Option<Vec<String>>,
    /// Tools switched off for the whole organisation.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub disabled_tools: BTreeSet<String>,
}

/// A user's own choices, as kept in the store (JSON) and set with `PUT /v1/me`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// Tools the user turned off.
    #[serde(default)]
    pub disabled_tools: BTreeSet<String>,
    /// Capabilities the user turned off.
    #[serde(default)]
    pub disabled_capabilities: BTreeSet<String>,
    /// The user's setting values, by `<tool>.<field>` (locked ones and secret fields are
    /// refused).
    #[serde(default)]
    pub settings: BTreeMap<String, String>,
}

/// What a model costs, in credits per million tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Price {
    /// Per million input tokens (cached ones at `cached_input` when set).
    pub input: Cost,
    /// Per million cached input tokens; absent: as `input`.
    pub cached_input: Option<Cost>,
    /// Per million output tokens.
    pub output: Cost,
    /// The least balance a round needs to start (a user below it is stopped before it).
    pub round_minimum: Cost,
}

impl Price {
    /// What `usage` costs, rounded up to the next millionth of a credit.
    pub fn of(&self, usage: &Usage) -> Cost {
        let per = |tokens: u64, price: Cost| u128::from(tokens) * u128::from(price.micros());
        let cached = usage.cache_read_tokens.min(usage.input_tokens);
        let total = per(usage.input_tokens - cached, self.input)
            + per(cached, self.cached_input.unwrap_or(self.input))
            + per(usage.output_tokens, self.output);
        Cost::from_micros(u64::try_from(total.div_ceil(1_000_000)).unwrap_or(u64::MAX))
    }
}

/// A model the server offers, by name.
#[derive(Clone)]
pub struct ModelEntry {
    /// The name clients choose it by.
    pub name: String,
    /// The model.
    pub model: Arc<dyn Model>,
    /// How far its provider is trusted.
    pub confidence: Confidence,
    /// What it costs, when runs are charged for it.
    pub price: Option<Price>,
}

impl std::fmt::Debug for ModelEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelEntry")
            .field("name", &self.name)
            .field("confidence", &self.confidence)
            .field("price", &self.price)
            .finish()
    }
}

/// What a run asked for, as stored with it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Asked {
    pub(crate) prompt: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) tools: Option<BTreeSet<String>>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) temporary: bool,
    /// The W3C trace context of the request that started the run, which the run's spans join.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) traceparent: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) tracestate: Option<String>,
}

/// Why a run cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SetupError {
    /// The user asked for what they may not have (a model, a tool).
    Refused(String),
    /// What the store or the server holds does not work (a damaged policy, a secret that
    /// does not open).
    Broken(String),
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::Refused(why) | SetupError::Broken(why) => f.write_str(why),
        }
    }
}

/// A run, set up: its context and model, and whether its user is metered.
pub(crate) struct Setup {
    pub(crate) ctx: RunContext,
    pub(crate) model: ModelEntry,
    pub(crate) metered: bool,
}

/// The organisation's secrets over the server's own store.
struct OrgSecrets {
    values: HashMap<String, Secret>,
    fallback: Option<Arc<dyn SecretStore>>,
}

impl SecretStore for OrgSecrets {
    fn get(&self, tool: &str, field: &str) -> Option<Secret> {
        self.values
            .get(&format!("{tool}.{field}"))
            .cloned()
            .or_else(|| self.fallback.as_ref().and_then(|store| store.get(tool, field)))
    }
}

/// Reads a stored JSON value, naming what was damaged.
fn stored<T: serde::de::DeserializeOwned + Default>(text: Option<&str>, what: &str) -> Result<T, String> {
    match text {
        None => Ok(T::default()),
        Some(text) => {
            serde_json::from_str(text).map_err(|e| format!("{what} in the store cannot be read: {e}"))
        }
    }
}

/// The organisation's policy and the user's profile from the store.
pub(crate) fn read(tenant: &TenantRecord) -> Result<(OrgPolicy, Profile), String> {
    Ok((
        stored(tenant.org_policy.as_deref(), "the organisation's policy")?,
        stored(tenant.profile.as_deref(), "the user's profile")?,
    ))
}

/// The model `asked` names (else the server's first the organisation allows), if the
/// server has it and the organisation allows it.
pub(crate) fn model<'a>(
    engine: &'a Engine,
    org: &OrgPolicy,
    asked: Option<&str>,
) -> Result<&'a ModelEntry, String> {
    let allowed = |entry: &&ModelEntry| org.models.as_ref().is_none_or(|names| names.contains(&entry.name));
    let entry = match asked {
        // The default: the server's first model that the organisation allows.
        None => engine
            .models
            .iter()
            .find(allowed)
            .ok_or("none of the server's models is allowed in your organisation")?,
        Some(name) => engine.models.iter().find(|m| m.name == name).ok_or_else(|| {
            let known: Vec<&str> = engine.models.iter().map(|m| m.name.as_str()).collect();
            format!("there is no model {name:?} (the server has {})", known.join(", "))
        })?,
    };
    match &org.models {
        Some(allowed) if !allowed.contains(&entry.name) => Err(format!(
            "model {:?} is not allowed in your organisation (allowed: {})",
            entry.name,
            allowed.join(", ")
        )),
        _ => Ok(entry),
    }
}

/// Sets up `owner`'s run `run_id` as `asked`.
pub(crate) fn setup(
    engine: &Engine,
    owner: &Principal,
    tenant: &TenantRecord,
    run_id: &str,
    asked: &Asked,
) -> Result<Setup, SetupError> {
    let (org, profile) = read(tenant).map_err(SetupError::Broken)?;
    let entry = model(engine, &org, asked.model.as_deref()).map_err(SetupError::Refused)?.clone();
    let mut ctx = (engine.context)(run_id).map_err(SetupError::Broken)?;

    // Settings: the server's locked values, then the organisation's; the user's values;
    // the organisation's defaults, then the server's values and defaults.
    let base = std::mem::take(&mut ctx.settings);
    let mut settings = Settings::new();
    let mut locked = BTreeSet::new();
    for (origin, address, value) in base.values() {
        if origin == SettingOrigin::Locked {
            settings = settings.lock(address, value);
            locked.insert(address.to_owned());
        }
    }
    for (address, value) in &org.locked {
        if locked.insert(address.clone()) {
            settings = settings.lock(address.clone(), value.clone());
        }
    }
    for (address, value) in &profile.settings {
        settings = settings.user(address.clone(), value.clone());
    }
    let mut defaulted: BTreeSet<&str> = BTreeSet::new();
    for (address, value) in &org.defaults {
        defaulted.insert(address);
        settings = settings.default_value(address.clone(), value.clone());
    }
    for wanted in [SettingOrigin::User, SettingOrigin::OrgDefault] {
        for (origin, address, value) in base.values() {
            if origin == wanted && !defaulted.contains(address) {
                settings = settings.default_value(address, value);
            }
        }
        defaulted.extend(base.values().filter(|(o, ..)| *o == wanted).map(|(_, a, _)| a));
    }
    // Secrets: the organisation's, opened with the server key, over the server's.
    let mut values = HashMap::new();
    if !tenant.sealed_secrets.is_empty() {
        let key = engine.secret_key.as_ref().ok_or_else(|| {
            SetupError::Broken(
                "the organisation has secrets but the server has no key to open them (set TACKLE_SERVER_KEY)"
                    .into(),
            )
        })?;
        for (address, sealed) in &tenant.sealed_secrets {
            let secret =
                key.open(&owner.org, address, sealed).map_err(|e| SetupError::Broken(e.to_string()))?;
            ctx.redact.push(secret.clone());
            values.insert(address.clone(), secret);
        }
    }
    let fallback = base.secret_store().cloned();
    ctx.settings = settings.secrets(Arc::new(OrgSecrets { values, fallback }));

    if let Some(plan) = &tenant.plan {
        ctx.plan = Some(Plan::new(plan.name.clone(), plan.capabilities.iter().cloned()));
    }
    ctx.preferences = UserPreferences::default()
        .disable_tools(profile.disabled_tools)
        .disable_capabilities(profile.disabled_capabilities);
    ctx.disabled_tools.extend(org.disabled_tools);
    ctx.temporary |= asked.temporary;
    ctx.trace_parent =
        asked.traceparent.as_deref().and_then(tackle_core::telemetry::parse_traceparent).map(|mut trace| {
            trace.tracestate = asked.tracestate.clone();
            trace
        });
    if let Some(chosen) = &asked.tools {
        let registry = engine.harness.registry();
        for definition in registry.definitions() {
            if !chosen.contains(&definition.name) {
                ctx.disabled_tools.insert(definition.name.clone());
            }
        }
    }
    ctx.provider_confidence = entry.confidence;
    ctx.model_supports_tools = entry.model.profile().supports_tools;
    Ok(Setup { ctx, model: entry, metered: tenant.balance_micros.is_some() })
}

/// Checks what `asked` chose against what `owner` may use: the model, and each chosen
/// tool known and offered. The reason when not.
pub(crate) fn check(
    engine: &Engine,
    owner: &Principal,
    tenant: &TenantRecord,
    asked: &Asked,
) -> Result<(), SetupError> {
    let Some(chosen) = &asked.tools else {
        return setup(engine, owner, tenant, "check", asked).map(|_| ());
    };
    // Whether each chosen tool would be offered with nothing chosen.
    let open = Asked { tools: None, ..asked.clone() };
    let setup = setup(engine, owner, tenant, "check", &open)?;
    let registry = engine.harness.registry();
    let report = registry.availability(&setup.ctx);
    for name in chosen {
        match report.tools.iter().find(|line| &line.name == name) {
            None => return Err(SetupError::Refused(format!("there is no tool {name:?}"))),
            Some(line) => {
                if let Err(why) = &line.status {
                    return Err(SetupError::Refused(format!("tool {name:?} is not offered to you: {why}")));
                }
            }
        }
    }
    Ok(())
}

/// Checks a profile a user sends: every setting addressed to a known tool's plain field,
/// and not locked by the server or the organisation.
pub(crate) fn check_profile(engine: &Engine, org: &OrgPolicy, profile: &Profile) -> Result<(), String> {
    let registry = engine.harness.registry();
    let base = (engine.context)("profile-check")?;
    for address in profile.settings.keys() {
        let (tool, field) = address
            .split_once('.')
            .ok_or_else(|| format!("setting {address:?} is not of the form <tool>.<field>"))?;
        let definition = registry
            .definitions()
            .find(|d| d.name == tool)
            .ok_or_else(|| format!("setting {address:?}: there is no tool {tool:?}"))?;
        let known = definition.settings.fields.iter().find(|f| f.name == field);
        match known {
            None => return Err(format!("setting {address:?}: tool {tool:?} has no setting {field:?}")),
            Some(f) if f.secret => {
                return Err(format!("setting {address:?} is a secret: the organisation sets it"));
            }
            Some(_) => {}
        }
        let locked_by_server =
            base.settings.values().any(|(o, a, _)| o == SettingOrigin::Locked && a == address);
        if locked_by_server || org.locked.contains_key(address) {
            return Err(format!("setting {address:?} is locked by your organisation"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_round_up_and_cached_input_costs_less() {
        let price = Price {
            input: Cost::credits(2.0),
            cached_input: Some(Cost::credits(0.5)),
            output: Cost::credits(8.0),
            round_minimum: Cost::ZERO,
        };
        let usage = Usage::default().input_tokens(1_000).output_tokens(100).cache_read_tokens(400);
        // 600 × 2 + 400 × 0.5 + 100 × 8 = 2,200 credits per million tokens.
        assert_eq!(price.of(&usage), Cost::from_micros(2_200));
        assert_eq!(price.of(&Usage::default().input_tokens(1)), Cost::from_micros(2));
        let tiny = Price { input: Cost::from_micros(1), ..Price::default() };
        assert_eq!(tiny.of(&Usage::default().input_tokens(1)), Cost::from_micros(1), "rounded up");
        assert_eq!(price.of(&Usage::default()), Cost::ZERO);
    }
}
