//! Where the server keeps everything: organisations, users and their tokens (hashed),
//! runs as jobs with leases, and each run's events with persistent sequence numbers.
//!
//! [`Store`] is the one interface; [`SqliteStore`] is the implementation that needs
//! nothing installed (a file in the data dir, WAL mode). Every read of a run or its events
//! is scoped to a [`Principal`]: a token never reaches another user's runs.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use sha2::{Digest, Sha256};

/// A store failure.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The database refused or failed.
    #[error("the store failed: {0}")]
    Database(String),
    /// A name that cannot be used.
    #[error("{0}")]
    Invalid(String),
}

impl From<rusqlite::Error> for StoreError {
    fn from(error: rusqlite::Error) -> Self {
        StoreError::Database(error.to_string())
    }
}

/// Who a request acts for: the token's organisation and user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Principal {
    /// The organisation.
    pub org: String,
    /// The user, within the organisation.
    pub user: String,
}

/// Where a run is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// Waiting for a worker.
    Queued,
    /// A worker holds it (under a lease).
    Running,
    /// It waits for decisions.
    Suspended,
    /// It answered.
    Answered,
    /// It stopped without an answer.
    Failed,
    /// It was cancelled.
    Cancelled,
}

impl RunStatus {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            RunStatus::Queued => "queued",
            RunStatus::Running => "running",
            RunStatus::Suspended => "suspended",
            RunStatus::Answered => "answered",
            RunStatus::Failed => "failed",
            RunStatus::Cancelled => "cancelled",
        }
    }

    pub(crate) fn parse(text: &str) -> RunStatus {
        match text {
            "queued" => RunStatus::Queued,
            "running" => RunStatus::Running,
            "suspended" => RunStatus::Suspended,
            "answered" => RunStatus::Answered,
            "cancelled" => RunStatus::Cancelled,
            _ => RunStatus::Failed,
        }
    }

    /// Whether nothing more will happen to the run without a new request.
    pub fn is_settled(self) -> bool {
        matches!(self, RunStatus::Suspended | RunStatus::Answered | RunStatus::Failed | RunStatus::Cancelled)
    }
}

/// A run as stored.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunRecord {
    /// The run id.
    pub id: String,
    /// Whose run it is.
    #[serde(skip)]
    pub owner: Principal,
    /// Where it is.
    pub status: RunStatus,
    /// What was asked (the request body, as accepted).
    pub request: serde_json::Value,
    /// The answer, once there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// Why it failed, when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The last checkpoint of the harness state (not shown to clients).
    #[serde(skip)]
    pub state: Option<String>,
    /// Decisions taken for a suspended run, until a worker has gone on with them.
    #[serde(skip)]
    pub decisions: Option<String>,
    /// Whether the owner asked for the run to stop.
    #[serde(skip)]
    pub cancel_requested: bool,
    /// When it was created, in milliseconds since the epoch.
    pub created_ms: i64,
    /// When it last changed.
    pub updated_ms: i64,
}

/// How a worker leaves a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Settlement {
    /// The new status (settled).
    pub status: RunStatus,
    /// The harness state to keep.
    pub state: Option<String>,
    /// The answer.
    pub answer: Option<String>,
    /// Why it failed.
    pub error: Option<String>,
}

pub(crate) fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// The stored form of a token: its SHA-256, hex.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// A name for an organisation or user: 1–64 characters of letters, digits, `-`, `_`, `.`, `@`.
pub(crate) fn check_name(kind: &str, name: &str) -> Result<(), StoreError> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '@'));
    if ok { Ok(()) } else { Err(StoreError::Invalid(format!("{kind} {name:?} is not a usable name"))) }
}

