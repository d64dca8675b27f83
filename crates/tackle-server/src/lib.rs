//! `tackle serve`: tool-calling runs for many users over HTTP.
//!
//! A client with a token (`Authorization: Bearer tk_…`) posts a prompt; the run is queued
//! in the [`Store`] and a worker of this process (or of another process on the same store)
//! claims it under a lease, runs it through the [`Harness`] with
//! the server's model and tools, and writes every event with a persistent sequence number.
//! Clients follow the events over SSE and pick up where they left off with `Last-Event-ID`.
//!
//! ```text
//! POST /v1/runs            {"prompt": "…", "session"?, "model"?, "tools"?, "temporary"?}
//!                                                    → 202 {"id": "run_…", "session": "ses_…"}
//! GET  /v1/runs/{id}                                 → the run: status, answer or error
//! GET  /v1/runs/{id}/events  (SSE, Last-Event-ID)    → every event once, in order
//! POST /v1/runs/{id}/decisions {"decisions": {CALL_ID: {"decision": "approve"}, …}}
//! POST /v1/runs/{id}/cancel
//! GET  /v1/sessions, /v1/sessions/{id}               → conversations and their runs
//! GET  /v1/tools                                     → each tool offered, or why not
//! GET  /v1/me, PUT /v1/me                            → plan, balance, preferences, settings
//! GET  /v1/usage[?run=ID]                            → credits spent, per run
//! GET  /openapi.json, /metrics (Prometheus)
//! GET  /healthz, /readyz
//! ```
//!
//! Errors are RFC 9457 problem details; request bodies are bounded and unknown fields
//! refused; every read is scoped to the token's user.
//!
//! Organisations, plans, secrets and credits are kept in the store and managed with
//! `tackle serve org|plan|user|secret|credits` (see [`Store`]); [`policy`] turns them into
//! each run's context.

mod api;
mod metrics;
mod openapi;
mod pg;
pub mod policy;
mod secrets;
mod sqlite;
pub mod store;
mod web;
mod worker;

use std::sync::Arc;
use std::time::Duration;

use tackle_core::{Confidence, Model};
use tackle_harness::Harness;
use tackle_tools::RunContext;
use tokio_util::sync::CancellationToken;

pub use pg::PgStore;
pub use policy::{ModelEntry, OrgPolicy, Price, Profile};
pub use secrets::{KEY_FILE_VAR, KEY_VAR, SecretKey};
pub use sqlite::SqliteStore;
pub use store::{PlanRecord, Principal, RunRecord, RunStatus, Store, StoreError, open};

/// Makes the base context of a run from its id: the server's tool settings and secrets.
/// The organisation's and user's layers, the plan and the model's confidence go on top.
/// An error fails the run with that message.
pub type ContextFactory = dyn Fn(&str) -> Result<RunContext, String> + Send + Sync;

/// What runs the server's runs: the harness (tools, limits), the models clients choose
/// from, each run's base context, and the key that opens organisation secrets.
pub struct Engine {
    /// The harness every run goes through.
    pub harness: Harness,
    /// The models, by name; the first is the default.
    pub models: Vec<ModelEntry>,
    /// Each run's base context.
    pub context: Arc<ContextFactory>,
    /// Opens the organisations' secrets.
    pub secret_key: Option<SecretKey>,
}

impl Engine {
    /// An engine with one model, `default`, trusted at medium confidence and free; runs
    /// get a plain base context.
    pub fn new(harness: Harness, model: Arc<dyn Model>) -> Self {
        Engine {
            harness,
            models: vec![ModelEntry {
                name: "default".into(),
                model,
                confidence: Confidence::Medium,
                price: None,
            }],
            context: Arc::new(|id| Ok(RunContext::new(id))),
            secret_key: None,
        }
    }

    /// An engine whose models are `models` (the first is the default; at least one).
    pub fn with_models(harness: Harness, models: Vec<ModelEntry>) -> Result<Self, StoreError> {
        if models.is_empty() {
            return Err(StoreError::Invalid("the server needs at least one model".into()));
        }
        let mut names = std::collections::BTreeSet::new();
        if let Some(twice) = models.iter().find(|m| !names.insert(m.name.as_str())) {
            return Err(StoreError::Invalid(format!("model {:?} is named twice", twice.name)));
        }
        Ok(Engine { harness, models, context: Arc::new(|id| Ok(RunContext::new(id))), secret_key: None })
    }

