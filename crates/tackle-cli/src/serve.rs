//! `tackle serve`: the server of `tackle-server` with the settings' provider and tools, its
//! store in the data dir; `tackle serve token create` makes a user's token.

use std::process::ExitCode;
use std::sync::Arc;

use tackle_core::Model;
use tackle_harness::Harness;
use tackle_server::{Engine, ModelEntry, OrgPolicy, PlanRecord, SecretKey, Server, ServerConfig, Store};

use crate::cli::{
    CreditsCommand, KeyCommand, OrgCommand, OrgSecretCommand, PlanCommand, ServeArgs, ServeCommand,
    TokenCommand, UserCommand,
};
use crate::config::Config;
use crate::failure::Failure;
use crate::{provider, tools};

/// The store `--database` names, else `server.db` in the data dir; and how to name it in
/// messages (a PostgreSQL URL without its password).
fn store(database: Option<&str>, connections: u32) -> Result<(Arc<dyn Store>, String), Failure> {
    let spec = match database {
        Some(spec) => spec.to_owned(),
        None => {
            let dir = crate::sessions::data_dir()?;
            std::fs::create_dir_all(&dir)
                .map_err(|e| Failure::run(format!("cannot create the data dir {}: {e}", dir.display())))?;
            dir.join("server.db").display().to_string()
        }
    };
    let shown = shown(&spec);
    let store = tackle_server::open(&spec, connections)
        .map_err(|e| Failure::run(format!("cannot open the server's store {shown}: {e}")))?;
    Ok((store, shown))
}

/// A database URL as it may be shown: any password replaced.
fn shown(spec: &str) -> String {
    match url::Url::parse(spec) {
        Ok(mut url) if url.password().is_some() => {
            let _ = url.set_password(Some("*****"));
            url.to_string()
        }
        _ => spec.to_owned(),
    }
}

/// An organisation's policy file: TOML, its values written out as the settings file's are.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PolicyFile {
    #[serde(default)]
    locked: std::collections::BTreeMap<String, toml::Value>,
    #[serde(default)]
    defaults: std::collections::BTreeMap<String, toml::Value>,
    models: Option<Vec<String>>,
    #[serde(default)]
    disabled_tools: std::collections::BTreeSet<String>,
}

fn read_policy(path: &std::path::Path) -> Result<OrgPolicy, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
    let file: PolicyFile =
        toml::from_str(&text).map_err(|e| Failure::usage(format!("{}: {e}", path.display())))?;
    let mut policy =
        OrgPolicy { models: file.models, disabled_tools: file.disabled_tools, ..OrgPolicy::default() };
    for (table, values, into) in
        [("locked", &file.locked, &mut policy.locked), ("defaults", &file.defaults, &mut policy.defaults)]
    {
        for (address, value) in values {
            if !address.split_once('.').is_some_and(|(t, f)| !t.is_empty() && !f.is_empty()) {
                return Err(Failure::usage(format!(
                    "[{table}] keys are `<tool>.<field>`; {address:?} is not"
                )));
            }
            into.insert(address.clone(), crate::config::plain(value, &format!("{table}.{address}"))?);
        }
    }
    Ok(policy)
}

/// Credits as millionths, refusing what is not a number.
fn micros(credits: f64) -> Result<i64, Failure> {
    if !credits.is_finite() || credits.abs() > 1e12 {
        return Err(Failure::usage(format!("{credits} is not an amount of credits")));
    }
    Ok((credits * 1_000_000.0).round() as i64)
}

/// The server key from the environment, or why there is none.
fn server_key() -> Result<SecretKey, Failure> {
    SecretKey::from_env().map_err(|e| Failure::usage(e.to_string()))?.ok_or_else(|| {
        Failure::usage(format!(
            "no server key: set {} (64 hex digits, from `tackle serve key create`) or {}",
            tackle_server::KEY_VAR,
            tackle_server::KEY_FILE_VAR
        ))
    })
}