/// The store's operations. Every method is safe to call from many tasks at once; writes
/// that must not race (claiming a run, appending an event) are atomic in the store.
pub trait Store: Send + Sync + 'static {
    /// Makes a token for `user` of `org` (creating both when new); returns the token,
    /// which is not kept anywhere in clear.
    fn create_token(&self, org: &str, user: &str) -> Result<String, StoreError>;

    /// Who holds `token`, if anyone.
    fn authenticate(&self, token: &str) -> Result<Option<Principal>, StoreError>;

    /// Queues a new run for `owner`.
    fn create_run(&self, owner: &Principal, request: &serde_json::Value) -> Result<RunRecord, StoreError>;

    /// The run, if it is `owner`'s.
    fn run(&self, owner: &Principal, id: &str) -> Result<Option<RunRecord>, StoreError>;

    /// Takes the oldest runnable run (queued, or running under an expired lease) for
    /// `worker`, leased for `lease`.
    fn claim(&self, worker: &str, lease: Duration) -> Result<Option<RunRecord>, StoreError>;

    /// Extends `worker`'s lease on `run`; false when the worker no longer holds it.
    fn heartbeat(&self, run: &str, worker: &str, lease: Duration) -> Result<bool, StoreError>;

    /// Appends events to `run` in order, each with the next sequence number, and keeps
    /// `checkpoint` as the run's state when given — in one transaction; returns the last
    /// number given. Refused (`Ok(None)`) when `worker` no longer holds the run.
    fn append_events(
        &self,
        run: &str,
        worker: &str,
        events: &[String],
        checkpoint: Option<&str>,
    ) -> Result<Option<i64>, StoreError>;

    /// `owner`'s events of `run` after sequence number `after`, at most `limit`.
    fn events_after(
        &self,
        owner: &Principal,
        run: &str,
        after: i64,
        limit: usize,
    ) -> Result<Vec<(i64, String)>, StoreError>;

    /// Settles `run` (its decisions done with); false when `worker` no longer holds it.
    fn settle(&self, run: &str, worker: &str, settlement: &Settlement) -> Result<bool, StoreError>;

    /// Queues `owner`'s suspended run again with `decisions`; false when the run is not
    /// (or no longer) suspended.
    fn submit_decisions(&self, owner: &Principal, run: &str, decisions: &str) -> Result<bool, StoreError>;

    /// Cancels `owner`'s run: settled at once when no worker holds it (queued or
    /// suspended), else marked for its worker to stop. Returns the status it now has, or
    /// `None` when there is no such run.
    fn cancel(&self, owner: &Principal, run: &str) -> Result<Option<RunStatus>, StoreError>;

    /// Whether `run`'s owner asked for it to stop.
    fn cancel_requested(&self, run: &str) -> Result<bool, StoreError>;

    /// Gives up `worker`'s lease on `run` at once, for another worker to take it over.
    fn release(&self, run: &str, worker: &str) -> Result<bool, StoreError>;
}

/// The SQLite store: one file, WAL mode, one connection guarded by a mutex (SQLite
/// serialises writers anyway). Calls block; the server makes them off the async threads.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    connection: Arc<Mutex<Connection>>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS users (
    org TEXT NOT NULL, id TEXT NOT NULL, created_ms INTEGER NOT NULL, PRIMARY KEY (org, id));
