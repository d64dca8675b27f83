//! `tackle-bench env --dir DIR --pattern P`: the environment tools against their floors —
//! `grep` over DIR beside ripgrep (`rg -n P DIR`, same rules: .gitignore, hidden files and
//! binary files left out), medians of 5 runs after a warm-up; and `read_file` of a 50 MB
//! text file, its time and how much the process's peak memory grew; and spawning `true`
//! through `run_command` beside a bare `Command::output`.

use std::sync::Arc;
use std::time::Instant;

use serde_json::{Value, json};
use tackle_env::{Environment, FileTools, LocalDir, SearchTools};
use tackle_tools::{DynTool, RunContext, ToolContext};

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

async fn call(
    tools: &[tackle_tools::FunctionTool],
    name: &str,
    args: Value,
) -> Result<String, Box<dyn std::error::Error>> {
    let tool = tools.iter().find(|t| t.definition().name == name).ok_or("no such tool")?;
    let Value::Object(args) = args else { return Err("arguments are an object".into()) };
    let ctx = ToolContext::detached(Arc::new(RunContext::new("bench")), "c1", name);
    Ok(DynTool::call(tool, ctx, args).await.map_err(|e| e.to_string())?.content.model_text().into_owned())
}

/// The process's peak resident memory so far, in KiB (Linux; 0 elsewhere).
fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:")).map(str::to_owned))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        .unwrap_or(0)
}

pub(crate) fn bench(dir: &str, pattern: &str) -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    runtime.block_on(async {
        let env: Arc<dyn Environment> = Arc::new(LocalDir::new(dir)?);
        let search = SearchTools::new(env).all()?;
        let args = json!({"pattern": pattern, "output_mode": "count"});
        let mut ours = Vec::new();
        let mut summary = String::new();
        for run in 0..6 {
            let started = Instant::now();
            summary = call(&search, "grep", args.clone()).await?;
            if run > 0 {
                ours.push(started.elapsed().as_secs_f64());
            }
        }
        let mut rg = Vec::new();
        let mut rg_lines = 0;
        for run in 0..6 {
            let started = Instant::now();
            let out = std::process::Command::new("rg").args(["-n", "--no-messages", pattern, dir]).output()?;
            if run > 0 {
                rg.push(started.elapsed().as_secs_f64());
            }
            rg_lines = out.stdout.iter().filter(|b| **b == b'\n').count();
        }
        let (ours, rg) = (median(ours), median(rg));
        out!(
            "{}",
            json!({"bench": "env_grep", "dir": dir, "pattern": pattern, "summary": summary.lines().next(), "rg_lines": rg_lines,
                   "tackle_ms": (ours * 1e5).round() / 100.0, "rg_ms": (rg * 1e5).round() / 100.0, "ratio": ((ours / rg) * 100.0).round() / 100.0})
        );

        // read_file of 50 MB.
        let scratch = tempfile::tempdir()?;
        let line = "The quick brown fox jumps over the lazy dog, again and again.\n";
        {
            // Written line by line: the bench itself must not raise the peak it measures.
            use std::io::Write as _;
            let mut out = std::io::BufWriter::new(std::fs::File::create(scratch.path().join("big.txt"))?);
            for _ in 0..50_000_000 / line.len() {
                out.write_all(line.as_bytes())?;
            }
            out.flush()?;
        }
        let files = FileTools::new(Arc::new(LocalDir::new(scratch.path())?)).all()?;
        let before = peak_kib();
        let started = Instant::now();
        let out = call(&files, "read_file", json!({"path": "big.txt"})).await?;
        let elapsed = started.elapsed().as_secs_f64();
        out!(
            "{}",
            json!({"bench": "env_read_file", "file_mb": 50, "ms": (elapsed * 1e5).round() / 100.0, "returned_bytes": out.len(),
                   "peak_growth_mib": (peak_kib().saturating_sub(before)) as f64 / 1024.0})
        );

        // Spawning `true`: through run_command (process group, pipes drained, group ended)
        // beside a bare `Command::output`, medians of 50 after 5 warm-ups.
        let policy = tackle_env::ShellPolicy::default();
        let request = || tackle_env::CommandRequest { program: Some(("true".into(), Vec::new())), ..Default::default() };
        let (mut ours, mut bare) = (Vec::new(), Vec::new());
        for run in 0..55 {
            let started = Instant::now();
            tackle_env::run_command(scratch.path(), &policy, request()).await?;
            let through = started.elapsed().as_secs_f64();
            let started = Instant::now();
            std::process::Command::new("true").current_dir(scratch.path()).output()?;
            let plain = started.elapsed().as_secs_f64();
            if run >= 5 {
                ours.push(through);
                bare.push(plain);
            }
        }
        let (ours, bare) = (median(ours), median(bare));
        out!(
            "{}",
            json!({"bench": "env_spawn_true", "run_command_ms": (ours * 1e5).round() / 100.0, "bare_spawn_ms": (bare * 1e5).round() / 100.0,
                   "over_ms": ((ours - bare) * 1e5).round() / 100.0})
        );
        Ok(())
    })
}
