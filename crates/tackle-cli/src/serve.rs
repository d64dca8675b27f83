//! `tackle serve`: the server of `tackle-server` with the settings' provider and tools, its
//! store in the data dir; `tackle serve token create` makes a user's token.

use std::process::ExitCode;
use std::sync::Arc;

use tackle_core::Model;
use tackle_harness::Harness;
use tackle_server::{Engine, Server, ServerConfig, SqliteStore, Store};

use crate::cli::{ServeArgs, ServeCommand, TokenCommand};
use crate::config::Config;
use crate::failure::Failure;
use crate::{provider, tools};

fn store() -> Result<(SqliteStore, std::path::PathBuf), Failure> {
    let dir = crate::sessions::data_dir()?;
    std::fs::create_dir_all(&dir)
        .map_err(|e| Failure::run(format!("cannot create the data dir {}: {e}", dir.display())))?;
    let path = dir.join("server.db");
    let store = SqliteStore::open(&path)
        .map_err(|e| Failure::run(format!("cannot open the server's store {}: {e}", path.display())))?;
    Ok((store, path))
}

pub(crate) async fn serve(args: ServeArgs, config: &Config) -> Result<ExitCode, Failure> {
    if let Some(ServeCommand::Token(TokenCommand::Create { org, user })) = &args.command {
        let (store, _) = store()?;
        let token = store.create_token(org, user).map_err(|e| Failure::usage(e.to_string()))?;
        crate::print_line(&token);
        crate::eprint_line(&format!(
            "a token for {user} of {org}: shown this once, only its hash is kept (send it as `Authorization: Bearer …`)"
        ));
        return Ok(ExitCode::SUCCESS);
    }
    let (store, path) = store()?;
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
    let server = Server::start(store, engine, ServerConfig::default().with_workers(args.workers));
    crate::eprint_line(&format!(
        "tackle serve: http://{address} ({} with {}, {} workers, store {})",
        chosen.name,
        chosen.model,
        args.workers.max(1),
        path.display()
    ));
    let router = server.router();
    let served = axum::serve(listener, router)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await;
    server.shutdown().await;
    served.map_err(|e| Failure::run(format!("the server stopped: {e}")))?;
    Ok(ExitCode::SUCCESS)
}
