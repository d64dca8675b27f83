//! Where the server keeps everything: organisations, users and their tokens (hashed),
//! runs as jobs with leases, and each run's events with persistent sequence numbers.
//!
//! [`Store`] is the one interface; [`SqliteStore`](crate::SqliteStore) needs nothing
//! installed (a file in the data dir, WAL mode), [`PgStore`](crate::PgStore) lets many
//! server processes share one PostgreSQL. Every read of a run, a session, events or
//! credits is scoped to a [`Principal`]: a token never reaches another user's data.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Serialize;
use sha2::{Digest, Sha256};

/// A store failure.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The database refused or failed.
    #[error("the store failed: {0}")]
    Database(String),
    /// A name or value that cannot be used.
    #[error("{0}")]
    Invalid(String),
    /// Nothing with that name (a session, a plan) is there, or it is not the caller's.
    #[error("{0}")]
    NotFound(String),
    /// The request conflicts with the stored state (a session whose last run is still
    /// going).
    #[error("{0}")]
    Conflict(String),
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
    /// The session the run belongs to (none for a temporary conversation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The run whose conversation this one continues.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous: Option<String>,
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

/// Where a new run goes: a new session, one it continues, or none (a temporary
/// conversation, kept out of the history).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionLink {
    /// A new session with this title.
    New {
        /// The title (the first prompt, shortened).
        title: String,
    },
    /// The next run of this session, which must be the owner's and have no run going.
    Continue {
        /// The session id.
        session: String,
    },
    /// No session.
    Temporary,
}

/// A conversation: its runs, one after another.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SessionRecord {
    /// The session id.
    pub id: String,
    /// Its title (the first prompt, shortened).
    pub title: String,
    /// How many runs it has.
    pub run_count: i64,
    /// Its latest run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_run: Option<String>,
    /// When it was created, in milliseconds since the epoch.
    pub created_ms: i64,
    /// When a run was last added.
    pub updated_ms: i64,
}

/// A plan: the capability keys it unlocks and the credits a user gets on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct PlanRecord {
    /// The plan's name.
    pub name: String,
    /// The capability keys it unlocks (`web_search`, `memory`, …).
    pub capabilities: Vec<String>,
    /// Credits granted (in millionths) when a user is put on the plan.
    pub allowance_micros: i64,
}

/// What the store holds about a user's organisation and the user, for setting up runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TenantRecord {
    /// The organisation's policy (JSON), when one was set.
    pub org_policy: Option<String>,
    /// The user's plan, when they have one.
    pub plan: Option<PlanRecord>,
    /// The user's profile (JSON: preferences and setting values), when set.
    pub profile: Option<String>,
    /// The organisation's secrets, sealed, by `<tool>.<field>`.
    pub sealed_secrets: Vec<(String, Vec<u8>)>,
    /// The user's balance in millionths of a credit, when the user is metered.
    pub balance_micros: Option<i64>,
}

/// A charge to write with a run's events: the event it belongs to (by index in the
/// batch) is its key, so that it is written exactly once, as its event is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventCharge {
    /// Which event of the batch.
    pub event: usize,
    /// `model` or `tool`.
    pub kind: &'static str,
    /// What was charged for (the model, the tool).
    pub detail: String,
    /// The amount in millionths of a credit (negative: a refund).
    pub amount_micros: i64,
}

/// A charge taken outside an event (a call's price, when it is admitted).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Charge<'a> {
    /// What makes it one charge: a second with the same key for the run is not taken.
    pub key: &'a str,
    /// `model` or `tool`.
    pub kind: &'a str,
    /// What was charged for.
    pub detail: &'a str,
    /// The amount in millionths of a credit.
    pub amount_micros: i64,
}

/// A change another process made, heard through [`Store::watch`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Change {
    /// A run was queued (or released for another worker).
    Queued,
    /// The run's events or status changed.
    Run(String),
    /// Changes may have been missed (the listening connection was lost): read everything
    /// again.
    Lost,
}

/// How a charge went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charged {
    /// Taken; the balance after it, when the user is metered.
    Taken(Option<i64>),
    /// Taken before under the same key: not taken again.
    Already,
    /// Not taken: the balance (shown) does not cover it.
    Refused(i64),
}

/// What a user's runs have cost, per run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UsageLine {
    /// The run (empty for grants).
    pub run: String,
    /// Charged for model rounds, in millionths of a credit.
    pub model_micros: i64,
    /// Charged for tool calls.
    pub tool_micros: i64,
    /// Granted (plan allowances, top-ups).
    pub granted_micros: i64,
}