    /// The default model's price.
    pub fn with_price(mut self, price: Price) -> Self {
        if let Some(first) = self.models.first_mut() {
            first.price = Some(price);
        }
        self
    }

    /// Each run's base context made by `factory`.
    pub fn with_context(
        mut self,
        factory: impl Fn(&str) -> Result<RunContext, String> + Send + Sync + 'static,
    ) -> Self {
        self.context = Arc::new(factory);
        self
    }

    /// Opens organisation secrets with `key`.
    pub fn with_secret_key(mut self, key: SecretKey) -> Self {
        self.secret_key = Some(key);
        self
    }
}

/// `listener` with `TCP_NODELAY` on every connection it accepts, for `axum::serve`: an
/// event goes out as soon as it is written (Nagle's algorithm would hold a small write
/// back until the one before it is acknowledged, and a client's delayed ACK makes that
/// 40 ms).
pub fn nodelay(
    listener: tokio::net::TcpListener,
) -> impl axum::serve::Listener<Io = tokio::net::TcpStream, Addr = std::net::SocketAddr> {
    use axum::serve::ListenerExt as _;
    listener.tap_io(|stream| {
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "TCP_NODELAY could not be set");
        }
    })
}

/// How the server behaves.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ServerConfig {
    /// Workers in this process.
    pub workers: usize,
    /// How long a run stays with a worker that stopped renewing its lease.
    pub lease: Duration,
    /// How often idle workers and event streams look at the store for work and events
    /// written by other processes.
    pub poll: Duration,
    /// The largest request body accepted.
    pub max_body: usize,
    /// This process's name in leases.
    pub name: String,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            workers: 4,
            lease: worker::DEFAULT_LEASE,
            poll: Duration::from_millis(250),
            max_body: 256 * 1024,
            name: format!("server-{}", std::process::id()),
        }
    }
}

impl ServerConfig {
    /// With `workers` workers.
    pub fn with_workers(mut self, workers: usize) -> Self {
        self.workers = workers.max(1);
        self
    }

    /// With this lease.
    pub fn with_lease(mut self, lease: Duration) -> Self {
        self.lease = lease;
        self
    }

    /// With this interval for looking at the store.
    pub fn with_poll(mut self, poll: Duration) -> Self {
        self.poll = poll;
        self
    }

    /// With this largest request body.
    pub fn with_max_body(mut self, bytes: usize) -> Self {
        self.max_body = bytes;
        self
    }
}

/// What a run's streams in this process hear of its writes.
#[derive(Debug, Clone)]
pub(crate) enum Note {
    /// Events written, with their sequence numbers, in order.
    Events(Arc<Vec<(i64, String)>>),
    /// The run changed otherwise (settled, cancelled, decided): read the store.
    Changed,
    /// The run was settled here, its last event the one numbered (none: this worker wrote
    /// none).
    Settled(Option<i64>),
}

/// What the handlers and workers share.
pub(crate) struct Shared {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) config: ServerConfig,
    /// Wakes one idle worker per run queued here (other processes' runs are found by the
    /// one idle worker that polls the store, the scout).
    pub(crate) work_added: tokio::sync::Notify,
    /// Held by the idle worker that polls the store for other processes' runs.
    pub(crate) scout: tokio::sync::Mutex<()>,
    /// Per run followed here: counts writes of its events and settlement (its event
    /// streams wait on it; other runs' writes do not wake them).
    pub(crate) changes:
        std::sync::Mutex<std::collections::HashMap<String, tokio::sync::broadcast::Sender<Note>>>,
    /// Cancelled when the server begins to shut down: no more claims, event streams end.
    pub(crate) draining: CancellationToken,
    /// Cancelled when the grace period is over: runs still going are left to their
    /// checkpoints, their leases released for another server.
    pub(crate) aborting: CancellationToken,
    /// The engine, for checking decisions before they are taken.
    pub(crate) engine: Arc<Engine>,
    /// What `/metrics` reports.
    pub(crate) metrics: metrics::Metrics,
    /// The runs this process is running, to stop them at once when cancelled.
    pub(crate) running: std::sync::Mutex<std::collections::HashMap<String, CancellationToken>>,
}

