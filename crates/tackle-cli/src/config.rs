//! The settings file: providers, the default provider and model, limits, per-tool settings,
//! and the organisation's locked values and defaults.
//!
//! ```toml
//! provider = "openai"
//! model = "gpt-4.1-mini"
//!
//! [providers.office]            # a provider of your own, or a preset's overrides
//! api = "chat"                  # chat | responses | anthropic | gemini | vertex | bedrock
//! base_url = "http://gpu-box:8000/v1"
//! api_key_env = "OFFICE_KEY"
//! confidence = "high"
//!
//! [providers.bedrock]           # AWS: region, else AWS_REGION or the profile's
//! region = "eu-central-1"
//! [providers.vertex]            # Google Cloud: project and location, else
//! project = "my-project"        # GOOGLE_CLOUD_PROJECT / GOOGLE_CLOUD_LOCATION
//! location = "europe-west4"
//!
//! [providers.office.capabilities]  # what the model and host can do, where presets are wrong
//! tools = true
//! parallel_tool_calls = false
//!
//! [limits]
//! max_tool_calls = 20
//! max_tool_cost = 2.5           # credits the tools of one run may cost
//!
//! secrets = "file"              # keyring (default) | file, for machines without a keyring
//!
//! [tools.web_search]
//! searxng_url = "http://localhost:8888"
//! approval = true               # calls wait for `tackle approve`
//! cost = 0.01                   # credits a call costs (when the tool reports none)
//!
//! [guard]                       # the prompt-injection filter on untrusted content
//! strictness = "default"        # relaxed | default | strict; enabled = false turns it off
//! [guard.tools]
//! web_search = "strict"         # per tool: off | relaxed | default | strict
//!
//! [locked]                      # the organisation's: win over everything
//! "read_web_page.allowed_private_hosts" = ""
//! "guard.enabled" = true        # the filter stays on whatever the user's [guard] says
//! [defaults]                    # the organisation's: lose to the user's
//! "web_search.language" = "en"
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use tackle_core::Confidence;
use tackle_harness::Limits;
use tackle_tools::Settings;

use crate::failure::Failure;

/// Which wire API a provider speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Api {
    /// OpenAI Chat Completions (and compatible servers).
    Chat,
    /// OpenAI Responses.
    Responses,
    /// Anthropic Messages.
    Anthropic,
    /// Gemini `generateContent` on the Gemini API.
    Gemini,
    /// Gemini `generateContent` on Vertex AI.
    Vertex,
    /// AWS Bedrock Converse.
    Bedrock,
    /// The embedded model, in-process.
    Local,
}

/// One `[providers.NAME]` table.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ProviderEntry {
    pub(crate) api: Option<Api>,
    pub(crate) base_url: Option<String>,
    pub(crate) model: Option<String>,
    pub(crate) api_key_env: Option<String>,
    /// The name of a secret (`tackle secret set NAME`) holding the key.
    pub(crate) api_key_secret: Option<String>,
    /// A key written into the file; discouraged (use the environment or `tackle secret`).
    pub(crate) api_key: Option<tackle_core::Secret>,
    pub(crate) confidence: Option<Confidence>,
    /// The AWS region (Bedrock).
    pub(crate) region: Option<String>,
    /// The Google Cloud project (Vertex AI).
    pub(crate) project: Option<String>,
    /// The Google Cloud location (Vertex AI).
    pub(crate) location: Option<String>,
    /// What the model and host can do, where the preset (or the default) is wrong.
    #[serde(default)]
    pub(crate) capabilities: Capabilities,
}

/// `[providers.NAME.capabilities]`: declared abilities; unset ones keep the adapter's.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Capabilities {
    /// The model can call tools at all (false: runs offer it none).
    pub(crate) tools: Option<bool>,
    /// The model can make several calls in one round.
    pub(crate) parallel_tool_calls: Option<bool>,
    /// The host takes the flag that limits a round to one call.
    pub(crate) parallel_tool_calls_flag: Option<bool>,
    /// The host enforces strict tool schemas.
    pub(crate) strict_schemas: Option<bool>,
    /// The host accepts a required tool choice.
    pub(crate) tool_choice_required: Option<bool>,
    /// The host reports usage in streams.
    pub(crate) stream_usage: Option<bool>,
    /// The model takes images inside tool results.
    pub(crate) tool_result_images: Option<bool>,
}

