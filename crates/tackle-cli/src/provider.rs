//! Choosing the model: flags over environment over the settings file, every preset of
//! `tackle-providers` by name, and providers of the user's own.

use tackle_core::{Confidence, Model, Secret};
use tackle_providers::{Anthropic, OpenAiChat, OpenAiResponses, PRESETS, Preset, SetupError, preset_named};

use crate::cli::ProviderArgs;
use crate::config::{Api, Capabilities, Config, ProviderEntry};
use crate::failure::Failure;
use crate::secrets::Backend;

/// A provider, resolved: everything needed to build the model, and where each part came from.
#[derive(Debug, Clone)]
pub(crate) struct Chosen {
    pub(crate) name: String,
    pub(crate) name_origin: String,
    pub(crate) api: Api,
    pub(crate) preset: Preset,
    pub(crate) base_url: Option<String>,
    pub(crate) model: String,
    pub(crate) model_origin: String,
    pub(crate) key: Option<Secret>,
    /// Where the key came from, or where it would be looked for.
    pub(crate) key_origin: String,
    pub(crate) confidence: Confidence,
    /// Abilities the settings file declares for the model and host.
    pub(crate) capabilities: Capabilities,
}

/// Hosts that run on the user's own machine or network: fully trusted by default.
const SELF_HOSTED: &[&str] = &["ollama", "vllm", "llamacpp", "lmstudio"];
/// Hubs that route to hosts nobody named.
const HUBS: &[&str] = &["openrouter"];

fn provider_names() -> String {
    let mut names = vec!["local", "openai", "openai-responses", "anthropic"];
    names.extend(PRESETS.iter().map(|p| p.name).filter(|n| *n != "openai"));
    names.join(", ")
}

/// Resolves the provider from `flags` and `config`; `None` when nothing names one.
pub(crate) fn choose(flags: &ProviderArgs, config: &Config) -> Result<Option<Chosen>, Failure> {
    let (name, name_origin) = match (&flags.provider, &config.file.provider) {
        (Some(name), _) => (name.clone(), "--provider or TACKLE_PROVIDER".to_owned()),
        (None, Some(name)) => (name.clone(), config.origin()),
        (None, None) => return Ok(None),
    };
    let entry = config.file.providers.get(&name).cloned().unwrap_or_default();
    if name == "local" || entry.api == Some(Api::Local) {
        let model = flags.model.clone().or(entry.model.clone()).or(config.file.model.clone());
        return Ok(Some(local(model, name_origin)));
    }
    let (api, preset) = match name.as_str() {
        "openai-responses" => (Api::Responses, openai()),
        "anthropic" => (Api::Anthropic, anthropic_preset()),
        other => match (preset_named(other), entry.api) {
            (Some(preset), api) => (api.unwrap_or(Api::Chat), *preset),
            (None, Some(api)) => {
                if entry.base_url.is_none() {
                    return Err(Failure::usage(format!("provider {other:?} has no base_url")).hint(format!(
                        "add `base_url = \"http://host:port/v1\"` under [providers.{other}]"
                    )));
                }
                (api, custom_preset())
            }
            (None, None) => {
                return Err(Failure::usage(format!("unknown provider {other:?}"))
                    .hint(format!("known providers: {}", provider_names()))
                    .hint(format!("or describe it in the settings file under [providers.{other}] with `api` and `base_url`")));
            }
        },
    };
    let (model, model_origin) = match (&flags.model, &entry.model, &config.file.model) {
        (Some(model), _, _) => (model.clone(), "--model or TACKLE_MODEL".to_owned()),
        (None, Some(model), _) => (model.clone(), format!("{} [providers.{name}]", config.origin())),
        (None, None, Some(model)) => (model.clone(), config.origin()),
        (None, None, None) => {
            return Err(Failure::usage(format!("no model chosen for provider {name}"))
                .hint("pass --model NAME, or set `model = \"NAME\"` in the settings file"));
        }
    };
    let base_url = flags.base_url.clone().or(entry.base_url.clone());
    let (key, key_origin) = key(&name, &preset, &entry, config)?;
    let confidence = entry.confidence.unwrap_or(if SELF_HOSTED.contains(&name.as_str()) {
        Confidence::High
    } else if HUBS.contains(&name.as_str()) {
        Confidence::Unknown
    } else {
        Confidence::Medium
    });
    Ok(Some(Chosen {
        name,
        name_origin,
        api,
        preset,
        base_url,
        model,
        model_origin,
        key,
        key_origin,
        confidence,
        capabilities: entry.capabilities,
    }))
}

/// The name of the default local model.
pub(crate) const DEFAULT_LOCAL_MODEL: &str = "smollm2-135m";

