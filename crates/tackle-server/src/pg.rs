//! The PostgreSQL store: many server processes on many machines sharing one database.
//! Runs are claimed with `FOR UPDATE SKIP LOCKED`, so workers never wait on each other's
//! claims; appends to a run lock its row, so its events are numbered one at a time;
//! charges lock the user's account row, so a balance is never spent twice.

use std::time::Duration;

use std::collections::HashMap;

use postgres::types::ToSql;
use postgres::{NoTls, Row, Statement};

use crate::store::{
    Change, Charge, Charged, EventCharge, Followed, PlanRecord, Principal, RunRecord, RunStatus, SessionLink,
    SessionRecord, Settlement, Store, StoreError, TenantRecord, UsageLine, check_continuable, check_name,
    event_key, now_ms, plan_record, random_hex, token_hash,
};

/// The schema's migrations, in order; the store keeps the number of those applied.
const MIGRATIONS: &[&str] = &[
    // 1: tokens, runs as jobs, events.
    "
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
",
    // 2: sessions, organisations, plans, profiles, secrets, credits.
    "
ALTER TABLE runs ADD COLUMN session TEXT;
ALTER TABLE runs ADD COLUMN previous TEXT;
CREATE INDEX runs_by_session ON runs (session, created_ms);
ALTER TABLE users ADD COLUMN plan TEXT;
ALTER TABLE users ADD COLUMN profile TEXT;
CREATE TABLE sessions (
    id TEXT PRIMARY KEY, org TEXT NOT NULL, \"user\" TEXT NOT NULL, title TEXT NOT NULL,
    last_run TEXT, runs BIGINT NOT NULL, created_ms BIGINT NOT NULL, updated_ms BIGINT NOT NULL);
CREATE INDEX sessions_by_owner ON sessions (org, \"user\", updated_ms);
CREATE TABLE orgs (id TEXT PRIMARY KEY, policy TEXT NOT NULL, updated_ms BIGINT NOT NULL);
CREATE TABLE plans (name TEXT PRIMARY KEY, capabilities TEXT NOT NULL, allowance_micros BIGINT NOT NULL);
CREATE TABLE secrets (
    org TEXT NOT NULL, address TEXT NOT NULL, sealed BYTEA NOT NULL, updated_ms BIGINT NOT NULL,
    PRIMARY KEY (org, address));
CREATE TABLE accounts (
    org TEXT NOT NULL, \"user\" TEXT NOT NULL, balance_micros BIGINT NOT NULL, PRIMARY KEY (org, \"user\"));
CREATE TABLE ledger (
    run TEXT NOT NULL, key TEXT NOT NULL, org TEXT NOT NULL, \"user\" TEXT NOT NULL, kind TEXT NOT NULL,
    detail TEXT NOT NULL, amount_micros BIGINT NOT NULL, created_ms BIGINT NOT NULL,
    PRIMARY KEY (run, key));
CREATE INDEX ledger_by_owner ON ledger (org, \"user\", run);
",
    // 3: claims read a small index of the runs that may be runnable, not every version of
    // every status (an update that changes the status leaves the old entry until vacuum);
    // no index by owner, which nothing lists by and which a planner without statistics
    // would pick for a lookup by id and owner (scanning all of a user's runs); room on
    // each page for updates that touch no index, and vacuum soon.
    "
CREATE INDEX runs_runnable ON runs (created_ms) WHERE status IN ('queued', 'running');
DROP INDEX IF EXISTS runs_by_status;
DROP INDEX IF EXISTS runs_by_owner;
ALTER TABLE runs SET (fillfactor = 70, autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_threshold = 200);
",
];

type Pool = r2d2::Pool<Manager>;

/// The longest one statement of the store may run: every one is a few rows' work, so one
/// that runs this long is stuck (a lock held by a process that hangs, a plan gone wrong),
/// and failing it frees the connection and the worker waiting on it. Migrations, which may
/// rewrite a large table, run without it.
const STATEMENT_TIMEOUT: Duration = Duration::from_secs(30);

/// Makes the pool's connections: a client, each statement limited to a time, and the
/// statements prepared on it.
#[derive(Debug)]
struct Manager(postgres::Config, Duration);

/// A pooled connection. Each statement is prepared once per connection and kept: the
/// server parses and plans it once, not on every call.
struct Conn {
    client: postgres::Client,
    statements: HashMap<&'static str, Statement>,
}

impl r2d2::ManageConnection for Manager {
    type Connection = Conn;
    type Error = postgres::Error;

    fn connect(&self) -> Result<Conn, postgres::Error> {
        let mut client = self.0.connect(NoTls)?;
        client.batch_execute(&format!("SET statement_timeout = {}", self.1.as_millis()))?;
        Ok(Conn { client, statements: HashMap::new() })
    }

    fn is_valid(&self, conn: &mut Conn) -> Result<(), postgres::Error> {
        conn.client.simple_query("").map(|_| ())
    }

    fn has_broken(&self, conn: &mut Conn) -> bool {
        conn.client.is_closed()
    }
}

type Params<'a> = &'a [&'a (dyn ToSql + Sync)];

/// Runs statements by their text, each prepared once per connection.
trait Db {
    /// The statement for `sql`, prepared when new to this connection.
    fn statement(&mut self, sql: &'static str) -> Result<Statement, postgres::Error>;
    fn rows(&mut self, statement: &Statement, params: Params<'_>) -> Result<Vec<Row>, postgres::Error>;
    fn changed(&mut self, statement: &Statement, params: Params<'_>) -> Result<u64, postgres::Error>;

    fn query(&mut self, sql: &'static str, params: Params<'_>) -> Result<Vec<Row>, postgres::Error> {
        let statement = self.statement(sql)?;
        self.rows(&statement, params)
    }

    fn query_opt(&mut self, sql: &'static str, params: Params<'_>) -> Result<Option<Row>, postgres::Error> {
        Ok(self.query(sql, params)?.into_iter().next())
    }

    fn query_one(&mut self, sql: &'static str, params: Params<'_>) -> Result<Row, StoreError> {
        self.query_opt(sql, params)
            .map_err(db)?
            .ok_or_else(|| StoreError::Database("no row came back".into()))
    }

    fn execute(&mut self, sql: &'static str, params: Params<'_>) -> Result<u64, postgres::Error> {
        let statement = self.statement(sql)?;
        self.changed(&statement, params)
    }
}

fn cached(
    statements: &mut HashMap<&'static str, Statement>,
    sql: &'static str,
    prepare: impl FnOnce(&'static str) -> Result<Statement, postgres::Error>,
) -> Result<Statement, postgres::Error> {
    if let Some(statement) = statements.get(sql) {
        return Ok(statement.clone());
    }
    let statement = prepare(sql)?;
    statements.insert(sql, statement.clone());
    Ok(statement)
}

impl Db for Conn {
    fn statement(&mut self, sql: &'static str) -> Result<Statement, postgres::Error> {
        let client = &mut self.client;
        cached(&mut self.statements, sql, |sql| client.prepare(sql))
    }
    fn rows(&mut self, statement: &Statement, params: Params<'_>) -> Result<Vec<Row>, postgres::Error> {
        self.client.query(statement, params)
    }
    fn changed(&mut self, statement: &Statement, params: Params<'_>) -> Result<u64, postgres::Error> {
        self.client.execute(statement, params)
    }
}

/// A transaction on a pooled connection, with its statements.
struct Tx<'a> {
    tx: postgres::Transaction<'a>,
    statements: &'a mut HashMap<&'static str, Statement>,
}

impl Db for Tx<'_> {
    fn statement(&mut self, sql: &'static str) -> Result<Statement, postgres::Error> {
        let tx = &mut self.tx;
        cached(self.statements, sql, |sql| tx.prepare(sql))
    }
    fn rows(&mut self, statement: &Statement, params: Params<'_>) -> Result<Vec<Row>, postgres::Error> {
        self.tx.query(statement, params)
    }
    fn changed(&mut self, statement: &Statement, params: Params<'_>) -> Result<u64, postgres::Error> {
        self.tx.execute(statement, params)
    }
}

/// The PostgreSQL store: a pool of connections. Calls block; made on an async thread, they
/// step off it first (the client runs a runtime of its own).
#[derive(Clone)]
pub struct PgStore {
    pool: Closing,
    /// For the connection that listens to other processes' changes.
    config: postgres::Config,
    /// This store's name in the notifications it sends (its own are not heard back).
    origin: String,
}

/// The channel of changes between server processes. A payload is `<origin> <run>`: the
/// run's events or status changed; with no run, a run was queued.
const CHANNEL: &str = "tackle";

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
        f.debug_struct("PgStore").field("connections", &self.pool.state().connections).finish()
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

/// A database error with its causes: the driver says "db error" and the server's own
/// message ("canceling statement due to statement timeout") is its source.
fn db(error: impl std::error::Error) -> StoreError {
    let mut message = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause = cause.to_string();
        if !message.ends_with(&cause) {
            message = format!("{message}: {cause}");
        }
        source = source.and_then(std::error::Error::source);
    }
    StoreError::Database(message)
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
        session: row.get("session"),
        previous: row.get("previous"),
        created_ms: row.get("created_ms"),
        updated_ms: row.get("updated_ms"),
    }
}

fn row_to_session(row: &postgres::Row) -> SessionRecord {
    SessionRecord {
        id: row.get("id"),
        title: row.get("title"),
        run_count: row.get("runs"),
        last_run: row.get("last_run"),
        created_ms: row.get("created_ms"),
        updated_ms: row.get("updated_ms"),
    }
}

/// The user's balance, when metered; `lock` takes the account row until the transaction
/// ends.
fn account(c: &mut impl Db, org: &str, user: &str, lock: bool) -> Result<Option<i64>, StoreError> {
    let sql = if lock {
        "SELECT balance_micros FROM accounts WHERE org = $1 AND \"user\" = $2 FOR UPDATE"
    } else {
        "SELECT balance_micros FROM accounts WHERE org = $1 AND \"user\" = $2"
    };
    Ok(c.query_opt(sql, &[&org, &user]).map_err(db)?.map(|row| row.get(0)))
}

/// Writes one ledger line (once per run and key) and moves the balance of a metered user;
/// refused when `cover` and the balance is short. Inside the caller's transaction.
fn debit(
    c: &mut impl Db,
    (org, user): (&str, &str),
    run: &str,
    (key, kind, detail, amount): (&str, &str, &str, i64),
    cover: bool,
) -> Result<Charged, StoreError> {
    // The account row is locked first: two charges to one user take turns.
    let balance = account(c, org, user, true)?;
    if let Some(balance) = balance
        && cover
        && balance < amount
    {
        let seen = c
            .query_opt("SELECT 1 FROM ledger WHERE run = $1 AND key = $2", &[&run, &key])
            .map_err(db)?
            .is_some();
        return Ok(if seen { Charged::Already } else { Charged::Refused(balance) });
    }
    let inserted = c
        .execute(
            "INSERT INTO ledger (run, key, org, \"user\", kind, detail, amount_micros, created_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING",
            &[&run, &key, &org, &user, &kind, &detail, &amount, &now_ms()],
        )
        .map_err(db)?;
    if inserted == 0 {
        return Ok(Charged::Already);
    }
    if balance.is_some() {
        c.execute(
            "UPDATE accounts SET balance_micros = balance_micros - $1 WHERE org = $2 AND \"user\" = $3",
            &[&amount, &org, &user],
        )
        .map_err(db)?;
    }
    Ok(Charged::Taken(balance.map(|b| b.saturating_sub(amount))))
}

/// Hears other processes' changes on a connection of its own until `changes` is closed,
/// connecting again when the connection is lost (after which every run may have changed).
fn listen(config: &postgres::Config, origin: &str, changes: &tokio::sync::mpsc::UnboundedSender<Change>) {
    use postgres::fallible_iterator::FallibleIterator as _;
    let mut wait = Duration::from_millis(100);
    while !changes.is_closed() {
        let mut client = match config.connect(NoTls) {
            Ok(client) => client,
            Err(error) => {
                tracing::warn!(%error, "cannot listen for other processes' changes; trying again");
                std::thread::sleep(wait);
                wait = (wait * 2).min(Duration::from_secs(10));
                continue;
            }
        };
        if client.batch_execute(&format!("LISTEN {CHANNEL}")).is_err() {
            std::thread::sleep(wait);
            continue;
        }
        wait = Duration::from_millis(100);
        // Whatever happened while not listening is read again.
        let _ = changes.send(Change::Lost);
        loop {
            let mut notifications = client.notifications();
            let next = notifications.timeout_iter(Duration::from_secs(1)).next();
            match next {
                Ok(Some(notification)) => {
                    let Some((from, run)) = notification.payload().split_once(' ') else { continue };
                    if from == origin {
                        continue;
                    }
                    let change = if run.is_empty() { Change::Queued } else { Change::Run(run.to_owned()) };
                    if changes.send(change).is_err() {
                        return;
                    }
                }
                Ok(None) if changes.is_closed() => return,
                Ok(None) => {}
                Err(error) => {
                    tracing::warn!(%error, "listening for other processes' changes stopped; connecting again");
                    break;
                }
            }
        }
    }
}

fn limit_of(limit: usize) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX)
}

impl PgStore {
    /// Connects to `url` (`postgres://user:password@host:port/database`), with up to
    /// `connections` connections, and brings the schema up to date.
    pub fn open(url: &str, connections: u32) -> Result<Self, StoreError> {
        off_runtime(|| Self::connect(url, connections, STATEMENT_TIMEOUT))
    }

    fn connect(url: &str, connections: u32, statement_timeout: Duration) -> Result<Self, StoreError> {
        let config: postgres::Config =
            url.parse().map_err(|e| StoreError::Invalid(format!("the database URL cannot be read: {e}")))?;
        let manager = Manager(config.clone(), statement_timeout);
        let pool = r2d2::Pool::builder()
            .max_size(connections.max(1))
            .connection_timeout(Duration::from_secs(10))
            // Not a query per checkout: a broken connection fails its query and is dropped.
            .test_on_check_out(false)
            .build(manager)
            .map_err(db)?;
        let mut conn = pool.get().map_err(db)?;
        // Many processes may start at once: migrations run under an advisory lock.
        let mut tx = conn.client.transaction().map_err(db)?;
        // Waiting for another process's migrations, and migrating, take what they take.
        tx.batch_execute("SET LOCAL statement_timeout = 0").map_err(db)?;
        tx.execute("SELECT pg_advisory_xact_lock(7265616)", &[]).map_err(db)?;
        tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            .map_err(db)?;
        let applied: i32 =
            tx.query_one("SELECT COALESCE(MAX(version), 0) FROM schema_version", &[]).map_err(db)?.get(0);
        let applied = usize::try_from(applied).unwrap_or(0);
        if applied > MIGRATIONS.len() {
            return Err(StoreError::Invalid(format!(
                "the store has schema version {applied}, made by a newer tackle (this one knows {})",
                MIGRATIONS.len()
            )));
        }
        for migration in &MIGRATIONS[applied..] {
            tx.batch_execute(migration).map_err(db)?;
        }
        let version = MIGRATIONS.len() as i32;
        tx.execute("DELETE FROM schema_version", &[]).map_err(db)?;
        tx.execute("INSERT INTO schema_version (version) VALUES ($1)", &[&version]).map_err(db)?;
        // Statistics for the planner now, rather than when autovacuum comes round: plans of
        // statements prepared from here on see the tables as they are. (In the transaction:
        // on a large store it takes a while too.)
        tx.batch_execute("ANALYZE runs, events, sessions").map_err(db)?;
        tx.commit().map_err(db)?;
        drop(conn);
        Ok(PgStore { pool: Closing(Some(pool)), config, origin: random_hex(8)? })
    }

    /// Runs `f` with a connection from the pool, off the async threads.
    fn with<T: Send>(
        &self,
        f: impl FnOnce(&mut Conn) -> Result<T, StoreError> + Send,
    ) -> Result<T, StoreError> {
        off_runtime(|| {
            let mut conn = self.pool.get().map_err(db)?;
            f(&mut conn)
        })
    }

    /// Queues run `id` as the next of `owner`'s `session`, whose row is locked meanwhile
    /// (two runs continuing it take turns); its last run must be settled.
    fn continue_session(
        &self,
        owner: &Principal,
        session: &str,
        id: &str,
        request: &str,
    ) -> Result<RunRecord, StoreError> {
        let now = now_ms();
        self.in_transaction(|tx| {
            let row = tx
                .query_opt(
                    "SELECT s.last_run, r.status FROM sessions s LEFT JOIN runs r ON r.id = s.last_run
                     WHERE s.id = $1 AND s.org = $2 AND s.\"user\" = $3 FOR UPDATE OF s",
                    &[&session, &owner.org, &owner.user],
                )
                .map_err(db)?;
            let Some(row) = row else {
                return Err(StoreError::NotFound("no session with that id is yours".into()));
            };
            let last: Option<String> = row.get(0);
            if let Some(status) = row.get::<_, Option<&str>>(1) {
                check_continuable(RunStatus::parse(status))?;
            }
            tx.execute(
                "UPDATE sessions SET last_run = $1, runs = runs + 1, updated_ms = $2 WHERE id = $3",
                &[&id, &now, &session],
            )
            .map_err(db)?;
            tx.execute("SELECT pg_notify('tackle', $1 || ' ')", &[&self.origin]).map_err(db)?;
            let row = tx.query_one(
                "INSERT INTO runs (id, org, \"user\", status, request, session, previous, created_ms, updated_ms)
                 VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7, $7) RETURNING *",
                &[&id, &owner.org, &owner.user, &request, &session, &last, &now],
            )?;
            Ok(row_to_run(&row))
        })
    }

    /// Runs `f` in a transaction, committed when it returns `Ok`.
    fn in_transaction<T: Send>(
        &self,
        f: impl FnOnce(&mut Tx<'_>) -> Result<T, StoreError> + Send,
    ) -> Result<T, StoreError> {
        self.with(|c| {
            let tx = c.client.transaction().map_err(db)?;
            let mut tx = Tx { tx, statements: &mut c.statements };
            let value = f(&mut tx)?;
            tx.tx.commit().map_err(db)?;
            Ok(value)
        })
    }
}

impl Store for PgStore {
    fn create_token(&self, org: &str, user: &str) -> Result<String, StoreError> {
        check_name("organisation", org)?;
        check_name("user", user)?;
        let token = format!("tk_{}", random_hex(32)?);
        let hash = token_hash(&token);
        let now = now_ms();
        self.in_transaction(|tx| {
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
            Ok(())
        })?;
        Ok(token)
    }

    fn authenticate(&self, token: &str) -> Result<Option<Principal>, StoreError> {
        let hash = token_hash(token);
        self.with(|c| {
            let row =
                c.query_opt("SELECT org, \"user\" FROM tokens WHERE hash = $1", &[&hash]).map_err(db)?;
            Ok(row.map(|row| Principal { org: row.get(0), user: row.get(1) }))
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
        let (session, title) = match link {
            SessionLink::Continue { session } => return self.continue_session(owner, session, &id, &text),
            SessionLink::Temporary => (None, None),
            SessionLink::New { title } => (Some(format!("ses_{}", random_hex(12)?)), Some(title.as_str())),
        };
        // A new session, or none: one statement.
        self.with(|c| {
            let row = c.query_one(
                "WITH made AS (
                     INSERT INTO sessions (id, org, \"user\", title, last_run, runs, created_ms, updated_ms)
                     SELECT $5, $2, $3, $6, $1, 1, $7, $7 WHERE $5::text IS NOT NULL
                 )
                 INSERT INTO runs (id, org, \"user\", status, request, session, previous, created_ms, updated_ms)
                 SELECT $1, $2, $3, 'queued', $4, $5, NULL, $7, $7
                 FROM (SELECT pg_notify('tackle', $8 || ' ')) AS told RETURNING *",
                &[&id, &owner.org, &owner.user, &text, &session, &title, &now, &self.origin],
            )?;
            Ok(row_to_run(&row))
        })
    }

    fn run(&self, owner: &Principal, id: &str) -> Result<Option<RunRecord>, StoreError> {
        self.with(|c| {
            let row = c
                .query_opt(
                    "SELECT * FROM runs WHERE id = $1 AND org = $2 AND \"user\" = $3",
                    &[&id, &owner.org, &owner.user],
                )
                .map_err(db)?;
            Ok(row.as_ref().map(row_to_run))
        })
    }

    fn state_of(&self, run: &str) -> Result<Option<String>, StoreError> {
        self.with(|c| {
            let row = c.query_opt("SELECT state FROM runs WHERE id = $1", &[&run]).map_err(db)?;
            Ok(row.and_then(|row| row.get(0)))
        })
    }

    fn claim(&self, worker: &str, lease: Duration) -> Result<Option<RunRecord>, StoreError> {
        let now = now_ms();
        let until = now + lease.as_millis() as i64;
        self.with(|c| {
            let row = c
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
        })
    }

    fn heartbeat(&self, run: &str, worker: &str, lease: Duration) -> Result<bool, StoreError> {
        let until = now_ms() + lease.as_millis() as i64;
        self.with(|c| {
            let changed = c
                .execute(
                    "UPDATE runs SET lease_until_ms = $1 WHERE id = $2 AND lease_owner = $3 AND status = 'running'",
                    &[&until, &run, &worker],
                )
                .map_err(db)?;
            Ok(changed == 1)
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
        // One statement, one round trip: the run's row locked (only its holder writes), the
        // events numbered on from the last, the checkpoint kept. The primary key (run,
        // seq) refuses a number given twice; other processes are told on commit (`told` is
        // selected only so that the statement runs it). Charges go in the same transaction.
        const APPEND: &str = "WITH holder AS (
                 SELECT id, org, \"user\" FROM runs
                 WHERE id = $1 AND lease_owner = $2 AND status = 'running' FOR UPDATE
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
             ), told AS (
                 SELECT pg_notify('tackle', $6 || ' ' || $1) WHERE EXISTS (SELECT 1 FROM holder)
             )
             SELECT EXISTS (SELECT 1 FROM holder) AS holds,
                    (SELECT org FROM holder) AS org, (SELECT \"user\" FROM holder) AS owner,
                    (SELECT seq FROM base) + (SELECT COUNT(*) FROM inserted) AS last,
                    (SELECT COUNT(*) FROM kept) AS kept, (SELECT COUNT(*) FROM told) AS told";
        let params: [&(dyn postgres::types::ToSql + Sync); 6] =
            [&run, &worker, &events, &checkpoint, &now_ms(), &self.origin];
        if charges.is_empty() {
            return self.with(|c| {
                let row = c.query_one(APPEND, &params)?;
                Ok(row.get::<_, bool>("holds").then(|| row.get("last")))
            });
        }
        self.in_transaction(|tx| {
            let row = tx.query_one(APPEND, &params)?;
            if !row.get::<_, bool>("holds") {
                return Ok(None);
            }
            let (org, user, last): (String, String, i64) =
                (row.get("org"), row.get("owner"), row.get("last"));
            let first = last - events.len() as i64 + 1;
            for charge in charges {
                let key = event_key(first + charge.event as i64);
                debit(
                    tx,
                    (&org, &user),
                    run,
                    (&key, charge.kind, &charge.detail, charge.amount_micros),
                    false,
                )?;
            }
            Ok(Some(last))
        })
    }

    fn follow(
        &self,
        owner: &Principal,
        run: &str,
        after: i64,
        limit: usize,
    ) -> Result<Option<Followed>, StoreError> {
        // One statement, one snapshot: a run settled in it has all its events in it.
        self.with(|c| {
            let rows = c
                .query(
                    "SELECT r.status, e.seq, e.data FROM runs r
                     LEFT JOIN LATERAL (SELECT seq, data FROM events
                                        WHERE run = r.id AND seq > $4 ORDER BY seq LIMIT $5) e ON true
                     WHERE r.id = $1 AND r.org = $2 AND r.\"user\" = $3",
                    &[&run, &owner.org, &owner.user, &after, &limit_of(limit)],
                )
                .map_err(db)?;
            let Some(first) = rows.first() else { return Ok(None) };
            let status = RunStatus::parse(first.get(0));
            let events = rows
                .iter()
                .filter_map(|row| Some((row.get::<_, Option<i64>>(1)?, row.get::<_, Option<String>>(2)?)))
                .collect();
            Ok(Some((status, events)))
        })
    }

    fn settle(&self, run: &str, worker: &str, settlement: &Settlement) -> Result<bool, StoreError> {
        self.with(|c| {
            let changed = c
                .query(
                    "WITH changed AS (
                         UPDATE runs SET status = $1, state = COALESCE($2, state), answer = $3, error = $4,
                         decisions = NULL, lease_owner = NULL, lease_until_ms = NULL, updated_ms = $5
                         WHERE id = $6 AND lease_owner = $7 RETURNING id
                     )
                     SELECT pg_notify('tackle', $8 || ' ' || id) FROM changed",
                    &[
                        &settlement.status.as_str(),
                        &settlement.state,
                        &settlement.answer,
                        &settlement.error,
                        &now_ms(),
                        &run,
                        &worker,
                        &self.origin,
                    ],
                )
                .map_err(db)?;
            Ok(changed.len() == 1)
        })
    }

    fn submit_decisions(&self, owner: &Principal, run: &str, decisions: &str) -> Result<bool, StoreError> {
        self.with(|c| {
            let changed = c
                .query(
                    "WITH changed AS (
                         UPDATE runs SET status = 'queued', decisions = $1, updated_ms = $2
                         WHERE id = $3 AND org = $4 AND \"user\" = $5 AND status = 'suspended' RETURNING id
                     )
                     SELECT pg_notify('tackle', $6 || ' ' || id), pg_notify('tackle', $6 || ' ') FROM changed",
                    &[&decisions, &now_ms(), &run, &owner.org, &owner.user, &self.origin],
                )
                .map_err(db)?;
            Ok(changed.len() == 1)
        })
    }

    fn cancel(&self, owner: &Principal, run: &str) -> Result<Option<RunStatus>, StoreError> {
        self.in_transaction(|tx| {
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
                    tx.execute("UPDATE runs SET cancel_requested = 1, updated_ms = $1 WHERE id = $2", &[&now, &run])
                        .map_err(db)?;
                    RunStatus::Running
                }
                settled => settled,
            };
            tx.execute("SELECT pg_notify('tackle', $1 || ' ' || $2)", &[&self.origin, &run]).map_err(db)?;
            Ok(Some(after))
        })
    }

    fn release(&self, run: &str, worker: &str) -> Result<bool, StoreError> {
        self.with(|c| {
            let changed = c
                .query(
                    "WITH changed AS (
                         UPDATE runs SET lease_until_ms = 0
                         WHERE id = $1 AND lease_owner = $2 AND status = 'running' RETURNING id
                     )
                     SELECT pg_notify('tackle', $3 || ' ') FROM changed",
                    &[&run, &worker, &self.origin],
                )
                .map_err(db)?;
            Ok(changed.len() == 1)
        })
    }

    fn watch(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Change>> {
        let (changes, receiver) = tokio::sync::mpsc::unbounded_channel();
        let (config, origin) = (self.config.clone(), self.origin.clone());
        let started = std::thread::Builder::new()
            .name("tackle-pg-listen".into())
            .spawn(move || listen(&config, &origin, &changes));
        match started {
            Ok(_) => Some(receiver),
            Err(error) => {
                tracing::warn!(%error, "no thread to listen for other processes' changes; polling only");
                None
            }
        }
    }

    fn cancel_requested(&self, run: &str) -> Result<bool, StoreError> {
        self.with(|c| {
            let row = c.query_opt("SELECT cancel_requested FROM runs WHERE id = $1", &[&run]).map_err(db)?;
            Ok(row.is_some_and(|row| row.get::<_, i32>(0) != 0))
        })
    }

    fn sessions(&self, owner: &Principal, limit: usize) -> Result<Vec<SessionRecord>, StoreError> {
        self.with(|c| {
            let rows = c
                .query(
                    "SELECT * FROM sessions WHERE org = $1 AND \"user\" = $2 ORDER BY updated_ms DESC, id LIMIT $3",
                    &[&owner.org, &owner.user, &limit_of(limit)],
                )
                .map_err(db)?;
            Ok(rows.iter().map(row_to_session).collect())
        })
    }

    fn session(
        &self,
        owner: &Principal,
        id: &str,
    ) -> Result<Option<(SessionRecord, Vec<RunRecord>)>, StoreError> {
        self.with(|c| {
            let Some(row) = c
                .query_opt(
                    "SELECT * FROM sessions WHERE id = $1 AND org = $2 AND \"user\" = $3",
                    &[&id, &owner.org, &owner.user],
                )
                .map_err(db)?
            else {
                return Ok(None);
            };
            let runs = c
                .query("SELECT * FROM runs WHERE session = $1 ORDER BY created_ms, id", &[&id])
                .map_err(db)?;
            Ok(Some((row_to_session(&row), runs.iter().map(row_to_run).collect())))
        })
    }

    fn set_org_policy(&self, org: &str, policy: &str) -> Result<(), StoreError> {
        check_name("organisation", org)?;
        self.with(|c| {
            c.execute(
                "INSERT INTO orgs (id, policy, updated_ms) VALUES ($1, $2, $3)
                 ON CONFLICT (id) DO UPDATE SET policy = excluded.policy, updated_ms = excluded.updated_ms",
                &[&org, &policy, &now_ms()],
            )
            .map_err(db)?;
            Ok(())
        })
    }

    fn set_plan(&self, plan: &PlanRecord) -> Result<(), StoreError> {
        check_name("plan", &plan.name)?;
        let capabilities =
            serde_json::to_string(&plan.capabilities).map_err(|e| StoreError::Invalid(e.to_string()))?;
        self.with(|c| {
            c.execute(
                "INSERT INTO plans (name, capabilities, allowance_micros) VALUES ($1, $2, $3)
                 ON CONFLICT (name) DO UPDATE SET capabilities = excluded.capabilities,
                 allowance_micros = excluded.allowance_micros",
                &[&plan.name, &capabilities, &plan.allowance_micros],
            )
            .map_err(db)?;
            Ok(())
        })
    }

    fn assign_plan(&self, org: &str, user: &str, plan: &str) -> Result<Option<i64>, StoreError> {
        check_name("organisation", org)?;
        check_name("user", user)?;
        self.in_transaction(|tx| {
            let Some(row) =
                tx.query_opt("SELECT allowance_micros FROM plans WHERE name = $1", &[&plan]).map_err(db)?
            else {
                return Err(StoreError::NotFound(format!("there is no plan {plan:?}")));
            };
            let allowance: i64 = row.get(0);
            tx.execute(
                "INSERT INTO users (org, id, created_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                &[&org, &user, &now_ms()],
            )
            .map_err(db)?;
            let changed = tx
                .execute(
                    "UPDATE users SET plan = $1 WHERE org = $2 AND id = $3 AND plan IS DISTINCT FROM $1",
                    &[&plan, &org, &user],
                )
                .map_err(db)?
                == 1;
            if changed && allowance != 0 {
                tx.execute(
                    "INSERT INTO accounts (org, \"user\", balance_micros) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING",
                    &[&org, &user],
                )
                .map_err(db)?;
                let key = format!("grant:{}", random_hex(8)?);
                debit(tx, (org, user), "", (&key, "grant", &format!("plan {plan}"), -allowance), false)?;
            }
            account(tx, org, user, false)
        })
    }

    fn set_profile(&self, owner: &Principal, profile: &str) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO users (org, id, created_ms, profile) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (org, id) DO UPDATE SET profile = excluded.profile",
                &[&owner.org, &owner.user, &now_ms(), &profile],
            )
            .map_err(db)?;
            Ok(())
        })
    }

    fn put_secret(&self, org: &str, address: &str, sealed: &[u8]) -> Result<(), StoreError> {
        check_name("organisation", org)?;
        self.with(|c| {
            c.execute(
                "INSERT INTO secrets (org, address, sealed, updated_ms) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (org, address) DO UPDATE SET sealed = excluded.sealed, updated_ms = excluded.updated_ms",
                &[&org, &address, &sealed, &now_ms()],
            )
            .map_err(db)?;
            Ok(())
        })
    }

    fn remove_secret(&self, org: &str, address: &str) -> Result<bool, StoreError> {
        self.with(|c| {
            Ok(c.execute("DELETE FROM secrets WHERE org = $1 AND address = $2", &[&org, &address])
                .map_err(db)?
                == 1)
        })
    }

    fn tenant(&self, owner: &Principal) -> Result<TenantRecord, StoreError> {
        self.with(|c| {
            // One round trip for the organisation, the user, the plan, the balance and the
            // secrets.
            let row = c
                .query_one(
                    "SELECT (SELECT policy FROM orgs WHERE id = $1) AS policy,
                            u.profile, p.name AS plan, p.capabilities, p.allowance_micros,
                            (SELECT balance_micros FROM accounts WHERE org = $1 AND \"user\" = $2) AS balance,
                            (SELECT array_agg(address ORDER BY address) FROM secrets WHERE org = $1) AS addresses,
                            (SELECT array_agg(sealed ORDER BY address) FROM secrets WHERE org = $1) AS sealed
                     FROM (SELECT 1) AS one
                     LEFT JOIN users u ON u.org = $1 AND u.id = $2
                     LEFT JOIN plans p ON p.name = u.plan",
                    &[&owner.org, &owner.user],
                )?;
            let plan = match row.get::<_, Option<String>>("plan") {
                Some(name) => Some(plan_record(name, row.get("capabilities"), row.get("allowance_micros"))?),
                None => None,
            };
            let addresses: Vec<String> = row.get::<_, Option<Vec<String>>>("addresses").unwrap_or_default();
            let sealed: Vec<Vec<u8>> = row.get::<_, Option<Vec<Vec<u8>>>>("sealed").unwrap_or_default();
            Ok(TenantRecord {
                org_policy: row.get("policy"),
                plan,
                profile: row.get("profile"),
                sealed_secrets: addresses.into_iter().zip(sealed).collect(),
                balance_micros: row.get("balance"),
            })
        })
    }

    fn grant(&self, org: &str, user: &str, amount_micros: i64, note: &str) -> Result<i64, StoreError> {
        check_name("organisation", org)?;
        check_name("user", user)?;
        let key = format!("grant:{}", random_hex(8)?);
        self.in_transaction(|tx| {
            tx.execute(
                "INSERT INTO users (org, id, created_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                &[&org, &user, &now_ms()],
            )
            .map_err(db)?;
            tx.execute(
                "INSERT INTO accounts (org, \"user\", balance_micros) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING",
                &[&org, &user],
            )
            .map_err(db)?;
            debit(tx, (org, user), "", (&key, "grant", note, amount_micros.saturating_neg()), false)?;
            Ok(account(tx, org, user, false)?.unwrap_or(0))
        })
    }

    fn charge(
        &self,
        owner: &Principal,
        run: &str,
        charge: &Charge<'_>,
        cover: bool,
    ) -> Result<Charged, StoreError> {
        self.in_transaction(|tx| {
            debit(
                tx,
                (&owner.org, &owner.user),
                run,
                (charge.key, charge.kind, charge.detail, charge.amount_micros),
                cover,
            )
        })
    }

    fn balance(&self, owner: &Principal) -> Result<Option<i64>, StoreError> {
        self.with(|c| account(c, &owner.org, &owner.user, false))
    }

    fn usage(
        &self,
        owner: &Principal,
        run: Option<&str>,
        limit: usize,
    ) -> Result<Vec<UsageLine>, StoreError> {
        self.with(|c| {
            let rows = c
                .query(
                    "SELECT run,
                            COALESCE(SUM(CASE WHEN kind = 'model' THEN amount_micros END), 0)::BIGINT,
                            COALESCE(SUM(CASE WHEN kind = 'tool' THEN amount_micros END), 0)::BIGINT,
                            COALESCE(SUM(CASE WHEN kind = 'grant' THEN -amount_micros END), 0)::BIGINT
                     FROM ledger WHERE org = $1 AND \"user\" = $2 AND ($3::text IS NULL OR run = $3)
                     GROUP BY run ORDER BY MAX(created_ms) DESC, run LIMIT $4",
                    &[&owner.org, &owner.user, &run, &limit_of(limit)],
                )
                .map_err(db)?;
            Ok(rows
                .iter()
                .map(|row| UsageLine {
                    run: row.get(0),
                    model_micros: row.get(1),
                    tool_micros: row.get(2),
                    granted_micros: row.get(3),
                })
                .collect())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new, empty database on the server `TACKLE_TEST_POSTGRES` points at (`.ci/run`
    /// starts one), or `None` where none is named.
    fn fresh_database() -> Option<String> {
        let admin = std::env::var("TACKLE_TEST_POSTGRES").ok().filter(|a| !a.is_empty());
        let Some(admin) = admin else {
            assert!(
                std::env::var_os("TACKLE_REQUIRE_POSTGRES").is_none(),
                "TACKLE_REQUIRE_POSTGRES is set but TACKLE_TEST_POSTGRES names no server"
            );
            return None;
        };
        let name = format!("tackle_unit_{}_{}", std::process::id(), random_hex(4).ok()?);
        let mut client = postgres::Client::connect(&admin, NoTls).ok()?;
        client.batch_execute(&format!("CREATE DATABASE {name}")).ok()?;
        let (base, _) = admin.rsplit_once('/')?;
        Some(format!("{base}/{name}"))
    }

    fn statement_timeout(store: &PgStore) -> String {
        store
            .with(|conn| Ok(conn.client.query_one("SHOW statement_timeout", &[]).map_err(db)?.get(0)))
            .unwrap()
    }

    #[test]
    fn a_stuck_statement_fails_at_the_timeout_and_its_connection_serves_on() {
        let Some(url) = fresh_database() else { return };
        // Migrations ran under no limit; every pooled connection has one.
        let store = PgStore::connect(&url, 1, Duration::from_millis(200)).unwrap();
        let stuck = store.with(|conn| conn.client.batch_execute("SELECT pg_sleep(5)").map_err(db));
        assert!(
            matches!(&stuck, Err(StoreError::Database(m)) if m.contains("statement timeout")),
            "{stuck:?}"
        );
        assert_eq!(statement_timeout(&store), "200ms");
        // The store as the server opens it.
        assert_eq!(statement_timeout(&PgStore::open(&url, 1).unwrap()), "30s");
    }
}