impl Capabilities {
    /// `profile` with the declared abilities applied.
    pub(crate) fn apply(self, mut profile: tackle_core::ModelProfile) -> tackle_core::ModelProfile {
        let set = |field: &mut bool, value: Option<bool>| {
            if let Some(value) = value {
                *field = value;
            }
        };
        set(&mut profile.supports_tools, self.tools);
        set(&mut profile.supports_parallel_tool_calls, self.parallel_tool_calls);
        set(&mut profile.accepts_parallel_tool_calls_flag, self.parallel_tool_calls_flag);
        set(&mut profile.supports_strict_schemas, self.strict_schemas);
        set(&mut profile.supports_tool_choice_required, self.tool_choice_required);
        set(&mut profile.reports_stream_usage, self.stream_usage);
        set(&mut profile.accepts_tool_result_images, self.tool_result_images);
        profile
    }
}

/// The `[limits]` table.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LimitsEntry {
    pub(crate) max_tool_calls: Option<u32>,
    pub(crate) max_rounds: Option<u32>,
    pub(crate) max_result_chars: Option<u64>,
    pub(crate) max_seconds: Option<u64>,
    pub(crate) max_total_tokens: Option<u64>,
    /// Credits the tools of one run may cost together.
    pub(crate) max_tool_cost: Option<f64>,
}

/// The `[env]` table.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EnvEntry {
    /// The directory the environment tools work in, as `--dir` sets it.
    pub(crate) root: Option<PathBuf>,
}

/// The `[guard]` table.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GuardEntry {
    /// Whether the filter runs at all (default: yes).
    pub(crate) enabled: Option<bool>,
    /// `relaxed`, `default` or `strict`.
    pub(crate) strictness: Option<String>,
    /// Per tool: `off` or a strictness.
    #[serde(default)]
    pub(crate) tools: BTreeMap<String, String>,
}

/// The whole file.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FileSettings {
    pub(crate) provider: Option<String>,
    pub(crate) model: Option<String>,
    pub(crate) system: Option<String>,
    /// Where secrets live: "keyring" (default) or "file".
    pub(crate) secrets: Option<String>,
    #[serde(default)]
    pub(crate) providers: BTreeMap<String, ProviderEntry>,
    #[serde(default)]
    pub(crate) limits: LimitsEntry,
    #[serde(default)]
    pub(crate) guard: GuardEntry,
    #[serde(default)]
    pub(crate) env: EnvEntry,
    #[serde(default)]
    pub(crate) mcp: crate::mcp::McpEntry,
    #[serde(default)]
    pub(crate) tools: BTreeMap<String, toml::Table>,
    #[serde(default)]
    pub(crate) locked: BTreeMap<String, toml::Value>,
    #[serde(default)]
    pub(crate) defaults: BTreeMap<String, toml::Value>,
    /// `tackle serve`: the models it offers.
    #[serde(default)]
    pub(crate) server: ServerEntry,
    /// What each model `tackle serve` offers costs, by its name.
    #[serde(default)]
    pub(crate) prices: BTreeMap<String, PriceEntry>,
}

/// `[server]`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ServerEntry {
    /// The providers (by name) whose models clients may choose; the first is the default.
    /// Absent: the chosen provider alone.
    pub(crate) models: Option<Vec<String>>,
}

/// `[prices.<model>]`: credits per million tokens, and the least balance a round needs.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PriceEntry {
    pub(crate) input: f64,
    pub(crate) output: f64,
    pub(crate) cached_input: Option<f64>,
    #[serde(default)]
    pub(crate) round_minimum: f64,
}

