//! The PostgreSQL store: many server processes on many machines sharing one database.
//! Runs are claimed with `FOR UPDATE SKIP LOCKED`, so workers never wait on each other's
//! claims; appends to a run lock its row, so its events are numbered one at a time.

use std::time::Duration;

use postgres::NoTls;
use r2d2_postgres::PostgresConnectionManager;

use crate::store::{
    Principal, RunRecord, RunStatus, Settlement, Store, StoreError, check_name, now_ms, random_hex,
    token_hash,
};

/// The schema, created when missing (the migration of version 1).
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS users (
    org TEXT NOT NULL, id TEXT NOT NULL, created_ms BIGINT NOT NULL, PRIMARY KEY (org, id));
CREATE TABLE IF NOT EXISTS tokens (
    hash TEXT PRIMARY KEY, org TEXT NOT NULL, \"user\" TEXT NOT NULL, created_ms BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY, org TEXT NOT NULL, \"user\" TEXT NOT NULL, status TEXT NOT NULL,
    request TEXT NOT NULL, state TEXT, answer TEXT, error TEXT, decisions TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    lease_owner TEXT, lease_until_ms BIGINT,
    created_ms BIGINT NOT NULL, updated_ms BIGINT NOT NULL);
CREATE INDEX IF NOT EXISTS runs_by_status ON runs (status, created_ms);
CREATE INDEX IF NOT EXISTS runs_by_owner ON runs (org, \"user\", created_ms);
CREATE TABLE IF NOT EXISTS events (
    run TEXT NOT NULL, seq BIGINT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (run, seq));
";

type Pool = r2d2::Pool<PostgresConnectionManager<NoTls>>;

/// The PostgreSQL store: a pool of connections. Calls block; made on an async thread, they
/// step off it first (the client runs a runtime of its own).
#[derive(Clone)]
pub struct PgStore(Inner);

#[derive(Clone)]
struct Inner {
    pool: Closing,
}

/// The pool, closed where blocking is allowed: a connection's client closes by blocking on
/// a runtime of its own, which cannot start on an async thread.
#[derive(Clone)]
struct Closing(Option<Pool>);

impl std::ops::Deref for Closing {
    type Target = Pool;

    fn deref(&self) -> &Pool {
        // Only `drop` takes the pool out.
        self.0.as_ref().unwrap_or_else(|| unreachable!("the pool is only taken when dropped"))
    }
}

impl Drop for Closing {
    fn drop(&mut self) {
        if let Some(pool) = self.0.take()
            && tokio::runtime::Handle::try_current().is_ok()
        {
            let _ = std::thread::Builder::new().name("tackle-pg-close".into()).spawn(move || drop(pool));
        }
    }
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore").field("connections", &self.0.pool.state().connections).finish()
    }
}

/// Runs `f`, which blocks, where blocking is allowed: as it is outside a runtime, through
/// `block_in_place` on a multi-threaded one, on a scoped thread on a single-threaded one.
fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current() {
        Err(_) => f(),
        Ok(handle) if handle.runtime_flavor() == RuntimeFlavor::MultiThread => tokio::task::block_in_place(f),
        Ok(_) => std::thread::scope(|scope| match scope.spawn(f).join() {
            Ok(value) => value,
            Err(panic) => std::panic::resume_unwind(panic),
        }),
    }
}

