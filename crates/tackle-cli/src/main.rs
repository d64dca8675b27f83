//! `tackle`: the command line.
//!
//! Parse → resolve settings → execute: clap reads the command line ([`cli`]), the settings
//! file and environment are resolved once ([`config`], [`provider`]), and each command runs
//! against the same tool registry and policies a model's calls meet ([`tools`]). stdout is
//! data (answers, pages, JSON); stderr is progress, tool activity and errors. Exit codes:
//! 0 success, 1 a run or tool failed, 2 a usage or configuration mistake, 3 a run waits for
//! approval, 130 cancelled.

mod chat;
mod cli;
mod config;
mod failure;
mod form;
mod guard;
mod history;
mod local;
mod mcp;
mod provider;
mod render;
mod run;
mod secrets;
mod serve;
mod sessions;
mod show;
mod tools;
mod web;

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser as _;

use crate::cli::{
    Cli, Command, ConfigCommand, GuardCommand, McpCommand, ModelCommand, SecretCommand, SessionsCommand,
    ToolsCommand, WebCommand,
};
use crate::config::Config;
use crate::failure::Failure;

/// Set once stdout is gone (a closed pipe, as after `| head`): nothing more is written, and
/// a run in progress is cancelled the way Ctrl-C cancels it — its session saved, its tools'
/// processes stopped — rather than the process ending on the spot.
static STDOUT_GONE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
static STDOUT_GONE_NOTICE: tokio::sync::Notify = tokio::sync::Notify::const_new();

/// Writes `text` to stdout; after a closed pipe, nothing (see [`stdout_gone`]).
pub(crate) fn print_raw(text: &str) {
    if STDOUT_GONE.load(std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if out.write_all(text.as_bytes()).and_then(|()| out.flush()).is_err() {
        STDOUT_GONE.store(true, std::sync::atomic::Ordering::Relaxed);
        // A permit is kept when no run is waiting for it yet.
        STDOUT_GONE_NOTICE.notify_one();
    }
}

/// Whether stdout is gone (see [`print_raw`]).
pub(crate) fn stdout_is_gone() -> bool {
    STDOUT_GONE.load(std::sync::atomic::Ordering::Relaxed)
}

/// Returns once stdout is gone.
pub(crate) async fn stdout_gone() {
    if !STDOUT_GONE.load(std::sync::atomic::Ordering::Relaxed) {
        STDOUT_GONE_NOTICE.notified().await;
    }
}

/// Writes a line to stdout.
pub(crate) fn print_line(text: &str) {
    print_raw(&format!("{text}\n"));
}

/// Writes a line to stderr.
pub(crate) fn eprint_line(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

async fn execute(cli: Cli) -> Result<ExitCode, Failure> {
    let mut config = Config::load(cli.config.as_deref())?;
    if let Some(dir) = cli.dir {
        config.env_root = Some(dir);
    }
    match cli.command {
        Command::Run(args) => run::run(args, &config, cli.verbose > 0).await,
        Command::Approve(args) => run::approve(args, &config).await,
        Command::Chat(args) => chat::chat(args, &config).await,
        Command::Sessions(SessionsCommand::List { limit, json }) => history::list(limit, json),
        Command::Sessions(SessionsCommand::Show { id, json }) => history::show(&id, json),
        Command::Tools(ToolsCommand::List { provider, json }) => tools::list(&provider, json, &config).await,
        Command::Tools(ToolsCommand::Show { name }) => tools::show(&name, &config).await,
        Command::Tools(ToolsCommand::Call { name, arguments, provider, json }) => {
            tools::call(&name, &arguments, &provider, json, &config).await
        }
        Command::Web(WebCommand::Read { inputs, format, out_dir }) => {
            web::read_all(&inputs, format, out_dir.as_deref()).await
        }
        Command::Secret(SecretCommand::Set { name }) => secrets::set(&name, &config),
        Command::Secret(SecretCommand::Delete { name }) => secrets::delete(&name, &config),
        Command::Guard(GuardCommand::Check { jsonl: true, .. }) => guard::check_lines(),
        Command::Guard(GuardCommand::Check { input, json, strictness, .. }) => guard::check(
            input.as_deref().unwrap_or(std::path::Path::new("-")),
            json,
            strictness.as_deref(),
            &config,
        ),
        Command::Mcp(McpCommand::List { json }) => mcp::list(json, &config).await,
        Command::Mcp(McpCommand::Serve { http, token_secret, allow_host, .. }) => {
            mcp::serve(http, token_secret.as_deref(), allow_host, &config).await
        }
        Command::Serve(args) => serve::serve(args, &config).await,
        Command::Model(ModelCommand::Pull) => local::pull().await,
        Command::Model(ModelCommand::List) => local::list(),
        Command::Config(ConfigCommand::Show { provider, json }) => show::show(&provider, json, &config).await,
        Command::Config(ConfigCommand::Path) => {
            match &config.path {
                Some(path) => print_line(&path.display().to_string()),
                None => {
                    return Err(Failure::usage("this platform has no config directory; pass --config FILE"));
                }
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Logs go to stderr through `tracing`: `RUST_LOG` when set, else warnings, and more with
/// each `-v`. Spans and metrics are exported over OTLP when the `OTEL_*` variables ask for
/// it (see `tackle-telemetry`); the returned pipeline flushes when dropped.
fn init_logging(verbose: u8) -> tackle_telemetry::Telemetry {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::{EnvFilter, Layer};
    let default = match verbose {
        0 => "warn",
        1 => {
            "warn,tackle=info,tackle_core=info,tackle_tools=info,tackle_harness=info,tackle_http=info,tackle_providers=info,tackle_web=info,tackle_local=info"
        }
        2 => {
            "info,tackle=debug,tackle_core=debug,tackle_tools=debug,tackle_harness=debug,tackle_http=debug,tackle_providers=debug,tackle_web=debug,tackle_local=debug"
        }
        _ => "trace",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let color =
        std::env::var_os("NO_COLOR").is_none() && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let (telemetry, warning) = match tackle_telemetry::Telemetry::from_env() {
        Ok(telemetry) => (telemetry, None),
        Err(error) => (tackle_telemetry::Telemetry::off(), Some(error)),
    };
    let logs = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(color)
        .with_target(true)
        .with_filter(filter);
    let _ = tracing_subscriber::registry().with(logs).with(telemetry.layer()).try_init();
    if let Some(error) = warning {
        tracing::warn!("telemetry is off: {error}");
    }
    telemetry
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprint_line(&format!("error: cannot start the runtime: {error}"));
            return ExitCode::from(1);
        }
    };
    // The gRPC exporter is built inside the runtime, and flushed while it still runs.
    let telemetry = {
        let _inside = runtime.enter();
        init_logging(cli.verbose)
    };
    let code = match runtime.block_on(execute(cli)) {
        Ok(code) => code,
        Err(failure) => {
            eprint_line(&failure.to_string());
            failure.exit_code()
        }
    };
    drop(telemetry);
    code
}
