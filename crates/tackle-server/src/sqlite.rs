//! The SQLite store: one file in the data dir, WAL mode, one connection guarded by a
//! mutex (SQLite serialises writers anyway). Calls block; the server makes them off the
//! async threads.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};

use crate::store::{
    Charge, Charged, EventCharge, Followed, PlanRecord, Principal, RunRecord, RunStatus, SessionLink,
    SessionRecord, Settlement, Store, StoreError, TenantRecord, UsageLine, check_continuable, check_name,
    event_key, now_ms, plan_record, random_hex, token_hash,
};

/// The SQLite store.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    connection: Arc<Mutex<Connection>>,
}

/// The schema's migrations, in order; the store keeps the number of those applied.
const MIGRATIONS: &[&str] = &[
    // 1: tokens, runs as jobs, events.
    "
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
",
    // 2: sessions, organisations, plans, profiles, secrets, credits.
    "
ALTER TABLE runs ADD COLUMN session TEXT;
ALTER TABLE runs ADD COLUMN previous TEXT;
CREATE INDEX runs_by_session ON runs (session, created_ms);
ALTER TABLE users ADD COLUMN plan TEXT;
ALTER TABLE users ADD COLUMN profile TEXT;
CREATE TABLE sessions (
    id TEXT PRIMARY KEY, org TEXT NOT NULL, user TEXT NOT NULL, title TEXT NOT NULL,
    last_run TEXT, runs INTEGER NOT NULL, created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL);
CREATE INDEX sessions_by_owner ON sessions (org, user, updated_ms);
CREATE TABLE orgs (id TEXT PRIMARY KEY, policy TEXT NOT NULL, updated_ms INTEGER NOT NULL);
CREATE TABLE plans (name TEXT PRIMARY KEY, capabilities TEXT NOT NULL, allowance_micros INTEGER NOT NULL);
CREATE TABLE secrets (
    org TEXT NOT NULL, address TEXT NOT NULL, sealed BLOB NOT NULL, updated_ms INTEGER NOT NULL,
    PRIMARY KEY (org, address));
CREATE TABLE accounts (
    org TEXT NOT NULL, user TEXT NOT NULL, balance_micros INTEGER NOT NULL, PRIMARY KEY (org, user));
CREATE TABLE ledger (
    run TEXT NOT NULL, key TEXT NOT NULL, org TEXT NOT NULL, user TEXT NOT NULL, kind TEXT NOT NULL,
    detail TEXT NOT NULL, amount_micros INTEGER NOT NULL, created_ms INTEGER NOT NULL,
    PRIMARY KEY (run, key));
CREATE INDEX ledger_by_owner ON ledger (org, user, run);
",
];

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
        session: row.get("session")?,
        previous: row.get("previous")?,
        created_ms: row.get("created_ms")?,
        updated_ms: row.get("updated_ms")?,
    })
}

fn row_to_session(row: &rusqlite::Row<'_>) -> rusqlite::Result<SessionRecord> {
    Ok(SessionRecord {
        id: row.get("id")?,
        title: row.get("title")?,
        run_count: row.get("runs")?,
        last_run: row.get("last_run")?,
        created_ms: row.get("created_ms")?,
        updated_ms: row.get("updated_ms")?,
    })
}

/// The user's balance, when metered.
fn account(c: &Connection, org: &str, user: &str) -> Result<Option<i64>, StoreError> {
    Ok(c.query_row(
        "SELECT balance_micros FROM accounts WHERE org = ?1 AND user = ?2",
        params![org, user],
        |row| row.get(0),
    )
    .optional()?)
}

/// Writes one ledger line (once per run and key) and moves the balance of a metered user;
/// refused when `cover` and the balance is short. Inside the caller's transaction.
fn debit(
    c: &Connection,
    (org, user): (&str, &str),
    run: &str,
    (key, kind, detail, amount): (&str, &str, &str, i64),
    cover: bool,
) -> Result<Charged, StoreError> {
    let seen = c
        .query_row("SELECT 1 FROM ledger WHERE run = ?1 AND key = ?2", params![run, key], |_| Ok(()))
        .optional()?
        .is_some();
    if seen {
        return Ok(Charged::Already);
    }
    let balance = account(c, org, user)?;
    if let Some(balance) = balance
        && cover
        && balance < amount
    {
        return Ok(Charged::Refused(balance));
    }
    c.execute(
        "INSERT INTO ledger (run, key, org, user, kind, detail, amount_micros, created_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![run, key, org, user, kind, detail, amount, now_ms()],
    )?;
    if balance.is_some() {
        c.execute(
            "UPDATE accounts SET balance_micros = balance_micros - ?1 WHERE org = ?2 AND user = ?3",
            params![amount, org, user],
        )?;
    }
    Ok(Charged::Taken(balance.map(|b| b.saturating_sub(amount))))
}

