//! Sessions: every run saved with its messages, traces and sources (the harness's whole
//! `RunState`) in one SQLite file in the data dir, so that a run can be continued, shown,
//! or — when it waits for approval — resumed by another process.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, params};
use tackle_harness::RunState;

use crate::failure::Failure;

/// How a session's last run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Answered,
    Suspended,
    Failed,
    Cancelled,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Answered => "answered",
            Status::Suspended => "waiting for approval",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
        }
    }
}

/// Where a session's runs go: enough to resume against the same server with a key from
/// the same place. Never the key itself.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Endpoint {
    /// The provider's name (`openai`, a preset, one from the settings file, `local`).
    pub(crate) provider: String,
    /// The wire API (`chat`, `responses`, `anthropic`, `local`).
    pub(crate) api: String,
    /// The preset the host was set up with.
    pub(crate) preset: String,
    /// The base URL, when one was set; `None` is the preset's own host.
    pub(crate) base_url: Option<String>,
    /// Where the key came from (a variable's or a secret's name), never its value.
    pub(crate) key_source: String,
    /// The environment tools' root, when the session had one: an approval or a `--continue`
    /// works in the same directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) root: Option<PathBuf>,
}

impl Endpoint {
    /// Where the runs go, for messages.
    pub(crate) fn describe(&self) -> String {
        match &self.base_url {
            Some(url) => format!("{} at {url}", self.provider),
            None => format!("{} at its default host", self.provider),
        }
    }
}

/// One saved session.
#[derive(Debug, Clone)]
pub(crate) struct Session {
    pub(crate) id: String,
    pub(crate) created: SystemTime,
    pub(crate) updated: SystemTime,
    pub(crate) provider: String,
    pub(crate) model: String,
    pub(crate) title: String,
    pub(crate) status: String,
    pub(crate) state: RunState,
    /// Where its runs went; `None` for sessions saved before endpoints were kept.
    pub(crate) endpoint: Option<Endpoint>,
}

/// A session in a listing: id, last saved, provider, model, title, status.
pub(crate) type Row = (String, SystemTime, String, String, String, String);

/// The session store.
pub(crate) struct Store {
    connection: Connection,
    path: PathBuf,
}