/// The administrative commands: tokens, keys, organisations, plans, users, secrets,
/// credits.
fn administer(command: &ServeCommand, database: Option<&str>) -> Result<ExitCode, Failure> {
    if let ServeCommand::Key(KeyCommand::Create) = command {
        crate::print_line(&SecretKey::generate().map_err(|e| Failure::run(e.to_string()))?);
        crate::eprint_line(&format!(
            "a new server key: keep it safe and give it to every server process as {}",
            tackle_server::KEY_VAR
        ));
        return Ok(ExitCode::SUCCESS);
    }
    let (store, _) = store(database, 1)?;
    let refused = |e: tackle_server::StoreError| Failure::usage(e.to_string());
    match command {
        ServeCommand::Key(_) => {}
        ServeCommand::Token(TokenCommand::Create { org, user }) => {
            let token = store.create_token(org, user).map_err(refused)?;
            crate::print_line(&token);
            crate::eprint_line(&format!(
                "a token for {user} of {org}: shown this once, only its hash is kept (send it as `Authorization: Bearer …`)"
            ));
        }
        ServeCommand::Org(OrgCommand::Set { org, file }) => {
            let policy = read_policy(file)?;
            let text = serde_json::to_string(&policy).map_err(|e| Failure::run(e.to_string()))?;
            store.set_org_policy(org, &text).map_err(refused)?;
            crate::eprint_line(&format!(
                "{org}: {} locked, {} defaults, models {}, {} tools off",
                policy.locked.len(),
                policy.defaults.len(),
                policy.models.as_ref().map_or("all".to_owned(), |m| m.join(", ")),
                policy.disabled_tools.len()
            ));
        }
        ServeCommand::Plan(PlanCommand::Set { name, capabilities, allowance }) => {
            if *allowance < 0.0 {
                return Err(Failure::usage("an allowance is zero credits or more"));
            }
            let plan = PlanRecord {
                name: name.clone(),
                capabilities: capabilities.clone(),
                allowance_micros: micros(*allowance)?,
            };
            store.set_plan(&plan).map_err(refused)?;
            crate::eprint_line(&format!(
                "plan {name}: {} capabilities, {allowance} credits",
                capabilities.len()
            ));
        }
        ServeCommand::User(UserCommand::Plan { org, user, plan }) => {
            let balance = store.assign_plan(org, user, plan).map_err(refused)?;
            let balance =
                balance.map_or("not metered".to_owned(), |b| format!("balance {} credits", b as f64 / 1e6));
            crate::eprint_line(&format!("{user} of {org} is on plan {plan} ({balance})"));
        }
        ServeCommand::Secret(OrgSecretCommand::Set { org, address }) => {
            if !address.split_once('.').is_some_and(|(t, f)| !t.is_empty() && !f.is_empty()) {
                return Err(Failure::usage(format!(
                    "secrets are addressed `<tool>.<field>`; {address:?} is not"
                )));
            }
            let key = server_key()?;
            let value = crate::secrets::read_value(address)?;
            let sealed = key.seal(org, address, &value).map_err(refused)?;
            store.put_secret(org, address, &sealed).map_err(refused)?;
            crate::eprint_line(&format!("stored {address} for {org}, sealed with the server key"));
        }
        ServeCommand::Secret(OrgSecretCommand::Remove { org, address }) => {
            if !store.remove_secret(org, address).map_err(refused)? {
                return Err(Failure::usage(format!("{org} has no secret {address}")));
            }
            crate::eprint_line(&format!("removed {address} of {org}"));
        }
        ServeCommand::Credits(CreditsCommand::Grant { org, user, amount, note }) => {
            let balance = store.grant(org, user, micros(*amount)?, note).map_err(refused)?;
            crate::eprint_line(&format!("{user} of {org}: balance {} credits", balance as f64 / 1e6));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The models the server offers: `[server] models` (provider names), else the chosen
/// provider; each with its `[prices.<name>]`.
async fn models(args: &ServeArgs, config: &Config) -> Result<Vec<ModelEntry>, Failure> {
    let names: Vec<Option<String>> = match &config.file.server.models {
        Some(names) if !names.is_empty() => names.iter().cloned().map(Some).collect(),
        _ => vec![None],
    };
    let mut entries = Vec::new();
    for name in names {
        let flags = match &name {
            Some(name) => {
                crate::cli::ProviderArgs { provider: Some(name.clone()), model: None, base_url: None }
            }
            None => args.provider.clone(),
        };
        let chosen = match provider::choose(&flags, config)? {
            Some(chosen) => chosen,
            None => provider::local(flags.model.clone(), "nothing configured: the embedded model".to_owned()),
        };
        let model: Arc<dyn Model> = match provider::build(&chosen).await? {
            provider::Built::Remote(model) => Arc::from(model),
            provider::Built::Local(model) => Arc::new(model),
        };
        let price = config.file.prices.get(&chosen.name).map(|p| p.price(&chosen.name)).transpose()?;
        crate::eprint_line(&format!(
            "tackle serve: model {} ({}{})",
            chosen.name,
            chosen.model,
            price
                .map(|p| format!(", {} in / {} out per million tokens", p.input, p.output))
                .unwrap_or_default()
        ));
        entries.push(ModelEntry { name: chosen.name.clone(), model, confidence: chosen.confidence, price });
    }
    for priced in config.file.prices.keys() {
        if !entries.iter().any(|e| &e.name == priced) {
            return Err(Failure::usage(format!("[prices.{priced}]: the server offers no model {priced:?}")));
        }
    }
    Ok(entries)
}

pub(crate) async fn serve(args: ServeArgs, config: &Config) -> Result<ExitCode, Failure> {
    if let Some(command) = &args.command {
        return administer(command, args.database.as_deref());
    }
    let (store, path) = store(args.database.as_deref(), args.connections.max(1))?;
    let models = models(&args, config).await?;
    let (registry, _skills, live) = tools::live_registry(config).await?;
    let harness = Harness::new(registry)
        .registry_source(live)
        .executor(tools::executor(config)?)
        .limits(config.limits());
    let settings = config.clone();
    let mut engine =
        Engine::with_models(harness, models).map_err(|e| Failure::usage(e.to_string()))?.with_context(
            move |id| tools::run_context(id, None, &settings).map_err(|failure| failure.to_string()),
        );
    if let Some(key) = SecretKey::from_env().map_err(|e| Failure::usage(e.to_string()))? {
        engine = engine.with_secret_key(key);
    }
    let default_model = engine.models.first().map(|m| m.name.clone()).unwrap_or_default();
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .map_err(|e| Failure::usage(format!("cannot listen on {}: {e}", args.listen)))?;
    let address = listener.local_addr().map_err(|e| Failure::run(e.to_string()))?;
    if !address.ip().is_loopback() {
        crate::eprint_line(&format!(
            "warning: listening on {address}, beyond loopback: anyone who can reach it and holds a token can run tools"
        ));
    }
    let config = ServerConfig::default()
        .with_workers(args.workers)
        .with_lease(std::time::Duration::from_secs(args.lease.max(1)));
    let server = Server::start(store, engine, config);
    crate::eprint_line(&format!(
        "tackle serve: http://{address} (default model {default_model}, {} workers, store {})",
        args.workers.max(1),
        path
    ));
    let router = server.router();
    let server = std::sync::Arc::new(server);
    let draining = std::sync::Arc::clone(&server);
    // Ctrl-C: no more claims, event streams end (so that connections close), then runs
    // under way get the grace period.
    let served = axum::serve(tackle_server::nodelay(listener), router)
        .with_graceful_shutdown(async move {
            let _ = tokio::signal::ctrl_c().await;
            crate::eprint_line("tackle serve: stopping");
            draining.begin_shutdown();
        })
        .await;
    if let Some(server) = std::sync::Arc::into_inner(server) {
        server.shutdown(std::time::Duration::from_secs(args.grace)).await;
    }
    served.map_err(|e| Failure::run(format!("the server stopped: {e}")))?;
    Ok(ExitCode::SUCCESS)
}
