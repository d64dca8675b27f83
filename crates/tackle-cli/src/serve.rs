//! `tackle serve`: the server of `tackle-server` with the settings' provider and tools, its
//! store in the data dir; `tackle serve token create` makes a user's token.

use std::process::ExitCode;
use std::sync::Arc;

use tackle_core::Model;
use tackle_harness::Harness;
use tackle_server::{AnyStore, Engine, Server, ServerConfig, Store};

use crate::cli::{ServeArgs, ServeCommand, TokenCommand};
use crate::config::Config;
use crate::failure::Failure;
use crate::{provider, tools};

/// The store `--database` names, else `server.db` in the data dir; and how to name it in
/// messages (a PostgreSQL URL without its password).
fn store(database: Option<&str>, connections: u32) -> Result<(AnyStore, String), Failure> {
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
    let store = AnyStore::open(&spec, connections)
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

pub(crate) async fn serve(args: ServeArgs, config: &Config) -> Result<ExitCode, Failure> {
    if let Some(ServeCommand::Token(TokenCommand::Create { org, user })) = &args.command {
        let (store, _) = store(args.database.as_deref(), 1)?;
        let token = store.create_token(org, user).map_err(|e| Failure::usage(e.to_string()))?;
        crate::print_line(&token);
        crate::eprint_line(&format!(
            "a token for {user} of {org}: shown this once, only its hash is kept (send it as `Authorization: Bearer …`)"
        ));
        return Ok(ExitCode::SUCCESS);
    }
    // Connections for the workers (each may hold one while another writes its events) and
    // for the API's event streams and requests.
    let (store, path) = store(args.database.as_deref(), args.workers.max(1) as u32 * 2 + 64)?;
    let chosen = match provider::choose(&args.provider, config)? {
        Some(chosen) => chosen,
        None => {
            provider::local(args.provider.model.clone(), "nothing configured: the embedded model".to_owned())
        }
    };
    let model: Arc<dyn Model> = match provider::build(&chosen).await? {
        provider::Built::Remote(model) => Arc::from(model),
        provider::Built::Local(model) => Arc::new(model),
    };
    let (registry, _skills, live) = tools::live_registry(config).await?;
    let harness = Harness::new(registry)
        .registry_source(live)
        .executor(tools::executor(config)?)
        .limits(config.limits());
    let confidence = chosen.confidence;
    let settings = config.clone();
    let engine = Engine::new(harness, model).with_context(move |id| {
        tools::run_context(id, Some(confidence), &settings).map_err(|failure| failure.to_string())
    });
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
        "tackle serve: http://{address} ({} with {}, {} workers, store {})",
        chosen.name,
        chosen.model,
        args.workers.max(1),
        path
    ));
    let router = server.router();
    let server = std::sync::Arc::new(server);
    let draining = std::sync::Arc::clone(&server);
    // Ctrl-C: no more claims, event streams end (so that connections close), then runs
    // under way get the grace period.
    let served = axum::serve(listener, router)
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