CREATE TABLE IF NOT EXISTS tokens (
    hash TEXT PRIMARY KEY, org TEXT NOT NULL, user TEXT NOT NULL, created_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY, org TEXT NOT NULL, user TEXT NOT NULL, status TEXT NOT NULL,
    request TEXT NOT NULL, state TEXT, answer TEXT, error TEXT, decisions TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    lease_owner TEXT, lease_until_ms INTEGER,
    created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS runs_by_status ON runs (status, created_ms);
CREATE INDEX IF NOT EXISTS runs_by_owner ON runs (org, user, created_ms);
CREATE TABLE IF NOT EXISTS events (
    run TEXT NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (run, seq));
";

fn row_to_run(row: &rusqlite::Row<'_>) -> rusqlite::Result<RunRecord> {
    let request: String = row.get("request")?;
    Ok(RunRecord {
        id: row.get("id")?,
        owner: Principal { org: row.get("org")?, user: row.get("user")? },
        status: RunStatus::parse(&row.get::<_, String>("status")?),
        request: serde_json::from_str(&request).unwrap_or(serde_json::Value::Null),
        answer: row.get("answer")?,
        error: row.get("error")?,
        state: row.get("state")?,
        decisions: row.get("decisions")?,
        cancel_requested: row.get::<_, i64>("cancel_requested")? != 0,
        created_ms: row.get("created_ms")?,
        updated_ms: row.get("updated_ms")?,
    })
}

pub(crate) fn random_hex(bytes: usize) -> Result<String, StoreError> {
    let mut buffer = vec![0u8; bytes];
    getrandom::fill(&mut buffer).map_err(|e| StoreError::Database(format!("no randomness: {e}")))?;
    Ok(buffer.iter().map(|b| format!("{b:02x}")).collect())
}

impl SqliteStore {
    /// Opens (creating when new) the database at `path`.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        let connection = Connection::open(path)?;
        Self::prepare(connection)
    }

    /// A store in memory (for tests and one-off use).
    pub fn in_memory() -> Result<Self, StoreError> {
        Self::prepare(Connection::open_in_memory()?)
    }

    fn prepare(connection: Connection) -> Result<Self, StoreError> {
        connection.pragma_update(None, "journal_mode", "WAL")?;
        connection.pragma_update(None, "synchronous", "NORMAL")?;
        connection.busy_timeout(Duration::from_secs(5))?;
        connection.execute_batch(SCHEMA)?;
        Ok(SqliteStore { connection: Arc::new(Mutex::new(connection)) })
    }

    fn with<T>(&self, f: impl FnOnce(&mut Connection) -> Result<T, StoreError>) -> Result<T, StoreError> {
        let mut connection = self.connection.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        f(&mut connection)
    }
}

impl Store for SqliteStore {
    fn create_token(&self, org: &str, user: &str) -> Result<String, StoreError> {
        check_name("organisation", org)?;
        check_name("user", user)?;
        let token = format!("tk_{}", random_hex(32)?);
        let hash = token_hash(&token);
        self.with(|c| {
            let tx = c.transaction()?;
            let now = now_ms();
            tx.execute(
                "INSERT OR IGNORE INTO users (org, id, created_ms) VALUES (?1, ?2, ?3)",
                params![org, user, now],
            )?;
            tx.execute(
                "INSERT INTO tokens (hash, org, user, created_ms) VALUES (?1, ?2, ?3, ?4)",
                params![hash, org, user, now],
            )?;
            tx.commit()?;
            Ok(())
        })?;
        Ok(token)
    }

    fn authenticate(&self, token: &str) -> Result<Option<Principal>, StoreError> {
        let hash = token_hash(token);
        self.with(|c| {
            Ok(c.query_row("SELECT org, user FROM tokens WHERE hash = ?1", params![hash], |row| {
                Ok(Principal { org: row.get(0)?, user: row.get(1)? })
            })
            .optional()?)
        })
    }

    fn create_run(&self, owner: &Principal, request: &serde_json::Value) -> Result<RunRecord, StoreError> {
        let id = format!("run_{}", random_hex(12)?);
        let now = now_ms();
        let text = request.to_string();
        self.with(|c| {
            c.execute(
                "INSERT INTO runs (id, org, user, status, request, created_ms, updated_ms) VALUES (?1, ?2, ?3, 'queued', ?4, ?5, ?5)",
                params![id, owner.org, owner.user, text, now],
            )?;
            Ok(())
        })?;
        Ok(RunRecord {
            id,
            owner: owner.clone(),
            status: RunStatus::Queued,
            request: request.clone(),
            answer: None,
            error: None,
            state: None,
            decisions: None,
            cancel_requested: false,
            created_ms: now,
            updated_ms: now,
        })
    }

    fn run(&self, owner: &Principal, id: &str) -> Result<Option<RunRecord>, StoreError> {
        self.with(|c| {
            Ok(c.query_row(
                "SELECT * FROM runs WHERE id = ?1 AND org = ?2 AND user = ?3",
                params![id, owner.org, owner.user],
                row_to_run,
            )
            .optional()?)
        })
    }