impl Store for PgStore {
    fn create_token(&self, org: &str, user: &str) -> Result<String, StoreError> {
        off_runtime(|| self.0.create_token(org, user))
    }
    fn authenticate(&self, token: &str) -> Result<Option<Principal>, StoreError> {
        off_runtime(|| self.0.authenticate(token))
    }
    fn create_run(&self, owner: &Principal, request: &serde_json::Value) -> Result<RunRecord, StoreError> {
        off_runtime(|| self.0.create_run(owner, request))
    }
    fn run(&self, owner: &Principal, id: &str) -> Result<Option<RunRecord>, StoreError> {
        off_runtime(|| self.0.run(owner, id))
    }
    fn claim(&self, worker: &str, lease: Duration) -> Result<Option<RunRecord>, StoreError> {
        off_runtime(|| self.0.claim(worker, lease))
    }
    fn heartbeat(&self, run: &str, worker: &str, lease: Duration) -> Result<bool, StoreError> {
        off_runtime(|| self.0.heartbeat(run, worker, lease))
    }
    fn append_events(
        &self,
        run: &str,
        worker: &str,
        events: &[String],
        checkpoint: Option<&str>,
    ) -> Result<Option<i64>, StoreError> {
        off_runtime(|| self.0.append_events(run, worker, events, checkpoint))
    }
    fn events_after(
        &self,
        owner: &Principal,
        run: &str,
        after: i64,
        limit: usize,
    ) -> Result<Vec<(i64, String)>, StoreError> {
        off_runtime(|| self.0.events_after(owner, run, after, limit))
    }
    fn settle(&self, run: &str, worker: &str, settlement: &Settlement) -> Result<bool, StoreError> {
        off_runtime(|| self.0.settle(run, worker, settlement))
    }
    fn submit_decisions(&self, owner: &Principal, run: &str, decisions: &str) -> Result<bool, StoreError> {
        off_runtime(|| self.0.submit_decisions(owner, run, decisions))
    }
    fn cancel(&self, owner: &Principal, run: &str) -> Result<Option<RunStatus>, StoreError> {
        off_runtime(|| self.0.cancel(owner, run))
    }
    fn cancel_requested(&self, run: &str) -> Result<bool, StoreError> {
        off_runtime(|| self.0.cancel_requested(run))
    }
    fn release(&self, run: &str, worker: &str) -> Result<bool, StoreError> {
        off_runtime(|| self.0.release(run, worker))
    }
}

fn db(error: impl std::fmt::Display) -> StoreError {
    StoreError::Database(error.to_string())
}

fn row_to_run(row: &postgres::Row) -> RunRecord {
    let request: String = row.get("request");
    RunRecord {
        id: row.get("id"),
        owner: Principal { org: row.get("org"), user: row.get("user") },
        status: RunStatus::parse(row.get("status")),
        request: serde_json::from_str(&request).unwrap_or(serde_json::Value::Null),
        answer: row.get("answer"),
        error: row.get("error"),
        state: row.get("state"),
        decisions: row.get("decisions"),
        cancel_requested: row.get::<_, i32>("cancel_requested") != 0,
        created_ms: row.get("created_ms"),
        updated_ms: row.get("updated_ms"),
    }
}

impl PgStore {
    /// Connects to `url` (`postgres://user:password@host:port/database`), with up to
    /// `connections` connections, and creates the schema when missing.
    pub fn open(url: &str, connections: u32) -> Result<Self, StoreError> {
        off_runtime(|| Inner::open(url, connections)).map(PgStore)
    }
}

impl Inner {
    fn open(url: &str, connections: u32) -> Result<Self, StoreError> {
        let config: postgres::Config =
            url.parse().map_err(|e| StoreError::Invalid(format!("the database URL cannot be read: {e}")))?;
        let manager = PostgresConnectionManager::new(config, NoTls);
        let pool = r2d2::Pool::builder()
            .max_size(connections.max(1))
            .connection_timeout(Duration::from_secs(10))
            // Not a query per checkout: a broken connection fails its query and is dropped.
            .test_on_check_out(false)
            .build(manager)
            .map_err(db)?;
        let mut client = pool.get().map_err(db)?;
        // Many processes may start at once: the schema is made under an advisory lock.
        let mut tx = client.transaction().map_err(db)?;
        tx.execute("SELECT pg_advisory_xact_lock(7265616)", &[]).map_err(db)?;
        tx.batch_execute(SCHEMA).map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(Inner { pool: Closing(Some(pool)) })
    }
}

impl Inner {
    fn client(&self) -> Result<r2d2::PooledConnection<PostgresConnectionManager<NoTls>>, StoreError> {
        self.pool.get().map_err(db)
    }
}

impl Store for Inner {
    fn create_token(&self, org: &str, user: &str) -> Result<String, StoreError> {
        check_name("organisation", org)?;
        check_name("user", user)?;
        let token = format!("tk_{}", random_hex(32)?);
        let hash = token_hash(&token);
        let now = now_ms();
        let mut client = self.client()?;
        let mut tx = client.transaction().map_err(db)?;
        tx.execute(
            "INSERT INTO users (org, id, created_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            &[&org, &user, &now],
        )
        .map_err(db)?;
        tx.execute(
            "INSERT INTO tokens (hash, org, \"user\", created_ms) VALUES ($1, $2, $3, $4)",
            &[&hash, &org, &user, &now],
        )
        .map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(token)
    }