/// The data dir: `TACKLE_DATA_DIR`, else the platform's.
pub(crate) fn data_dir() -> Result<PathBuf, Failure> {
    if let Some(dir) = std::env::var_os("TACKLE_DATA_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "tackle")
        .map(|dirs| dirs.data_dir().to_path_buf())
        .ok_or_else(|| Failure::usage("this platform has no data directory; set TACKLE_DATA_DIR"))
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS sessions (
    id         TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    provider   TEXT NOT NULL,
    model      TEXT NOT NULL,
    title      TEXT NOT NULL,
    status     TEXT NOT NULL,
    state      TEXT NOT NULL,
    revision   INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_revision ON sessions (revision DESC);
";

fn seconds(time: SystemTime) -> i64 {
    time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

fn time(seconds: i64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(seconds.max(0) as u64)
}

/// A time as `2026-11-30 00:40 UTC`.
pub(crate) fn format_time(time: SystemTime) -> String {
    let text = humantime::format_rfc3339_seconds(time).to_string();
    format!("{} UTC", text.get(..16).unwrap_or(&text).replace('T', " "))
}

fn storage(error: rusqlite::Error, path: &Path) -> Failure {
    Failure::run(format!("the session store {} failed: {error}", path.display()))
}

impl Store {
    /// Opens (creating if needed) `sessions.db` in the data dir.
    pub(crate) fn open() -> Result<Store, Failure> {
        let dir = data_dir()?;
        fs_err::create_dir_all(&dir).map_err(|e| Failure::run(format!("cannot create the data dir: {e}")))?;
        Store::open_at(&dir.join("sessions.db"))
    }

    pub(crate) fn open_at(path: &Path) -> Result<Store, Failure> {
        let connection = Connection::open(path).map_err(|e| storage(e, path))?;
        connection.busy_timeout(Duration::from_secs(5)).map_err(|e| storage(e, path))?;
        connection.execute_batch(SCHEMA).map_err(|e| storage(e, path))?;
        // Stores written before endpoints were kept get the column.
        let has_endpoint: bool = connection
            .query_row(
                "SELECT COUNT(*) FROM pragma_table_info('sessions') WHERE name = 'endpoint'",
                [],
                |row| row.get::<_, i64>(0),
            )
            .map(|n| n > 0)
            .map_err(|e| storage(e, path))?;
        if !has_endpoint {
            connection
                .execute_batch("ALTER TABLE sessions ADD COLUMN endpoint TEXT")
                .map_err(|e| storage(e, path))?;
        }
        Ok(Store { connection, path: path.to_path_buf() })
    }

    /// Saves a session (inserting or replacing it).
    pub(crate) fn save(
        &self,
        state: &RunState,
        endpoint: &Endpoint,
        model: &str,
        title: &str,
        status: Status,
    ) -> Result<(), Failure> {
        let json = serde_json::to_string(state)
            .map_err(|e| Failure::run(format!("cannot save the session: {e}")))?;
        let endpoint_json = serde_json::to_string(endpoint)
            .map_err(|e| Failure::run(format!("cannot save the session: {e}")))?;
        let now = seconds(SystemTime::now());
        self.connection
            .execute(
                "INSERT INTO sessions (id, created_at, updated_at, provider, model, title, status, state, revision, endpoint)
                 VALUES (?1, ?2, ?2, ?3, ?4, ?5, ?6, ?7, (SELECT COALESCE(MAX(revision), 0) + 1 FROM sessions), ?8)
                 ON CONFLICT (id) DO UPDATE SET updated_at = ?2, provider = ?3, model = ?4, status = ?6, state = ?7,
                     revision = (SELECT COALESCE(MAX(revision), 0) + 1 FROM sessions), endpoint = ?8",
                params![state.run_id, now, endpoint.provider, model, title, status.as_str(), json, endpoint_json],
            )
            .map_err(|e| storage(e, &self.path))?;
        Ok(())
    }

    /// The session `id`.
    pub(crate) fn load(&self, id: &str) -> Result<Session, Failure> {
        let row = self
            .connection
            .query_row(
                "SELECT id, created_at, updated_at, provider, model, title, status, state, endpoint FROM sessions WHERE id = ?1",
                params![id],
                |row| {
                    Ok((
                        row.get::<_, String>(0)?,
                        row.get::<_, i64>(1)?,
                        row.get::<_, i64>(2)?,
                        row.get::<_, String>(3)?,
                        row.get::<_, String>(4)?,
                        row.get::<_, String>(5)?,
                        row.get::<_, String>(6)?,
                        row.get::<_, String>(7)?,
                        row.get::<_, Option<String>>(8)?,
                    ))
                },
            )
            .optional()
            .map_err(|e| storage(e, &self.path))?;
        let Some((id, created, updated, provider, model, title, status, state, endpoint)) = row else {
            return Err(Failure::usage(format!("no session {id:?}"))
                .hint("`tackle sessions list` shows the saved ones"));
        };
        let state: RunState = serde_json::from_str(&state).map_err(|e| {
            Failure::run(format!("session {id} cannot be read (saved by another version?): {e}"))
        })?;
        let endpoint = match endpoint {
            Some(text) => Some(serde_json::from_str(&text).map_err(|e| {
                Failure::run(format!(
                    "session {id} names its endpoint in a form this version cannot read: {e}"
                ))
            })?),
            None => None,
        };
        Ok(Session {
            id,
            created: time(created),
            updated: time(updated),
            provider,
            model,
            title,
            status,
            state,
            endpoint,
        })
    }

    /// Sessions, most recently saved first, without their states.
    pub(crate) fn list(&self, limit: usize) -> Result<Vec<Row>, Failure> {
        let mut statement = self
            .connection
            .prepare("SELECT id, updated_at, provider, model, title, status FROM sessions ORDER BY revision DESC LIMIT ?1")
            .map_err(|e| storage(e, &self.path))?;
        let rows = statement
            .query_map(params![limit as i64], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    time(row.get::<_, i64>(1)?),
                    row.get::<_, String>(2)?,
                    row.get::<_, String>(3)?,
                    row.get::<_, String>(4)?,
                    row.get::<_, String>(5)?,
                ))
            })
            .map_err(|e| storage(e, &self.path))?;
        rows.collect::<Result<Vec<_>, _>>().map_err(|e| storage(e, &self.path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_sessions_come_back_and_list_newest_first() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_at(&dir.path().join("s.db")).unwrap();
        let harness = tackle_harness::Harness::new(tackle_tools::ToolRegistry::builder().build().unwrap());
        let endpoint = |provider: &str| Endpoint {
            provider: provider.into(),
            api: "chat".into(),
            preset: provider.into(),
            base_url: Some("http://127.0.0.1:9/v1".into()),
            key_source: "environment variable K".into(),
            root: None,
        };
        let mut one = harness.start("one", vec![tackle_core::Message::user("first question")]);
        store.save(&one, &endpoint("openai"), "m", "first question", Status::Answered).unwrap();
        let two = harness.start("two", vec![tackle_core::Message::user("second")]);
        store.save(&two, &endpoint("anthropic"), "c", "second", Status::Suspended).unwrap();
        one.push_user("and more");
        store.save(&one, &endpoint("openai"), "m", "ignored on update", Status::Failed).unwrap();

        let loaded = store.load("one").unwrap();
        assert_eq!(loaded.endpoint, Some(endpoint("openai")));
        assert_eq!(loaded.state, one);
        assert_eq!(loaded.title, "first question");
        assert_eq!(loaded.status, "failed");
        let ids: Vec<String> = store.list(10).unwrap().into_iter().map(|row| row.0).collect();
        assert_eq!(ids, ["one", "two"]);
        assert!(store.load("nope").unwrap_err().to_string().contains("no session"));
    }

    #[test]
    fn stores_from_before_endpoints_are_migrated() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        let old = Connection::open(&path).unwrap();
        old.execute_batch(SCHEMA).unwrap();
        let harness = tackle_harness::Harness::new(tackle_tools::ToolRegistry::builder().build().unwrap());
        let state = serde_json::to_string(&harness.start("old", vec![])).unwrap();
        old.execute(
            "INSERT INTO sessions VALUES ('old', 1, 1, 'openai', 'm', 't', 'answered', ?1, 1)",
            params![state],
        )
        .unwrap();
        drop(old);
        let store = Store::open_at(&path).unwrap();
        let loaded = store.load("old").unwrap();
        assert_eq!(loaded.endpoint, None);
        assert_eq!(loaded.provider, "openai");
    }

    #[test]
    fn titles_are_one_short_line() {
        assert_eq!(tackle_harness::conversation_title("  What is\n the weather?  "), "What is the weather?");
        assert_eq!(tackle_harness::conversation_title(&"word ".repeat(30)).chars().count(), 61);
    }
}