/// The store's operations. Every method is safe to call from many tasks at once; writes
/// that must not race (claiming a run, appending an event, charging credits) are atomic
/// in the store.
pub trait Store: Send + Sync + 'static {
    /// Makes a token for `user` of `org` (creating both when new); returns the token,
    /// which is not kept anywhere in clear.
    fn create_token(&self, org: &str, user: &str) -> Result<String, StoreError>;

    /// Who holds `token`, if anyone.
    fn authenticate(&self, token: &str) -> Result<Option<Principal>, StoreError>;

    /// Queues a new run for `owner`, in the session `link` says. Continuing a session
    /// that is not the owner's is [`StoreError::NotFound`]; one whose last run has not
    /// settled (or waits for decisions) is [`StoreError::Conflict`].
    fn create_run(
        &self,
        owner: &Principal,
        request: &serde_json::Value,
        link: &SessionLink,
    ) -> Result<RunRecord, StoreError>;

    /// The run, if it is `owner`'s.
    fn run(&self, owner: &Principal, id: &str) -> Result<Option<RunRecord>, StoreError>;

    /// The last checkpoint of `run` (for a worker going on with its conversation).
    fn state_of(&self, run: &str) -> Result<Option<String>, StoreError>;

    /// Takes the oldest runnable run (queued, or running under an expired lease) for
    /// `worker`, leased for `lease`.
    fn claim(&self, worker: &str, lease: Duration) -> Result<Option<RunRecord>, StoreError>;

    /// Extends `worker`'s lease on `run`; false when the worker no longer holds it.
    fn heartbeat(&self, run: &str, worker: &str, lease: Duration) -> Result<bool, StoreError>;

    /// Appends events to `run` in order, each with the next sequence number, debits the
    /// `charges` that go with them and keeps `checkpoint` as the run's state when given —
    /// in one transaction; returns the last number given. Refused (`Ok(None)`) when
    /// `worker` no longer holds the run.
    fn append_events(
        &self,
        run: &str,
        worker: &str,
        events: &[String],
        charges: &[EventCharge],
        checkpoint: Option<&str>,
    ) -> Result<Option<i64>, StoreError>;

    /// `owner`'s run's status and its events after `after` (at most `limit`), read
    /// together: when the status is settled, every event of the run is among those read or
    /// before them. `None` when the run is not `owner`'s.
    fn follow(
        &self,
        owner: &Principal,
        run: &str,
        after: i64,
        limit: usize,
    ) -> Result<Option<Followed>, StoreError>;

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

    /// Changes other processes make to the store, as they commit, when the store can tell
    /// (PostgreSQL's `LISTEN`); `None` when it cannot, and the server polls. Ends when the
    /// receiver is dropped.
    fn watch(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Change>> {
        None
    }

    /// `owner`'s sessions, the most recently used first, at most `limit`.
    fn sessions(&self, owner: &Principal, limit: usize) -> Result<Vec<SessionRecord>, StoreError>;

    /// `owner`'s session and its runs in order, if it is theirs.
    fn session(
        &self,
        owner: &Principal,
        id: &str,
    ) -> Result<Option<(SessionRecord, Vec<RunRecord>)>, StoreError>;

    /// Sets `org`'s policy (JSON, checked by the caller), creating the organisation.
    fn set_org_policy(&self, org: &str, policy: &str) -> Result<(), StoreError>;

    /// Creates or changes a plan.
    fn set_plan(&self, plan: &PlanRecord) -> Result<(), StoreError>;

    /// Puts `user` of `org` on `plan` (creating the user); when the plan is a different
    /// one, its allowance is granted. Returns the balance.
    fn assign_plan(&self, org: &str, user: &str, plan: &str) -> Result<Option<i64>, StoreError>;

    /// Sets `owner`'s profile (JSON, checked by the caller).
    fn set_profile(&self, owner: &Principal, profile: &str) -> Result<(), StoreError>;

    /// Keeps `org`'s secret for `<tool>.<field>`, sealed by the caller.
    fn put_secret(&self, org: &str, address: &str, sealed: &[u8]) -> Result<(), StoreError>;

    /// Removes `org`'s secret; false when there was none.
    fn remove_secret(&self, org: &str, address: &str) -> Result<bool, StoreError>;

    /// What runs of `owner` are set up from.
    fn tenant(&self, owner: &Principal) -> Result<TenantRecord, StoreError>;

    /// Grants `user` of `org` credits (negative: takes them back), making the user
    /// metered; returns the balance.
    fn grant(&self, org: &str, user: &str, amount_micros: i64, note: &str) -> Result<i64, StoreError>;

    /// Charges `owner` for `run` (once per key), refusing when `cover` and the balance of a
    /// metered user is less than the amount.
    fn charge(
        &self,
        owner: &Principal,
        run: &str,
        charge: &Charge<'_>,
        cover: bool,
    ) -> Result<Charged, StoreError>;

    /// `owner`'s balance, when metered.
    fn balance(&self, owner: &Principal) -> Result<Option<i64>, StoreError>;

    /// What `owner`'s runs cost (only `run` when given), most recent first, at most
    /// `limit` runs.
    fn usage(&self, owner: &Principal, run: Option<&str>, limit: usize)
    -> Result<Vec<UsageLine>, StoreError>;
}