impl PriceEntry {
    /// The price, refusing amounts that are negative or not numbers.
    pub(crate) fn price(&self, name: &str) -> Result<tackle_server::Price, Failure> {
        let amounts = [Some(self.input), Some(self.output), self.cached_input, Some(self.round_minimum)];
        if amounts.into_iter().flatten().any(|a| !a.is_finite() || a < 0.0) {
            return Err(Failure::usage(format!("[prices.{name}]: prices are credits, zero or more")));
        }
        Ok(tackle_server::Price {
            input: tackle_core::Cost::credits(self.input),
            cached_input: self.cached_input.map(tackle_core::Cost::credits),
            output: tackle_core::Cost::credits(self.output),
            round_minimum: tackle_core::Cost::credits(self.round_minimum),
        })
    }
}

/// The settings in force, and where the file was.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    /// The file read, or the one that would be read.
    pub(crate) path: Option<PathBuf>,
    /// Whether that file exists.
    pub(crate) loaded: bool,
    pub(crate) file: FileSettings,
    /// The environment tools' root for this invocation: `--dir`, else `[env] root`.
    pub(crate) env_root: Option<PathBuf>,
}

/// The platform's default settings file.
pub(crate) fn default_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "tackle").map(|dirs| dirs.config_dir().join("config.toml"))
}

