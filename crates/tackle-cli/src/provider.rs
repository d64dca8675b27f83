//! Choosing the model: flags over environment over the settings file, every preset of
//! `tackle-providers` by name, and providers of the user's own.

use tackle_core::{Confidence, Model, Secret};
use tackle_providers::bedrock::{BedrockAuth, region_from_env};
use tackle_providers::gemini::GoogleCredentials;
use tackle_providers::{
    Anthropic, Bedrock, Gemini, OpenAiChat, OpenAiResponses, PRESETS, Preset, SetupError, preset_named,
};

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
    /// Where in a cloud the model runs (Bedrock's region, Vertex AI's project and
    /// location), as the settings file says.
    pub(crate) cloud: Cloud,
}

/// A cloud provider's place for the model, from the settings file; unset parts come from
/// the provider's own environment variables and files.
#[derive(Debug, Clone, Default)]
pub(crate) struct Cloud {
    pub(crate) region: Option<String>,
    pub(crate) project: Option<String>,
    pub(crate) location: Option<String>,
}

/// Hosts that run on the user's own machine or network: fully trusted by default.
const SELF_HOSTED: &[&str] = &["ollama", "vllm", "llamacpp", "lmstudio"];
/// Hubs that route to hosts nobody named.
const HUBS: &[&str] = &["openrouter"];

fn provider_names() -> String {
    let mut names = vec!["local", "openai", "openai-responses", "anthropic", "gemini", "vertex", "bedrock"];
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
        "gemini" => (Api::Gemini, cloud_preset(Api::Gemini)),
        "vertex" => (Api::Vertex, cloud_preset(Api::Vertex)),
        "bedrock" => (Api::Bedrock, cloud_preset(Api::Bedrock)),
        other => match (preset_named(other), entry.api) {
            (Some(preset), api) => (api.unwrap_or(Api::Chat), *preset),
            // The clouds have their endpoints: a provider of the user's own needs no URL.
            (None, Some(api @ (Api::Gemini | Api::Vertex | Api::Bedrock))) => (api, cloud_preset(api)),
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
    let (key, mut key_origin) = key(&name, &preset, &entry, config)?;
    if key.is_none() {
        match api {
            Api::Vertex => {
                key_origin = "Google credentials: GOOGLE_APPLICATION_CREDENTIALS, else gcloud's application-default ones".into();
            }
            Api::Bedrock => {
                key_origin = format!(
                    "AWS credentials: AWS_ACCESS_KEY_ID, else the AWS_PROFILE profile (no {key_origin})"
                );
            }
            _ => {}
        }
    }
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
        cloud: Cloud { region: entry.region, project: entry.project, location: entry.location },
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
        cloud: Cloud::default(),
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
    let mut preset = custom_preset();
    (preset.name, preset.api_key_env, preset.requires_key) = ("anthropic", Some("ANTHROPIC_API_KEY"), true);
    preset
}

/// The key a cloud provider reads: Gemini's API key; for Vertex AI an access token only
/// where the settings name one (else its credentials files); for Bedrock an API key when
/// one is set (else AWS credentials, signed).
fn cloud_preset(api: Api) -> Preset {
    let (name, env, required) = match api {
        Api::Gemini => ("gemini", Some("GEMINI_API_KEY"), true),
        Api::Vertex => ("vertex", None, false),
        _ => ("bedrock", Some("AWS_BEARER_TOKEN_BEDROCK"), false),
    };
    let mut preset = custom_preset();
    (preset.name, preset.api_key_env, preset.requires_key) = (name, env, required);
    preset
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
            SetupError::MissingKey { env: "AWS_REGION", .. } => failure.hint(format!(
                "set AWS_REGION, or `region` under [providers.{}] in the settings file",
                chosen.name
            )),
            SetupError::MissingKey { env: "GOOGLE_CLOUD_PROJECT", .. } => failure.hint(format!(
                "set GOOGLE_CLOUD_PROJECT, or `project` under [providers.{}] in the settings file",
                chosen.name
            )),
            SetupError::MissingKey { env: "AWS_ACCESS_KEY_ID", .. } => failure
                .hint(
                    "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE for a profile in ~/.aws",
                )
                .hint("or a Bedrock API key in AWS_BEARER_TOKEN_BEDROCK"),
            SetupError::MissingKey { env: "GOOGLE_APPLICATION_CREDENTIALS", .. } => failure
                .hint("set GOOGLE_APPLICATION_CREDENTIALS to a service account's key file")
                .hint("or run `gcloud auth application-default login`")
                .hint(format!("or give an access token as `api_key_env` under [providers.{}]", chosen.name)),
            SetupError::MissingKey { env, .. } => failure.hint(format!(
                "set {env}, or `api_key_env` under [providers.{}] in the settings file",
                chosen.name
            )),
            SetupError::Credentials(_) => failure,
            _ => failure.hint("pass --base-url, or set `base_url` in the settings file"),
        }
    };
    let model: Box<dyn Model> =
        match chosen.api {
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
            Api::Gemini => {
                let key = chosen.key.clone().ok_or_else(|| {
                    setup(SetupError::MissingKey { preset: "gemini", env: "GEMINI_API_KEY" })
                })?;
                let mut model = Gemini::with_key(&chosen.model, key).map_err(setup)?;
                if let Some(base) = &chosen.base_url {
                    model = model.base_url(base).map_err(setup)?;
                }
                let profile = chosen.capabilities.apply(model.profile().clone());
                Box::new(model.with_profile(profile))
            }
            Api::Vertex => {
                let credentials = match chosen.key.clone() {
                    Some(token) => GoogleCredentials::access_token(token),
                    None => GoogleCredentials::from_env().map_err(setup)?,
                };
                let project = chosen
                    .cloud
                    .project
                    .clone()
                    .or_else(|| std::env::var("GOOGLE_CLOUD_PROJECT").ok().filter(|p| !p.is_empty()))
                    .or_else(|| credentials.project_id().map(str::to_owned))
                    .ok_or_else(|| {
                        setup(SetupError::MissingKey { preset: "vertex", env: "GOOGLE_CLOUD_PROJECT" })
                    })?;
                let location = chosen
                    .cloud
                    .location
                    .clone()
                    .or_else(|| std::env::var("GOOGLE_CLOUD_LOCATION").ok().filter(|l| !l.is_empty()))
                    .unwrap_or_else(|| "global".to_owned());
                let mut model =
                    Gemini::vertex(&chosen.model, project, location, credentials).map_err(setup)?;
                if let Some(base) = &chosen.base_url {
                    model = model.base_url(base).map_err(setup)?;
                }
                let profile = chosen.capabilities.apply(model.profile().clone());
                Box::new(model.with_profile(profile))
            }
            Api::Bedrock => {
                let auth = match chosen.key.clone() {
                    Some(key) => BedrockAuth::ApiKey(key),
                    None => BedrockAuth::load().map_err(setup)?,
                };
                let region =
                    chosen.cloud.region.clone().or_else(region_from_env).ok_or_else(|| {
                        setup(SetupError::MissingKey { preset: "bedrock", env: "AWS_REGION" })
                    })?;
                let mut model = Bedrock::with_auth(&chosen.model, region, auth).map_err(setup)?;
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