/// Opens the store `database` names: `postgres://…` (or `postgresql://…`) is PostgreSQL
/// with up to `connections` connections; anything else is the SQLite file at that path.
/// The schema is brought up to date either way.
pub fn open(database: &str, connections: u32) -> Result<Arc<dyn Store>, StoreError> {
    if database.starts_with("postgres://") || database.starts_with("postgresql://") {
        Ok(Arc::new(crate::pg::PgStore::open(database, connections)?))
    } else {
        Ok(Arc::new(crate::sqlite::SqliteStore::open(Path::new(database))?))
    }
}

pub(crate) fn random_hex(bytes: usize) -> Result<String, StoreError> {
    let mut buffer = vec![0u8; bytes];
    getrandom::fill(&mut buffer).map_err(|e| StoreError::Database(format!("no randomness: {e}")))?;
    Ok(buffer.iter().map(|b| format!("{b:02x}")).collect())
}

/// A plan as stored (its capabilities as a JSON list).
pub(crate) fn plan_record(
    name: String,
    capabilities: &str,
    allowance_micros: i64,
) -> Result<PlanRecord, StoreError> {
    let capabilities = serde_json::from_str(capabilities)
        .map_err(|e| StoreError::Database(format!("plan {name:?} is stored damaged: {e}")))?;
    Ok(PlanRecord { name, capabilities, allowance_micros })
}

/// Whether a session whose last run is in `status` may be continued.
pub(crate) fn check_continuable(status: RunStatus) -> Result<(), StoreError> {
    match status {
        RunStatus::Answered | RunStatus::Failed | RunStatus::Cancelled => Ok(()),
        RunStatus::Suspended => Err(StoreError::Conflict(
            "the session's last run waits for decisions: decide or cancel it first".into(),
        )),
        RunStatus::Queued | RunStatus::Running => Err(StoreError::Conflict(
            "the session's last run is still going: wait for it or cancel it".into(),
        )),
    }
}

/// A run's status and events after a point, read together ([`Store::follow`]).
pub type Followed = (RunStatus, Vec<(i64, String)>);

/// The ledger key of a charge written with event `seq`.
pub(crate) fn event_key(seq: i64) -> String {
    format!("event:{seq}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SqliteStore;

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

        let run =
            store.create_run(&a, &serde_json::json!({"prompt": "hi"}), &SessionLink::Temporary).unwrap();
        assert!(store.run(&a, &run.id).unwrap().is_some());
        assert!(store.run(&b, &run.id).unwrap().is_none(), "another user's run is invisible");
        assert!(store.create_token("acme", "bad name").is_err());
    }

    #[test]
    fn runs_are_claimed_once_and_events_numbered_in_order() {
        let store = SqliteStore::in_memory().unwrap();
        let token = store.create_token("o", "u").unwrap();
        let owner = store.authenticate(&token).unwrap().unwrap();
        let run =
            store.create_run(&owner, &serde_json::json!({"prompt": "x"}), &SessionLink::Temporary).unwrap();
        let lease = Duration::from_secs(30);
        let claimed = store.claim("w1", lease).unwrap().unwrap();
        assert_eq!(claimed.id, run.id);
        assert!(store.claim("w2", lease).unwrap().is_none(), "a leased run is not claimed twice");
        assert_eq!(
            store.append_events(&run.id, "w1", &["a".into(), "b".into()], &[], Some("{}")).unwrap(),
            Some(2)
        );
        assert_eq!(
            store.append_events(&run.id, "w2", &["c".into()], &[], None).unwrap(),
            None,
            "only the holder appends"
        );
        assert_eq!(store.append_events(&run.id, "w1", &["c".into()], &[], None).unwrap(), Some(3));
        assert_eq!(store.run(&owner, &run.id).unwrap().unwrap().state.as_deref(), Some("{}"));
        let after_one: Vec<i64> =
            store.follow(&owner, &run.id, 1, 10).unwrap().unwrap().1.into_iter().map(|e| e.0).collect();
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