/// The embedded model: `model` is the default's name or a GGUF file.
pub(crate) fn local(model: Option<String>, origin: String) -> Chosen {
    let (model, model_origin) = match model {
        Some(model) => (model, origin.clone()),
        None => (DEFAULT_LOCAL_MODEL.to_owned(), "the default local model".to_owned()),
    };
    Chosen {
        name: "local".to_owned(),
        name_origin: origin,
        api: Api::Local,
        preset: custom_preset(),
        base_url: None,
        model,
        model_origin,
        key: None,
        key_origin: "not needed".to_owned(),
        // In-process: nothing leaves the machine.
        confidence: Confidence::High,
        capabilities: Capabilities::default(),
    }
}

/// The key: written in the file, else the secret the file names, else the preset's (or
/// the file's) environment variable, else a secret called like that variable.
fn key(
    name: &str,
    preset: &Preset,
    entry: &ProviderEntry,
    config: &Config,
) -> Result<(Option<Secret>, String), Failure> {
    if let Some(key) = &entry.api_key {
        return Ok((Some(key.clone()), format!("{} [providers.{name}] api_key", config.origin())));
    }
    let secrets = || Backend::chosen(config);
    if let Some(secret) = &entry.api_key_secret {
        return Ok((secrets()?.get(secret), format!("secret {secret}")));
    }
    let env = entry.api_key_env.clone().or_else(|| preset.api_key_env.map(str::to_owned));
    Ok(match env {
        Some(env) => match Secret::from_env(&env) {
            Some(key) => (Some(key), format!("environment variable {env}")),
            None => match secrets()?.get(&env) {
                Some(key) => (Some(key), format!("secret {env}")),
                None => (None, format!("environment variable {env} or secret {env}")),
            },
        },
        None => (None, "not needed".to_owned()),
    })
}

fn openai() -> Preset {
    preset_named("openai").copied().unwrap_or_else(custom_preset)
}

fn anthropic_preset() -> Preset {
    Preset {
        name: "anthropic",
        api_key_env: Some("ANTHROPIC_API_KEY"),
        requires_key: true,
        ..custom_preset()
    }
}

/// A host described in the settings file: an OpenAI-compatible server (its base URL is
/// set on the model), with a key only if the file names one.
fn custom_preset() -> Preset {
    let mut preset = preset_named("vllm").copied().unwrap_or(PRESETS[0]);
    preset.name = "custom";
    preset.api_key_env = None;
    preset.requires_key = false;
    preset
}

/// The model to run.
pub(crate) enum Built {
    /// A provider's API.
    Remote(Box<dyn Model>),
    /// The embedded model.
    Local(tackle_local::LocalModel),
}

/// Builds the model (loading, and first fetching, the local one).
pub(crate) async fn build(chosen: &Chosen) -> Result<Built, Failure> {
    if chosen.api == Api::Local {
        return Ok(Built::Local(crate::local::load(&chosen.model).await?));
    }
    Ok(Built::Remote(build_remote(chosen)?))
}

fn build_remote(chosen: &Chosen) -> Result<Box<dyn Model>, Failure> {
    let setup = |error: SetupError| {
        let failure = Failure::usage(format!("cannot use provider {}: {error}", chosen.name));
        match error {
            SetupError::MissingKey { env, .. } => failure.hint(format!(
                "set {env}, or `api_key_env` under [providers.{}] in the settings file",
                chosen.name
            )),
            _ => failure.hint("pass --base-url, or set `base_url` in the settings file"),
        }
    };
    let model: Box<dyn Model> = match chosen.api {
        Api::Chat => {
            let mut model =
                OpenAiChat::with_key(&chosen.preset, &chosen.model, chosen.key.clone()).map_err(setup)?;
            if let Some(base) = &chosen.base_url {
                model = model.base_url(base).map_err(setup)?;
            } else if chosen.preset.base_url.contains('{') {
                return Err(setup(SetupError::Placeholder(chosen.preset.base_url.to_owned())));
            }
            let profile = chosen.capabilities.apply(model.profile().clone());
            Box::new(model.with_profile(profile))
        }
        Api::Responses => {
            let mut model = OpenAiResponses::with_key(&chosen.preset, &chosen.model, chosen.key.clone())
                .map_err(setup)?;
            if let Some(base) = &chosen.base_url {
                model = model.base_url(base).map_err(setup)?;
            }
            let profile = chosen.capabilities.apply(model.profile().clone());
            Box::new(model.with_profile(profile))
        }
        Api::Anthropic => {
            let key = chosen.key.clone().ok_or_else(|| {
                setup(SetupError::MissingKey { preset: "anthropic", env: "ANTHROPIC_API_KEY" })
            })?;
            let mut model = Anthropic::with_key(&chosen.model, key).map_err(setup)?;
            if let Some(base) = &chosen.base_url {
                model = model.base_url(base).map_err(setup)?;
            }
            let profile = chosen.capabilities.apply(model.profile().clone());
            Box::new(model.with_profile(profile))
        }
        Api::Local => return Err(Failure::run("the local model is built by `build`")),
    };
    Ok(model)
}