impl SqliteStore {
    /// Opens (creating when new) the database at `path`, bringing its schema up to date.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        let connection = Connection::open(path)?;
        Self::prepare(connection)
    }

    /// A store in memory (for tests and one-off use).
    pub fn in_memory() -> Result<Self, StoreError> {
        Self::prepare(Connection::open_in_memory()?)
    }

    fn prepare(mut connection: Connection) -> Result<Self, StoreError> {
        connection.pragma_update(None, "journal_mode", "WAL")?;
        connection.pragma_update(None, "synchronous", "NORMAL")?;
        connection.busy_timeout(Duration::from_secs(5))?;
        migrate(&mut connection)?;
        Ok(SqliteStore { connection: Arc::new(Mutex::new(connection)) })
    }

    pub(crate) fn with<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut connection = self.connection.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        f(&mut connection)
    }
}

/// Applies the migrations the database has not seen, in one transaction.
fn migrate(connection: &mut Connection) -> Result<(), StoreError> {
    let tx = connection.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    tx.execute_batch("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")?;
    let applied: i64 =
        tx.query_row("SELECT COALESCE(MAX(version), 0) FROM schema_version", [], |row| row.get(0))?;
    let applied = usize::try_from(applied).unwrap_or(0);
    if applied > MIGRATIONS.len() {
        return Err(StoreError::Invalid(format!(
            "the store has schema version {applied}, made by a newer tackle (this one knows {})",
            MIGRATIONS.len()
        )));
    }
    for migration in &MIGRATIONS[applied..] {
        tx.execute_batch(migration)?;
    }
    tx.execute("DELETE FROM schema_version", [])?;
    tx.execute("INSERT INTO schema_version (version) VALUES (?1)", params![MIGRATIONS.len() as i64])?;
    tx.commit()?;
    Ok(())
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

    fn create_run(
        &self,
        owner: &Principal,
        request: &serde_json::Value,
        link: &SessionLink,
    ) -> Result<RunRecord, StoreError> {
        let id = format!("run_{}", random_hex(12)?);
        let now = now_ms();
        let text = request.to_string();
        self.with(|c| {
            let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let (session, previous) = match link {
                SessionLink::Temporary => (None, None),
                SessionLink::New { title } => {
                    let session = format!("ses_{}", random_hex(12)?);
                    tx.execute(
                        "INSERT INTO sessions (id, org, user, title, last_run, runs, created_ms, updated_ms)
                         VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?6)",
                        params![session, owner.org, owner.user, title, id, now],
                    )?;
                    (Some(session), None)
                }
                SessionLink::Continue { session } => {
                    let last: Option<Option<String>> = tx
                        .query_row(
                            "SELECT last_run FROM sessions WHERE id = ?1 AND org = ?2 AND user = ?3",
                            params![session, owner.org, owner.user],
                            |row| row.get(0),
                        )
                        .optional()?;
                    let Some(last) = last else {
                        return Err(StoreError::NotFound("no session with that id is yours".into()));
                    };
                    if let Some(last) = &last {
                        let status: String =
                            tx.query_row("SELECT status FROM runs WHERE id = ?1", params![last], |row| {
                                row.get(0)
                            })?;
                        check_continuable(RunStatus::parse(&status))?;
                    }
                    tx.execute(
                        "UPDATE sessions SET last_run = ?1, runs = runs + 1, updated_ms = ?2 WHERE id = ?3",
                        params![id, now, session],
                    )?;
                    (Some(session.clone()), last)
                }
            };
            tx.execute(
                "INSERT INTO runs (id, org, user, status, request, session, previous, created_ms, updated_ms)
                 VALUES (?1, ?2, ?3, 'queued', ?4, ?5, ?6, ?7, ?7)",
                params![id, owner.org, owner.user, text, session, previous, now],
            )?;
            let run = tx.query_row("SELECT * FROM runs WHERE id = ?1", params![id], row_to_run)?;
            tx.commit()?;
            Ok(run)
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

    fn state_of(&self, run: &str) -> Result<Option<String>, StoreError> {
        self.with(|c| {
            Ok(c.query_row("SELECT state FROM runs WHERE id = ?1", params![run], |row| row.get(0))
                .optional()?
                .flatten())
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
        charges: &[EventCharge],
        checkpoint: Option<&str>,
    ) -> Result<Option<i64>, StoreError> {
        self.with(|c| {
            let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let holder: Option<(String, String)> = tx
                .query_row(
                    "SELECT org, user FROM runs WHERE id = ?1 AND lease_owner = ?2 AND status = 'running'",
                    params![run, worker],
                    |row| Ok((row.get(0)?, row.get(1)?)),
                )
                .optional()?;
            let Some((org, user)) = holder else {
                return Ok(None);
            };
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
            let first = seq - events.len() as i64 + 1;
            for charge in charges {
                let key = event_key(first + charge.event as i64);
                debit(
                    &tx,
                    (&org, &user),
                    run,
                    (&key, charge.kind, &charge.detail, charge.amount_micros),
                    false,
                )?;
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

    fn follow(
        &self,
        owner: &Principal,
        run: &str,
        after: i64,
        limit: usize,
    ) -> Result<Option<Followed>, StoreError> {
        // One connection, one lock: no write comes between the two reads.
        self.with(|c| {
            let status: Option<String> = c
                .query_row(
                    "SELECT status FROM runs WHERE id = ?1 AND org = ?2 AND user = ?3",
                    params![run, owner.org, owner.user],
                    |row| row.get(0),
                )
                .optional()?;
            let Some(status) = status else { return Ok(None) };
            let mut statement = c.prepare_cached(
                "SELECT seq, data FROM events WHERE run = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3",
            )?;
            let rows = statement
                .query_map(params![run, after, limit.min(i64::MAX as usize) as i64], |row| {
                    Ok((row.get(0)?, row.get(1)?))
                })?;
            Ok(Some((RunStatus::parse(&status), rows.collect::<Result<Vec<_>, _>>()?)))
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

    fn sessions(&self, owner: &Principal, limit: usize) -> Result<Vec<SessionRecord>, StoreError> {
        self.with(|c| {
            let mut statement = c.prepare_cached(
                "SELECT * FROM sessions WHERE org = ?1 AND user = ?2 ORDER BY updated_ms DESC, id LIMIT ?3",
            )?;
            let rows = statement.query_map(
                params![owner.org, owner.user, limit.min(i64::MAX as usize) as i64],
                row_to_session,
            )?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    fn session(
        &self,
        owner: &Principal,
        id: &str,
    ) -> Result<Option<(SessionRecord, Vec<RunRecord>)>, StoreError> {
        self.with(|c| {
            let Some(session) = c
                .query_row(
                    "SELECT * FROM sessions WHERE id = ?1 AND org = ?2 AND user = ?3",
                    params![id, owner.org, owner.user],
                    row_to_session,
                )
                .optional()?
            else {
                return Ok(None);
            };
            let mut statement =
                c.prepare_cached("SELECT * FROM runs WHERE session = ?1 ORDER BY created_ms, id")?;
            let runs = statement.query_map(params![id], row_to_run)?.collect::<Result<Vec<_>, _>>()?;
            Ok(Some((session, runs)))
        })
    }

    fn set_org_policy(&self, org: &str, policy: &str) -> Result<(), StoreError> {
        check_name("organisation", org)?;
        self.with(|c| {
            c.execute(
                "INSERT INTO orgs (id, policy, updated_ms) VALUES (?1, ?2, ?3)
                 ON CONFLICT (id) DO UPDATE SET policy = excluded.policy, updated_ms = excluded.updated_ms",
                params![org, policy, now_ms()],
            )?;
            Ok(())
        })
    }

    fn set_plan(&self, plan: &PlanRecord) -> Result<(), StoreError> {
        check_name("plan", &plan.name)?;
        let capabilities =
            serde_json::to_string(&plan.capabilities).map_err(|e| StoreError::Invalid(e.to_string()))?;
        self.with(|c| {
            c.execute(
                "INSERT INTO plans (name, capabilities, allowance_micros) VALUES (?1, ?2, ?3)
                 ON CONFLICT (name) DO UPDATE SET capabilities = excluded.capabilities,
                 allowance_micros = excluded.allowance_micros",
                params![plan.name, capabilities, plan.allowance_micros],
            )?;
            Ok(())
        })
    }

    fn assign_plan(&self, org: &str, user: &str, plan: &str) -> Result<Option<i64>, StoreError> {
        check_name("organisation", org)?;
        check_name("user", user)?;
        self.with(|c| {
            let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let allowance: Option<i64> = tx
                .query_row("SELECT allowance_micros FROM plans WHERE name = ?1", params![plan], |row| {
                    row.get(0)
                })
                .optional()?;
            let Some(allowance) = allowance else {
                return Err(StoreError::NotFound(format!("there is no plan {plan:?}")));
            };
            let now = now_ms();
            tx.execute(
                "INSERT OR IGNORE INTO users (org, id, created_ms) VALUES (?1, ?2, ?3)",
                params![org, user, now],
            )?;
            let changed = tx.execute(
                "UPDATE users SET plan = ?1 WHERE org = ?2 AND id = ?3 AND plan IS NOT ?1",
                params![plan, org, user],
            )? == 1;
            if changed && allowance != 0 {
                let key = format!("grant:{}", random_hex(8)?);
                tx.execute(
                    "INSERT OR IGNORE INTO accounts (org, user, balance_micros) VALUES (?1, ?2, 0)",
                    params![org, user],
                )?;
                debit(&tx, (org, user), "", (&key, "grant", &format!("plan {plan}"), -allowance), false)?;
            }
            let balance = account(&tx, org, user)?;
            tx.commit()?;
            Ok(balance)
        })
    }

    fn set_profile(&self, owner: &Principal, profile: &str) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO users (org, id, created_ms, profile) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (org, id) DO UPDATE SET profile = excluded.profile",
                params![owner.org, owner.user, now_ms(), profile],
            )?;
            Ok(())
        })
    }

    fn put_secret(&self, org: &str, address: &str, sealed: &[u8]) -> Result<(), StoreError> {
        check_name("organisation", org)?;
        self.with(|c| {
            c.execute(
                "INSERT INTO secrets (org, address, sealed, updated_ms) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (org, address) DO UPDATE SET sealed = excluded.sealed, updated_ms = excluded.updated_ms",
                params![org, address, sealed, now_ms()],
            )?;
            Ok(())
        })
    }

    fn remove_secret(&self, org: &str, address: &str) -> Result<bool, StoreError> {
        self.with(|c| {
            Ok(c.execute("DELETE FROM secrets WHERE org = ?1 AND address = ?2", params![org, address])? == 1)
        })
    }

    fn tenant(&self, owner: &Principal) -> Result<TenantRecord, StoreError> {
        self.with(|c| {
            let org_policy: Option<String> = c
                .query_row("SELECT policy FROM orgs WHERE id = ?1", params![owner.org], |row| row.get(0))
                .optional()?;
            let user: Option<(Option<String>, Option<String>)> = c
                .query_row(
                    "SELECT plan, profile FROM users WHERE org = ?1 AND id = ?2",
                    params![owner.org, owner.user],
                    |row| Ok((row.get(0)?, row.get(1)?)),
                )
                .optional()?;
            let (plan_name, profile) = user.unwrap_or((None, None));
            let plan = match plan_name {
                None => None,
                Some(name) => c
                    .query_row(
                        "SELECT name, capabilities, allowance_micros FROM plans WHERE name = ?1",
                        params![name],
                        |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?, row.get::<_, i64>(2)?)),
                    )
                    .optional()?
                    .map(|(name, capabilities, allowance_micros)| {
                        plan_record(name, &capabilities, allowance_micros)
                    })
                    .transpose()?,
            };
            let mut statement =
                c.prepare_cached("SELECT address, sealed FROM secrets WHERE org = ?1 ORDER BY address")?;
            let sealed_secrets = statement
                .query_map(params![owner.org], |row| Ok((row.get(0)?, row.get(1)?)))?
                .collect::<Result<Vec<_>, _>>()?;
            let balance_micros = account(c, &owner.org, &owner.user)?;
            Ok(TenantRecord { org_policy, plan, profile, sealed_secrets, balance_micros })
        })
    }

    fn grant(&self, org: &str, user: &str, amount_micros: i64, note: &str) -> Result<i64, StoreError> {
        check_name("organisation", org)?;
        check_name("user", user)?;
        self.with(|c| {
            let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            tx.execute(
                "INSERT OR IGNORE INTO users (org, id, created_ms) VALUES (?1, ?2, ?3)",
                params![org, user, now_ms()],
            )?;
            tx.execute(
                "INSERT OR IGNORE INTO accounts (org, user, balance_micros) VALUES (?1, ?2, 0)",
                params![org, user],
            )?;
            let key = format!("grant:{}", random_hex(8)?);
            debit(&tx, (org, user), "", (&key, "grant", note, amount_micros.saturating_neg()), false)?;
            let balance = account(&tx, org, user)?.unwrap_or(0);
            tx.commit()?;
            Ok(balance)
        })
    }

    fn charge(
        &self,
        owner: &Principal,
        run: &str,
        charge: &Charge<'_>,
        cover: bool,
    ) -> Result<Charged, StoreError> {
        self.with(|c| {
            let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let charged = debit(
                &tx,
                (&owner.org, &owner.user),
                run,
                (charge.key, charge.kind, charge.detail, charge.amount_micros),
                cover,
            )?;
            tx.commit()?;
            Ok(charged)
        })
    }

    fn balance(&self, owner: &Principal) -> Result<Option<i64>, StoreError> {
        self.with(|c| account(c, &owner.org, &owner.user))
    }

    fn usage(
        &self,
        owner: &Principal,
        run: Option<&str>,
        limit: usize,
    ) -> Result<Vec<UsageLine>, StoreError> {
        self.with(|c| {
            let mut statement = c.prepare_cached(
                "SELECT run,
                        COALESCE(SUM(CASE WHEN kind = 'model' THEN amount_micros END), 0),
                        COALESCE(SUM(CASE WHEN kind = 'tool' THEN amount_micros END), 0),
                        COALESCE(SUM(CASE WHEN kind = 'grant' THEN -amount_micros END), 0)
                 FROM ledger WHERE org = ?1 AND user = ?2 AND (?3 IS NULL OR run = ?3)
                 GROUP BY run ORDER BY MAX(created_ms) DESC, run LIMIT ?4",
            )?;
            let rows = statement.query_map(
                params![owner.org, owner.user, run, limit.min(i64::MAX as usize) as i64],
                |row| {
                    Ok(UsageLine {
                        run: row.get(0)?,
                        model_micros: row.get(1)?,
                        tool_micros: row.get(2)?,
                        granted_micros: row.get(3)?,
                    })
                },
            )?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_from_before_versions_is_brought_up_to_date_and_a_newer_one_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("server.db");
        {
            // The schema as the first release made it: no version row.
            let old = Connection::open(&path).unwrap();
            old.execute_batch(MIGRATIONS[0]).unwrap();
            old.execute(
                "INSERT INTO runs (id, org, user, status, request, created_ms, updated_ms)
                 VALUES ('run_old', 'acme', 'alice', 'answered', '{\"prompt\":\"hi\"}', 1, 1)",
                [],
            )
            .unwrap();
        }
        let store = SqliteStore::open(&path).unwrap();
        let owner = Principal { org: "acme".into(), user: "alice".into() };
        let run = store.run(&owner, "run_old").unwrap().unwrap();
        assert_eq!((run.status, run.session), (RunStatus::Answered, None));
        assert!(store.sessions(&owner, 10).unwrap().is_empty());
        drop(store);
        // Opening again applies nothing twice; a store from a newer tackle is refused.
        SqliteStore::open(&path).unwrap();
        Connection::open(&path).unwrap().execute("UPDATE schema_version SET version = 99", []).unwrap();
        let refused = SqliteStore::open(&path).unwrap_err().to_string();
        assert!(refused.contains("newer tackle"), "{refused}");
    }
}