impl Shared {
    /// What is written of `run` here from now on.
    pub(crate) fn follow(&self, run: &str) -> tokio::sync::broadcast::Receiver<Note> {
        let mut changes = self.changes.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        changes.entry(run.to_owned()).or_insert_with(|| tokio::sync::broadcast::channel(64).0).subscribe()
    }

    /// Tells the streams following `run` what was written (and forgets runs nobody follows
    /// any more).
    pub(crate) fn publish(&self, run: &str, note: Note) {
        let mut changes = self.changes.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(sender) = changes.get(run)
            && sender.send(note).is_err()
        {
            changes.remove(run);
        }
    }

    /// Tells the streams following `run` that its state changed (settled, cancelled).
    pub(crate) fn changed(&self, run: &str) {
        self.publish(run, Note::Changed);
    }
}

/// A running server: its router, and its workers until [`Server::shutdown`].
pub struct Server {
    shared: Arc<Shared>,
    workers: Vec<tokio::task::JoinHandle<()>>,
}

impl Server {
    /// Starts `config.workers` workers on `store` with `engine`; call from a Tokio runtime.
    pub fn start(store: Arc<dyn Store>, engine: Engine, config: ServerConfig) -> Self {
        let shared = Arc::new(Shared {
            store,
            config,
            work_added: tokio::sync::Notify::new(),
            scout: tokio::sync::Mutex::new(()),
            changes: std::sync::Mutex::default(),
            draining: CancellationToken::new(),
            aborting: CancellationToken::new(),
            engine: Arc::new(engine),
            running: std::sync::Mutex::default(),
            metrics: metrics::Metrics::new(),
        });
        // Other processes' changes, pushed when the store can: their queued runs wake a
        // worker here, their writes to a run wake its streams here.
        if let Some(mut changes) = shared.store.watch() {
            let shared = Arc::clone(&shared);
            tokio::spawn(async move {
                loop {
                    let change = tokio::select! {
                        change = changes.recv() => change,
                        () = shared.draining.cancelled() => None,
                    };
                    match change {
                        None => return,
                        Some(store::Change::Queued) => shared.work_added.notify_one(),
                        Some(store::Change::Run(run)) => shared.changed(&run),
                        Some(store::Change::Lost) => {
                            shared.work_added.notify_one();
                            let followed: Vec<String> = shared
                                .changes
                                .lock()
                                .unwrap_or_else(std::sync::PoisonError::into_inner)
                                .keys()
                                .cloned()
                                .collect();
                            for run in followed {
                                shared.changed(&run);
                            }
                        }
                    }
                }
            });
        }
        let workers = (0..shared.config.workers)
            .map(|i| {
                let name = format!("{}/{i}", shared.config.name);
                tokio::spawn(worker::work(Arc::clone(&shared), name))
            })
            .collect();
        Server { shared, workers }
    }

    /// The HTTP API.
    pub fn router(&self) -> axum::Router {
        api::router(Arc::clone(&self.shared))
    }

    /// How many runs this process's event streams follow now.
    pub fn followed(&self) -> usize {
        self.shared.changes.lock().unwrap_or_else(std::sync::PoisonError::into_inner).len()
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.shared.store
    }

    /// Begins to shut down: no more runs are claimed here, and event streams end (clients
    /// reconnect elsewhere with `Last-Event-ID`). Runs under way go on.
    pub fn begin_shutdown(&self) {
        self.shared.draining.cancel();
    }

    /// Shuts down: no more claims; runs under way get `grace` to finish, and those still
    /// going then are stopped, their leases released so that another server goes on from
    /// their checkpoints at once.
    pub async fn shutdown(self, grace: Duration) {
        self.shared.draining.cancel();
        let mut workers = self.workers;
        let all = futures_util::future::join_all(workers.iter_mut());
        if tokio::time::timeout(grace, all).await.is_err() {
            self.shared.aborting.cancel();
            for worker in workers {
                // A worker that finished in the grace period was awaited already.
                if !worker.is_finished() {
                    let _ = worker.await;
                }
            }
        }
    }
}