    fn claim(&self, worker: &str, lease: Duration) -> Result<Option<RunRecord>, StoreError> {
        let now = now_ms();
        let until = now + lease.as_millis() as i64;
        self.with(|c| {
            let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let id: Option<String> = tx
                .query_row(
                    "SELECT id FROM runs WHERE status = 'queued' OR (status = 'running' AND lease_until_ms < ?1)
                     ORDER BY created_ms LIMIT 1",
                    params![now],
                    |row| row.get(0),
                )
                .optional()?;
            let Some(id) = id else { return Ok(None) };
            tx.execute(
                "UPDATE runs SET status = 'running', lease_owner = ?1, lease_until_ms = ?2, updated_ms = ?3 WHERE id = ?4",
                params![worker, until, now, id],
            )?;
            let run = tx.query_row("SELECT * FROM runs WHERE id = ?1", params![id], row_to_run)?;
            tx.commit()?;
            Ok(Some(run))
        })
    }

    fn heartbeat(&self, run: &str, worker: &str, lease: Duration) -> Result<bool, StoreError> {
        let until = now_ms() + lease.as_millis() as i64;
        self.with(|c| {
            Ok(c.execute(
                "UPDATE runs SET lease_until_ms = ?1 WHERE id = ?2 AND lease_owner = ?3 AND status = 'running'",
                params![until, run, worker],
            )? == 1)
        })
    }

    fn append_events(
        &self,
        run: &str,
        worker: &str,
        events: &[String],
        checkpoint: Option<&str>,
    ) -> Result<Option<i64>, StoreError> {
        self.with(|c| {
            let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let holds: bool = tx
                .query_row(
                    "SELECT 1 FROM runs WHERE id = ?1 AND lease_owner = ?2 AND status = 'running'",
                    params![run, worker],
                    |_| Ok(true),
                )
                .optional()?
                .unwrap_or(false);
            if !holds {
                return Ok(None);
            }
            let mut seq: i64 = tx.query_row(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE run = ?1",
                params![run],
                |row| row.get(0),
            )?;
            {
                let mut insert =
                    tx.prepare_cached("INSERT INTO events (run, seq, data) VALUES (?1, ?2, ?3)")?;
                for event in events {
                    seq += 1;
                    insert.execute(params![run, seq, event])?;
                }
            }
            if let Some(state) = checkpoint {
                tx.execute(
                    "UPDATE runs SET state = ?1, updated_ms = ?2 WHERE id = ?3",
                    params![state, now_ms(), run],
                )?;
            }
            tx.commit()?;
            Ok(Some(seq))
        })
    }