impl Config {
    /// Reads the settings file: `explicit` (from `--config` or `TACKLE_CONFIG`) must exist;
    /// the default one may be missing.
    pub(crate) fn load(explicit: Option<&Path>) -> Result<Config, Failure> {
        let (path, required) = match explicit {
            Some(path) => (Some(path.to_path_buf()), true),
            None => (default_path(), false),
        };
        let Some(path) = path else {
            return Ok(Config { path: None, loaded: false, file: FileSettings::default(), env_root: None });
        };
        let text = match fs_err::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if !required && error.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Config {
                    path: Some(path),
                    loaded: false,
                    file: FileSettings::default(),
                    env_root: None,
                });
            }
            Err(error) => return Err(Failure::usage(format!("cannot read the settings file: {error}"))),
        };
        let file: FileSettings = toml::from_str(&text).map_err(|error| {
            Failure::usage(format!("the settings file {} is not valid: {error}", path.display()))
                .hint("see `tackle config show` and the settings reference in the README")
        })?;
        let env_root = file.env.root.clone();
        Ok(Config { path: Some(path), loaded: true, file, env_root })
    }

    /// Where the file's values are said to come from.
    pub(crate) fn origin(&self) -> String {
        self.path.as_ref().map_or_else(|| "settings file".to_owned(), |p| p.display().to_string())
    }

    /// The run limits: the file's values over the defaults.
    pub(crate) fn limits(&self) -> Limits {
        let mut limits = Limits::default();
        let entry = &self.file.limits;
        if let Some(n) = entry.max_tool_calls {
            limits.max_tool_calls = n;
        }
        if let Some(n) = entry.max_rounds {
            limits.max_rounds = n.max(1);
        }
        if let Some(n) = entry.max_result_chars {
            limits.max_result_chars = n;
        }
        if let Some(n) = entry.max_seconds {
            limits.max_duration = Some(std::time::Duration::from_secs(n));
        }
        if entry.max_total_tokens.is_some() {
            limits.max_total_tokens = entry.max_total_tokens;
        }
        if let Some(credits) = entry.max_tool_cost {
            limits.max_tool_cost = Some(tackle_core::Cost::credits(credits));
        }
        limits
    }

    /// Tool settings in their three layers.
    pub(crate) fn tool_settings(&self) -> Result<Settings, Failure> {
        let mut settings = Settings::new();
        for (tool, table) in &self.file.tools {
            for (field, value) in table {
                if field == "approval" || field == "cost" {
                    continue;
                }
                settings =
                    settings.user(format!("{tool}.{field}"), plain(value, &format!("tools.{tool}.{field}"))?);
            }
        }
        for (address, value) in &self.file.locked {
            check_address(address, "locked")?;
            if address.starts_with("guard.") {
                // The filter's own settings (see `guard_policy`), not a tool's.
                continue;
            }
            settings = settings.lock(address.clone(), plain(value, &format!("locked.{address}"))?);
        }
        for (address, value) in &self.file.defaults {
            check_address(address, "defaults")?;
            settings = settings.default_value(address.clone(), plain(value, &format!("defaults.{address}"))?);
        }
        Ok(settings)
    }

    /// The prompt-injection filter's policy: `[guard]`, with the organisation's
    /// `"guard.enabled"` and `"guard.strictness"` from `[locked]` over it. Tools named in
    /// `[guard.tools]` must be among `known`.
    pub(crate) fn guard_policy(
        &self,
        known: &[&str],
    ) -> Result<tackle_tools::untrusted::GuardPolicy, Failure> {
        use tackle_guard::Strictness;
        let level = |value: &str, key: &str| {
            Strictness::from_name(value).ok_or_else(|| {
                Failure::usage(format!("{key} = {value:?}: expected relaxed, default or strict"))
            })
        };
        let entry = &self.file.guard;
        let strictness = entry.strictness.as_deref().map(|v| level(v, "guard.strictness")).transpose()?;
        let mut policy = tackle_tools::untrusted::GuardPolicy {
            strictness: match entry.enabled {
                Some(false) => None,
                _ => Some(strictness.unwrap_or_default()),
            },
            tools: BTreeMap::new(),
        };
        for (tool, value) in &entry.tools {
            if !known.contains(&tool.as_str()) {
                return Err(Failure::usage(format!("[guard.tools] names an unknown tool {tool:?}"))
                    .hint(format!("tools: {}", known.join(", "))));
            }
            let key = format!("guard.tools.{tool}");
            let value = if value == "off" { None } else { Some(level(value, &key)?) };
            policy.tools.insert(tool.clone(), value);
        }
        let (mut forced, mut locked_level) = (None, None);
        for (address, value) in &self.file.locked {
            match (address.as_str(), value) {
                ("guard.enabled", toml::Value::Boolean(on)) => forced = Some(*on),
                ("guard.strictness", toml::Value::String(v)) => {
                    locked_level = Some(level(v, "locked.guard.strictness")?)
                }
                (other, _) if other.starts_with("guard.") => {
                    return Err(Failure::usage(format!(
                        "[locked] {other:?}: the filter's locked settings are guard.enabled (true or false) and guard.strictness"
                    )));
                }
                _ => {}
            }
        }
        if forced == Some(false) {
            return Ok(tackle_tools::untrusted::GuardPolicy { strictness: None, tools: BTreeMap::new() });
        }
        if forced == Some(true) {
            if policy.strictness.is_none() || policy.tools.values().any(Option::is_none) {
                tracing::warn!("the organisation's settings keep the prompt-injection filter on");
            }
            policy = policy.forced_on();
        }
        if let Some(locked) = locked_level {
            policy.strictness = policy.strictness.map(|_| locked);
            for value in policy.tools.values_mut() {
                *value = value.map(|_| locked);
            }
        }
        Ok(policy)
    }

    /// What a call of each tool costs, from `[tools.X] cost = CREDITS`.
    pub(crate) fn tool_costs(&self) -> Result<BTreeMap<String, tackle_core::Cost>, Failure> {
        let mut costs = BTreeMap::new();
        for (tool, table) in &self.file.tools {
            let credits = match table.get("cost") {
                None => continue,
                Some(toml::Value::Float(f)) => *f,
                Some(toml::Value::Integer(i)) => *i as f64,
                Some(_) => {
                    return Err(Failure::usage(format!("tools.{tool}.cost must be a number of credits")));
                }
            };
            if !(credits.is_finite() && credits >= 0.0) {
                return Err(Failure::usage(format!("tools.{tool}.cost must be zero or more credits")));
            }
            costs.insert(tool.clone(), tackle_core::Cost::credits(credits));
        }
        Ok(costs)
    }

    /// The tools whose calls the settings let run without approval (`approval = false`),
    /// where their definitions would ask for it.
    pub(crate) fn approval_waived(&self) -> Vec<String> {
        self.file
            .tools
            .iter()
            .filter(|(_, table)| table.get("approval") == Some(&toml::Value::Boolean(false)))
            .map(|(tool, _)| tool.clone())
            .collect()
    }

    /// The tools whose calls wait for approval (`approval = true`).
    pub(crate) fn approval_required(&self) -> Result<Vec<String>, Failure> {
        let mut tools = Vec::new();
        for (tool, table) in &self.file.tools {
            match table.get("approval") {
                None | Some(toml::Value::Boolean(false)) => {}
                Some(toml::Value::Boolean(true)) => tools.push(tool.clone()),
                Some(_) => {
                    return Err(Failure::usage(format!("tools.{tool}.approval must be true or false")));
                }
            }
        }
        Ok(tools)
    }
}