    fn authenticate(&self, token: &str) -> Result<Option<Principal>, StoreError> {
        let hash = token_hash(token);
        let row = self
            .client()?
            .query_opt("SELECT org, \"user\" FROM tokens WHERE hash = $1", &[&hash])
            .map_err(db)?;
        Ok(row.map(|row| Principal { org: row.get(0), user: row.get(1) }))
    }

    fn create_run(&self, owner: &Principal, request: &serde_json::Value) -> Result<RunRecord, StoreError> {
        let id = format!("run_{}", random_hex(12)?);
        let now = now_ms();
        let text = request.to_string();
        let row = self
            .client()?
            .query_one(
                "INSERT INTO runs (id, org, \"user\", status, request, created_ms, updated_ms)
                 VALUES ($1, $2, $3, 'queued', $4, $5, $5) RETURNING *",
                &[&id, &owner.org, &owner.user, &text, &now],
            )
            .map_err(db)?;
        Ok(row_to_run(&row))
    }

    fn run(&self, owner: &Principal, id: &str) -> Result<Option<RunRecord>, StoreError> {
        let row = self
            .client()?
            .query_opt(
                "SELECT * FROM runs WHERE id = $1 AND org = $2 AND \"user\" = $3",
                &[&id, &owner.org, &owner.user],
            )
            .map_err(db)?;
        Ok(row.as_ref().map(row_to_run))
    }

    fn claim(&self, worker: &str, lease: Duration) -> Result<Option<RunRecord>, StoreError> {
        let now = now_ms();
        let until = now + lease.as_millis() as i64;
        let row = self
            .client()?
            .query_opt(
                "UPDATE runs SET status = 'running', lease_owner = $1, lease_until_ms = $2, updated_ms = $3
                 WHERE id = (SELECT id FROM runs
                             WHERE status = 'queued' OR (status = 'running' AND lease_until_ms < $3)
                             ORDER BY created_ms LIMIT 1 FOR UPDATE SKIP LOCKED)
                 RETURNING *",
                &[&worker, &until, &now],
            )
            .map_err(db)?;
        Ok(row.as_ref().map(row_to_run))
    }

    fn heartbeat(&self, run: &str, worker: &str, lease: Duration) -> Result<bool, StoreError> {
        let until = now_ms() + lease.as_millis() as i64;
        let changed = self
            .client()?
            .execute(
                "UPDATE runs SET lease_until_ms = $1 WHERE id = $2 AND lease_owner = $3 AND status = 'running'",
                &[&until, &run, &worker],
            )
            .map_err(db)?;
        Ok(changed == 1)
    }