    fn events_after(
        &self,
        owner: &Principal,
        run: &str,
        after: i64,
        limit: usize,
    ) -> Result<Vec<(i64, String)>, StoreError> {
        self.with(|c| {
            let mut statement = c.prepare_cached(
                "SELECT e.seq, e.data FROM events e JOIN runs r ON r.id = e.run
                 WHERE e.run = ?1 AND r.org = ?2 AND r.user = ?3 AND e.seq > ?4 ORDER BY e.seq LIMIT ?5",
            )?;
            let rows = statement.query_map(
                params![run, owner.org, owner.user, after, limit.min(i64::MAX as usize) as i64],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    fn settle(&self, run: &str, worker: &str, settlement: &Settlement) -> Result<bool, StoreError> {
        self.with(|c| {
            Ok(c.execute(
                "UPDATE runs SET status = ?1, state = COALESCE(?2, state), answer = ?3, error = ?4, decisions = NULL,
                 lease_owner = NULL, lease_until_ms = NULL, updated_ms = ?5 WHERE id = ?6 AND lease_owner = ?7",
                params![
                    settlement.status.as_str(),
                    settlement.state,
                    settlement.answer,
                    settlement.error,
                    now_ms(),
                    run,
                    worker
                ],
            )? == 1)
        })
    }

    fn submit_decisions(&self, owner: &Principal, run: &str, decisions: &str) -> Result<bool, StoreError> {
        self.with(|c| {
            Ok(c.execute(
                "UPDATE runs SET status = 'queued', decisions = ?1, updated_ms = ?2
                 WHERE id = ?3 AND org = ?4 AND user = ?5 AND status = 'suspended'",
                params![decisions, now_ms(), run, owner.org, owner.user],
            )? == 1)
        })
    }

    fn cancel(&self, owner: &Principal, run: &str) -> Result<Option<RunStatus>, StoreError> {
        self.with(|c| {
            let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let status: Option<String> = tx
                .query_row(
                    "SELECT status FROM runs WHERE id = ?1 AND org = ?2 AND user = ?3",
                    params![run, owner.org, owner.user],
                    |row| row.get(0),
                )
                .optional()?;
            let Some(status) = status.map(|s| RunStatus::parse(&s)) else { return Ok(None) };
            let now = now_ms();
            let after = match status {
                RunStatus::Queued | RunStatus::Suspended => {
                    tx.execute(
                        "UPDATE runs SET status = 'cancelled', decisions = NULL, error = 'cancelled', updated_ms = ?1 WHERE id = ?2",
                        params![now, run],
                    )?;
                    RunStatus::Cancelled
                }
                RunStatus::Running => {
                    tx.execute("UPDATE runs SET cancel_requested = 1, updated_ms = ?1 WHERE id = ?2", params![now, run])?;
                    RunStatus::Running
                }
                settled => settled,
            };
            tx.commit()?;
            Ok(Some(after))
        })
    }

    fn release(&self, run: &str, worker: &str) -> Result<bool, StoreError> {
        self.with(|c| {
            Ok(c.execute(
                "UPDATE runs SET lease_until_ms = 0 WHERE id = ?1 AND lease_owner = ?2 AND status = 'running'",
                params![run, worker],
            )? == 1)
        })
    }

    fn cancel_requested(&self, run: &str) -> Result<bool, StoreError> {
        self.with(|c| {
            Ok(c.query_row("SELECT cancel_requested FROM runs WHERE id = ?1", params![run], |row| {
                row.get::<_, i64>(0)
            })
            .optional()?
            .is_some_and(|flag| flag != 0))
        })
    }
}

/// The store chosen when the server starts: SQLite in a file, or PostgreSQL.
#[derive(Debug, Clone)]
pub enum AnyStore {
    /// SQLite.
    Sqlite(SqliteStore),
    /// PostgreSQL.
    Postgres(crate::pg::PgStore),
}

impl AnyStore {
    /// `postgres://…` (or `postgresql://…`): PostgreSQL with up to `connections`
    /// connections; anything else: the SQLite file at that path.
    pub fn open(database: &str, connections: u32) -> Result<Self, StoreError> {
        if database.starts_with("postgres://") || database.starts_with("postgresql://") {
            Ok(AnyStore::Postgres(crate::pg::PgStore::open(database, connections)?))
        } else {
            Ok(AnyStore::Sqlite(SqliteStore::open(Path::new(database))?))
        }
    }

    fn inner(&self) -> &dyn Store {
        match self {
            AnyStore::Sqlite(store) => store,
            AnyStore::Postgres(store) => store,
        }
    }
}

impl Store for AnyStore {
    fn create_token(&self, org: &str, user: &str) -> Result<String, StoreError> {
        self.inner().create_token(org, user)
    }
    fn authenticate(&self, token: &str) -> Result<Option<Principal>, StoreError> {
        self.inner().authenticate(token)
    }
    fn create_run(&self, owner: &Principal, request: &serde_json::Value) -> Result<RunRecord, StoreError> {
        self.inner().create_run(owner, request)
    }
    fn run(&self, owner: &Principal, id: &str) -> Result<Option<RunRecord>, StoreError> {
        self.inner().run(owner, id)
    }
    fn claim(&self, worker: &str, lease: Duration) -> Result<Option<RunRecord>, StoreError> {
        self.inner().claim(worker, lease)
    }
    fn heartbeat(&self, run: &str, worker: &str, lease: Duration) -> Result<bool, StoreError> {
        self.inner().heartbeat(run, worker, lease)
    }
    fn append_events(
        &self,
        run: &str,
        worker: &str,
        events: &[String],
        checkpoint: Option<&str>,
    ) -> Result<Option<i64>, StoreError> {
        self.inner().append_events(run, worker, events, checkpoint)
    }
    fn events_after(
        &self,
        owner: &Principal,
        run: &str,
        after: i64,
        limit: usize,
    ) -> Result<Vec<(i64, String)>, StoreError> {
        self.inner().events_after(owner, run, after, limit)
    }
    fn settle(&self, run: &str, worker: &str, settlement: &Settlement) -> Result<bool, StoreError> {
        self.inner().settle(run, worker, settlement)
    }
    fn submit_decisions(&self, owner: &Principal, run: &str, decisions: &str) -> Result<bool, StoreError> {
        self.inner().submit_decisions(owner, run, decisions)
    }
    fn cancel(&self, owner: &Principal, run: &str) -> Result<Option<RunStatus>, StoreError> {
        self.inner().cancel(owner, run)
    }
    fn cancel_requested(&self, run: &str) -> Result<bool, StoreError> {
        self.inner().cancel_requested(run)
    }
    fn release(&self, run: &str, worker: &str) -> Result<bool, StoreError> {
        self.inner().release(run, worker)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_stored_hashed_and_scope_every_read() {
        let store = SqliteStore::in_memory().unwrap();
        let alice = store.create_token("acme", "alice").unwrap();
        let bob = store.create_token("acme", "bob").unwrap();
        assert!(alice.starts_with("tk_") && alice.len() == 67);
        let stored: Vec<String> = store
            .with(|c| {
                let mut s = c.prepare("SELECT hash FROM tokens").unwrap();
                Ok(s.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect())
            })
            .unwrap();
        assert!(!stored.iter().any(|h| h == &alice), "a token is never kept in clear");
        let a = store.authenticate(&alice).unwrap().unwrap();
        let b = store.authenticate(&bob).unwrap().unwrap();
        assert_eq!(a, Principal { org: "acme".into(), user: "alice".into() });
        assert!(store.authenticate("tk_nope").unwrap().is_none());

        let run = store.create_run(&a, &serde_json::json!({"prompt": "hi"})).unwrap();
        assert!(store.run(&a, &run.id).unwrap().is_some());
        assert!(store.run(&b, &run.id).unwrap().is_none(), "another user's run is invisible");
        assert!(store.create_token("acme", "bad name").is_err());
    }

    #[test]
    fn runs_are_claimed_once_and_events_numbered_in_order() {
        let store = SqliteStore::in_memory().unwrap();
        let token = store.create_token("o", "u").unwrap();
        let owner = store.authenticate(&token).unwrap().unwrap();
        let run = store.create_run(&owner, &serde_json::json!({"prompt": "x"})).unwrap();
        let lease = Duration::from_secs(30);
        let claimed = store.claim("w1", lease).unwrap().unwrap();
        assert_eq!(claimed.id, run.id);
        assert!(store.claim("w2", lease).unwrap().is_none(), "a leased run is not claimed twice");
        assert_eq!(
            store.append_events(&run.id, "w1", &["a".into(), "b".into()], Some("{}")).unwrap(),
            Some(2)
        );
        assert_eq!(
            store.append_events(&run.id, "w2", &["c".into()], None).unwrap(),
            None,
            "only the holder appends"
        );
        assert_eq!(store.append_events(&run.id, "w1", &["c".into()], None).unwrap(), Some(3));
        assert_eq!(store.run(&owner, &run.id).unwrap().unwrap().state.as_deref(), Some("{}"));
        let after_one: Vec<i64> =
            store.events_after(&owner, &run.id, 1, 10).unwrap().into_iter().map(|e| e.0).collect();
        assert_eq!(after_one, vec![2, 3]);

        // An expired lease lets another worker take over.
        assert!(store.heartbeat(&run.id, "w1", Duration::ZERO).unwrap());
        std::thread::sleep(Duration::from_millis(5));
        let taken = store.claim("w2", lease).unwrap().unwrap();
        assert_eq!(taken.id, run.id);
        assert!(!store.heartbeat(&run.id, "w1", lease).unwrap(), "the old holder lost it");
        let settled =
            Settlement { status: RunStatus::Answered, state: None, answer: Some("ok".into()), error: None };
        assert!(!store.settle(&run.id, "w1", &settled).unwrap());
        assert!(store.settle(&run.id, "w2", &settled).unwrap());
        assert_eq!(store.run(&owner, &run.id).unwrap().unwrap().status, RunStatus::Answered);
    }
}