fn check_address(address: &str, table: &str) -> Result<(), Failure> {
    match address.split_once('.') {
        Some((tool, field)) if !tool.is_empty() && !field.is_empty() => Ok(()),
        _ => Err(Failure::usage(format!("[{table}] keys are `<tool>.<field>`; {address:?} is not"))),
    }
}

/// A setting value as the text tools read: strings as they are, numbers and booleans
/// written out, lists joined by newlines.
pub(crate) fn plain(value: &toml::Value, key: &str) -> Result<String, Failure> {
    Ok(match value {
        toml::Value::String(s) => s.clone(),
        toml::Value::Integer(n) => n.to_string(),
        toml::Value::Float(f) => f.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::Array(items) => {
            items.iter().map(|v| plain(v, key)).collect::<Result<Vec<_>, _>>()?.join("\n")
        }
        _ => return Err(Failure::usage(format!("{key}: expected text, a number, true/false or a list"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_file_reads() {
        let file: FileSettings = toml::from_str(
            r#"
provider = "office"
model = "m"
[providers.office]
api = "chat"
base_url = "http://gpu:8000/v1"
confidence = "high"
[limits]
max_tool_calls = 3
[tools.web_search]
searxng_url = "http://localhost:8888"
approval = true
[locked]
"web_search.language" = "de"
[defaults]
"read_web_page.allowed_private_hosts" = ["wiki.corp", "*.intra"]
"#,
        )
        .unwrap();
        let config = Config { path: None, loaded: true, file, env_root: None };
        assert_eq!(config.limits().max_tool_calls, 3);
        assert_eq!(config.approval_required().unwrap(), vec!["web_search".to_owned()]);
        let settings = config.tool_settings().unwrap();
        assert_eq!(
            settings.layered("web_search", "searxng_url").map(|(v, _)| v),
            Some("http://localhost:8888")
        );
        assert_eq!(settings.layered("web_search", "language").map(|(v, _)| v), Some("de"));
        assert_eq!(
            settings.layered("read_web_page", "allowed_private_hosts").map(|(v, _)| v),
            Some("wiki.corp\n*.intra")
        );
        assert_eq!(config.file.providers["office"].confidence, Some(Confidence::High));
    }

    #[test]
    fn a_key_in_the_file_is_a_secret_from_the_start() {
        let file: FileSettings =
            toml::from_str("[providers.office]\napi = \"chat\"\napi_key = \"sk-in-file-93\"\n").unwrap();
        let debug = format!("{file:?}");
        assert!(!debug.contains("sk-in-file-93"), "{debug}");
        assert_eq!(file.providers["office"].api_key.as_ref().unwrap().expose(), "sk-in-file-93");
    }

    #[test]
    fn mistakes_are_named() {
        let error = toml::from_str::<FileSettings>("[limits]\nmax_calls = 3\n").unwrap_err().to_string();
        assert!(error.contains("max_calls"), "{error}");
        let config = Config {
            path: None,
            loaded: true,
            file: toml::from_str("[locked]\nlanguage = \"en\"\n").unwrap(),
            env_root: None,
        };
        assert!(config.tool_settings().unwrap_err().to_string().contains("<tool>.<field>"));
    }
}