    fn append_events(
        &self,
        run: &str,
        worker: &str,
        events: &[String],
        checkpoint: Option<&str>,
    ) -> Result<Option<i64>, StoreError> {
        // One statement, one round trip: the run's row locked (only its holder writes), the
        // events numbered on from the last, the checkpoint kept. The primary key (run,
        // seq) refuses a number given twice.
        let row = self
            .client()?
            .query_one(
                "WITH holder AS (
                     SELECT id FROM runs WHERE id = $1 AND lease_owner = $2 AND status = 'running' FOR UPDATE
                 ), base AS (
                     SELECT COALESCE(MAX(seq), 0) AS seq FROM events WHERE run = $1
                 ), inserted AS (
                     INSERT INTO events (run, seq, data)
                     SELECT $1, base.seq + e.ord, e.data
                     FROM base, unnest($3::text[]) WITH ORDINALITY AS e(data, ord)
                     WHERE EXISTS (SELECT 1 FROM holder)
                     RETURNING seq
                 ), kept AS (
                     UPDATE runs SET state = $4::text, updated_ms = $5
                     WHERE id = $1 AND $4::text IS NOT NULL AND EXISTS (SELECT 1 FROM holder)
                     RETURNING id
                 )
                 SELECT EXISTS (SELECT 1 FROM holder) AS holds,
                        (SELECT seq FROM base) + (SELECT COUNT(*) FROM inserted) AS last,
                        (SELECT COUNT(*) FROM kept) AS kept",
                &[&run, &worker, &events, &checkpoint, &now_ms()],
            )
            .map_err(db)?;
        if !row.get::<_, bool>("holds") {
            return Ok(None);
        }
        Ok(Some(row.get("last")))
    }

    fn events_after(
        &self,
        owner: &Principal,
        run: &str,
        after: i64,
        limit: usize,
    ) -> Result<Vec<(i64, String)>, StoreError> {
        let limit = limit.min(i64::MAX as usize) as i64;
        let rows = self
            .client()?
            .query(
                "SELECT e.seq, e.data FROM events e JOIN runs r ON r.id = e.run
                 WHERE e.run = $1 AND r.org = $2 AND r.\"user\" = $3 AND e.seq > $4 ORDER BY e.seq LIMIT $5",
                &[&run, &owner.org, &owner.user, &after, &limit],
            )
            .map_err(db)?;
        Ok(rows.iter().map(|row| (row.get(0), row.get(1))).collect())
    }

    fn settle(&self, run: &str, worker: &str, settlement: &Settlement) -> Result<bool, StoreError> {
        let changed = self
            .client()?
            .execute(
                "UPDATE runs SET status = $1, state = COALESCE($2, state), answer = $3, error = $4, decisions = NULL,
                 lease_owner = NULL, lease_until_ms = NULL, updated_ms = $5 WHERE id = $6 AND lease_owner = $7",
                &[
                    &settlement.status.as_str(),
                    &settlement.state,
                    &settlement.answer,
                    &settlement.error,
                    &now_ms(),
                    &run,
                    &worker,
                ],
            )
            .map_err(db)?;
        Ok(changed == 1)
    }

    fn submit_decisions(&self, owner: &Principal, run: &str, decisions: &str) -> Result<bool, StoreError> {
        let changed = self
            .client()?
            .execute(
                "UPDATE runs SET status = 'queued', decisions = $1, updated_ms = $2
                 WHERE id = $3 AND org = $4 AND \"user\" = $5 AND status = 'suspended'",
                &[&decisions, &now_ms(), &run, &owner.org, &owner.user],
            )
            .map_err(db)?;
        Ok(changed == 1)
    }

    fn cancel(&self, owner: &Principal, run: &str) -> Result<Option<RunStatus>, StoreError> {
        let mut client = self.client()?;
        let mut tx = client.transaction().map_err(db)?;
        let Some(row) = tx
            .query_opt(
                "SELECT status FROM runs WHERE id = $1 AND org = $2 AND \"user\" = $3 FOR UPDATE",
                &[&run, &owner.org, &owner.user],
            )
            .map_err(db)?
        else {
            return Ok(None);
        };
        let now = now_ms();
        let after = match RunStatus::parse(row.get(0)) {
            RunStatus::Queued | RunStatus::Suspended => {
                tx.execute(
                    "UPDATE runs SET status = 'cancelled', decisions = NULL, error = 'cancelled', updated_ms = $1 WHERE id = $2",
                    &[&now, &run],
                )
                .map_err(db)?;
                RunStatus::Cancelled
            }
            RunStatus::Running => {
                tx.execute(
                    "UPDATE runs SET cancel_requested = 1, updated_ms = $1 WHERE id = $2",
                    &[&now, &run],
                )
                .map_err(db)?;
                RunStatus::Running
            }
            settled => settled,
        };
        tx.commit().map_err(db)?;
        Ok(Some(after))
    }

    fn release(&self, run: &str, worker: &str) -> Result<bool, StoreError> {
        let changed = self
            .client()?
            .execute(
                "UPDATE runs SET lease_until_ms = 0 WHERE id = $1 AND lease_owner = $2 AND status = 'running'",
                &[&run, &worker],
            )
            .map_err(db)?;
        Ok(changed == 1)
    }

    fn cancel_requested(&self, run: &str) -> Result<bool, StoreError> {
        let row = self
            .client()?
            .query_opt("SELECT cancel_requested FROM runs WHERE id = $1", &[&run])
            .map_err(db)?;
        Ok(row.is_some_and(|row| row.get::<_, i32>(0) != 0))
    }
}
