//! `tackle-bench suspended`: what a suspended run costs to hold. 10,000 runs, each with a
//! 20-message history (a request, nine rounds of one call and its result — `add` or a
//! 200-character `echo` — and a last round whose call needs approval, so the run suspends),
//! kept in one process: the resident memory they add, per run; and the same states saved as
//! the CLI saves sessions (serialised JSON in a SQLite table), the file's size per run.

use std::sync::Arc;

use serde::Deserialize;
use tackle_core::Message;
use tackle_harness::{Discard, Harness, RunOutcome, RunState};
use tackle_tools::{RunContext, ToolContext, ToolError, typed_tool};

/// How many suspended runs are held.
const RUNS: usize = 10_000;

#[derive(Deserialize, schemars::JsonSchema)]
struct RemoveArgs {
    /// The file to remove.
    path: String,
}

/// The resident set size of this process, in bytes (`/proc/self/statm`).
fn resident() -> Result<u64, Box<dyn std::error::Error>> {
    let statm = std::fs::read_to_string("/proc/self/statm")?;
    let pages: u64 = statm.split_whitespace().nth(1).ok_or("no resident field")?.parse()?;
    Ok(pages * 4096)
}

pub(crate) fn bench() -> Result<(), Box<dyn std::error::Error>> {
    let remove = typed_tool("remove", "Remove a file.", |_ctx: ToolContext, args: RemoveArgs| async move {
        Ok::<_, ToolError>(format!("removed {}", args.path))
    })
    .requires_approval()
    .build()?;
    let harness = Harness::new(crate::registry_builder()?.tool(remove).build()?);
    let mut script = crate::script(9, 1);
    script.push(vec![("call_9".to_owned(), "remove", r#"{"path":"notes/old.txt"}"#.to_owned())]);
    let model = crate::LoopModel::new(script);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build()?;
    let one = |i: usize| -> Result<RunState, Box<dyn std::error::Error>> {
        let run = Arc::new(RunContext::new(format!("run-{i}")));
        let mut state = harness.start(format!("run-{i}"), vec![Message::user("Tidy up my notes, please.")]);
        match runtime.block_on(harness.run(&model, &run, &mut state, &mut Discard))? {
            RunOutcome::Suspended(_) => Ok(state),
            other => Err(format!("the run did not suspend: {other:?}").into()),
        }
    };
    let first = one(0)?;
    if first.messages.len() != 20 {
        return Err(format!("{} messages, 20 expected", first.messages.len()).into());
    }
    drop(first);
    let before = resident()?;
    let mut held = Vec::with_capacity(RUNS);
    for i in 0..RUNS {
        held.push(one(i)?);
    }
    let after = resident()?;
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("sessions.db");
    let mut db = rusqlite::Connection::open(&path)?;
    db.execute_batch("CREATE TABLE sessions (id TEXT PRIMARY KEY, state TEXT NOT NULL);")?;
    let mut json_bytes = 0usize;
    {
        let tx = db.transaction()?;
        for state in &held {
            let json = serde_json::to_string(state)?;
            json_bytes += json.len();
            tx.execute(
                "INSERT INTO sessions (id, state) VALUES (?1, ?2)",
                rusqlite::params![state.run_id, json],
            )?;
        }
        tx.commit()?;
    }
    drop(db);
    let file = std::fs::metadata(&path)?.len();
    let line = serde_json::json!({
        "framework": "tackle",
        "bench": "suspended",
        "runs": RUNS,
        "messages_per_run": held[0].messages.len(),
        "memory_bytes_per_run": (after.saturating_sub(before)) / RUNS as u64,
        "json_bytes_per_run": json_bytes / RUNS,
        "sqlite_bytes_per_run": file / RUNS as u64,
    });
    out!("{line}");
    Ok(())
}
