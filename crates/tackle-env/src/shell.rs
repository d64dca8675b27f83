//! Running commands in an environment's root: each in its own process group, with a
//! deadline after which the whole group gets `TERM` and then `KILL`, output drained as it
//! comes and kept to a bound (its head and its tail), and only allowlisted environment
//! variables passed on.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt};

/// What may run, and how.
#[derive(Debug, Clone)]
pub struct ShellPolicy {
    /// When set, only these programs run (by name, or by path as given), and neither scripts
    /// nor environment overrides are accepted.
    pub allowed_programs: Option<Vec<String>>,
    /// Whether `sh -c` scripts may run at all.
    pub allow_scripts: bool,
    /// The environment variables passed on from tackle's own environment; everything else
    /// (API keys, tokens) stays out.
    pub env_allowlist: Vec<String>,
    /// The deadline when a call gives none.
    pub default_timeout: Duration,
    /// The longest deadline a call may ask for.
    pub max_timeout: Duration,
    /// Bytes kept of each of stdout and stderr (half from the start, half from the end).
    pub output_limit: usize,
    /// How long a group has between `TERM` and `KILL`.
    pub grace: Duration,
}

impl Default for ShellPolicy {
    fn default() -> Self {
        ShellPolicy {
            allowed_programs: None,
            allow_scripts: true,
            env_allowlist: [
                "PATH",
                "HOME",
                "LANG",
                "LC_ALL",
                "TERM",
                "USER",
                "TMPDIR",
                "CARGO_HOME",
                "RUSTUP_HOME",
            ]
            .map(String::from)
            .to_vec(),
            default_timeout: Duration::from_secs(120),
            max_timeout: Duration::from_secs(600),
            output_limit: 64 * 1024,
            grace: Duration::from_secs(2),
        }
    }
}

/// One command to run.
#[derive(Debug, Clone, Default)]
pub struct CommandRequest {
    /// A program and its arguments (no shell), or
    pub program: Option<(String, Vec<String>)>,
    /// a script for `sh -c`.
    pub script: Option<String>,
    /// The deadline (the policy's default when `None`; never more than its maximum).
    pub timeout: Option<Duration>,
    /// Variables to set for this command.
    pub env: Vec<(String, String)>,
}

/// Output kept within a bound: the first half of the limit and the last half.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Captured {
    /// The start of the output.
    pub head: Vec<u8>,
    /// The end of the output, when it did not all fit in `head`.
    pub tail: Vec<u8>,
    /// How many bytes came in all.
    pub bytes: u64,
}

impl Captured {
    /// Whether bytes between `head` and `tail` were dropped.
    pub fn truncated(&self) -> bool {
        (self.head.len() + self.tail.len()) as u64 != self.bytes
    }

    /// The kept output as text, with a marker where bytes were dropped.
    pub fn text(&self) -> String {
        let head = String::from_utf8_lossy(&self.head);
        if self.tail.is_empty() {
            return head.into_owned();
        }
        let dropped = self.bytes - (self.head.len() + self.tail.len()) as u64;
        let marker =
            if dropped > 0 { format!("\n[... {dropped} bytes not kept ...]\n") } else { String::new() };
        format!("{head}{marker}{}", String::from_utf8_lossy(&self.tail))
    }
}

/// How a command ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandOutcome {
    /// The exit code, when it exited.
    pub exit_code: Option<i32>,
    /// The signal that ended it, when one did.
    pub signal: Option<i32>,
    /// Whether the deadline passed (the group was then terminated).
    pub timed_out: bool,
    /// Its standard output.
    pub stdout: Captured,
    /// Its standard error.
    pub stderr: Captured,
    /// How long it ran.
    pub duration: Duration,
}

/// Why a command did not run.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShellError {
    /// The policy refuses it.
    #[error("refused: {0}")]
    Refused(String),
    /// It could not be started.
    #[error("could not start {program}: {message}")]
    Spawn {
        /// What was to run.
        program: String,
        /// Why not.
        message: String,
    },
}

/// Reads `reader` to its end, keeping `limit` bytes: the first half and a rolling last half.
async fn drain(mut reader: impl AsyncRead + Unpin, limit: usize) -> Captured {
    let (half, mut out) = (limit / 2, Captured::default());
    let mut tail: std::collections::VecDeque<u8> = std::collections::VecDeque::new();
    let mut buf = vec![0u8; 8192];
    loop {
        let n = match reader.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        out.bytes += n as u64;
        let mut chunk = &buf[..n];
        let room = (limit - half).saturating_sub(out.head.len()).min(chunk.len());
        out.head.extend_from_slice(&chunk[..room]);
        chunk = &chunk[room..];
        tail.extend(chunk);
        while tail.len() > half {
            tail.pop_front();
        }
    }
    out.tail = tail.into_iter().collect();
    out
}

/// Sends `signal` to the process group `pgid` (Unix).
#[cfg(unix)]
fn signal_group(pgid: u32, signal: rustix::process::Signal) {
    if let Some(pid) = i32::try_from(pgid).ok().and_then(rustix::process::Pid::from_raw) {
        // The group may be gone already: nothing to do then.
        let _ = rustix::process::kill_process_group(pid, signal);
    }
}

/// Ends the process group: `TERM`, then `KILL` after `grace` (at once if `grace` is zero).
async fn end_group(pgid: Option<u32>, grace: Duration) {
    #[cfg(unix)]
    if let Some(pgid) = pgid {
        signal_group(pgid, rustix::process::Signal::TERM);
        tokio::time::sleep(grace).await;
        signal_group(pgid, rustix::process::Signal::KILL);
    }
    #[cfg(not(unix))]
    let _ = (pgid, grace);
}

/// Kills a process group when dropped: a call that is cancelled (its run stopped, its
/// future dropped) takes its whole group with it.
struct GroupGuard(Option<u32>);

impl Drop for GroupGuard {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Some(pgid) = self.0 {
            signal_group(pgid, rustix::process::Signal::KILL);
        }
    }
}

/// Runs `request` in `root` under `policy`.
pub async fn run_command(
    root: &Path,
    policy: &ShellPolicy,
    request: CommandRequest,
) -> Result<CommandOutcome, ShellError> {
    let (program, args): (String, Vec<String>) = match (&request.program, &request.script) {
        (Some((program, args)), None) => {
            if let Some(allowed) = &policy.allowed_programs
                && !allowed.iter().any(|a| a == program)
            {
                return Err(ShellError::Refused(format!(
                    "{program:?} is not on the program allowlist ({})",
                    allowed.join(", ")
                )));
            }
            (program.clone(), args.clone())
        }
        (None, Some(script)) => {
            if policy.allowed_programs.is_some() || !policy.allow_scripts {
                return Err(ShellError::Refused(
                    "scripts are not allowed here; run a program with arguments".into(),
                ));
            }
            ("sh".into(), vec!["-c".into(), script.clone()])
        }
        _ => {
            return Err(ShellError::Refused(
                "give either a program with arguments or a script, not both".into(),
            ));
        }
    };
    if policy.allowed_programs.is_some() && !request.env.is_empty() {
        return Err(ShellError::Refused(
            "environment overrides are not allowed with a program allowlist".into(),
        ));
    }
    let timeout = request.timeout.unwrap_or(policy.default_timeout).min(policy.max_timeout);
    let mut command = tokio::process::Command::new(&program);
    command
        .args(&args)
        .current_dir(root)
        .env_clear()
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    for name in &policy.env_allowlist {
        if let Some(value) = std::env::var_os(name) {
            command.env(name, value);
        }
    }
    command.envs(request.env.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    #[cfg(unix)]
    command.process_group(0);
    let started = Instant::now();
    let mut child = command
        .spawn()
        .map_err(|e| ShellError::Spawn { program: program.clone(), message: e.to_string() })?;
    let pgid = child.id();
    let guard = GroupGuard(pgid);
    // Output is drained while the command runs, so a full pipe never stalls it.
    let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
    let limit = policy.output_limit;
    let out = tokio::spawn(async move {
        match stdout {
            Some(s) => drain(s, limit).await,
            None => Captured::default(),
        }
    });
    let err = tokio::spawn(async move {
        match stderr {
            Some(s) => drain(s, limit).await,
            None => Captured::default(),
        }
    });
    let (status, timed_out) = match tokio::time::timeout(timeout, child.wait()).await {
        Ok(status) => (status.ok(), false),
        Err(_) => {
            end_group(pgid, policy.grace).await;
            (child.wait().await.ok(), true)
        }
    };
    // Whatever the command left running in its group (a server it started, a `sleep &`) ends
    // with it: otherwise it would hold the output pipes open and outlive the call.
    end_group(pgid, Duration::ZERO).await;
    drop(guard);
    let stdout = out.await.unwrap_or_default();
    let stderr = err.await.unwrap_or_default();
    #[cfg(unix)]
    let signal = status.and_then(|s| std::os::unix::process::ExitStatusExt::signal(&s));
    #[cfg(not(unix))]
    let signal = None;
    Ok(CommandOutcome {
        exit_code: status.and_then(|s| s.code()),
        signal,
        timed_out,
        stdout,
        stderr,
        duration: started.elapsed(),
    })
}

/// The `run_command` tool over a directory.
#[derive(Clone)]
pub struct ShellTools {
    root: std::path::PathBuf,
    policy: std::sync::Arc<ShellPolicy>,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct RunArgs {
    /// The program to run (no shell): `cargo`, `git`, `python3`.
    #[serde(default)]
    program: Option<String>,
    /// Its arguments, each as one string.
    #[serde(default)]
    args: Vec<String>,
    /// Instead of a program: a script for `sh -c` (pipes, redirections), where allowed.
    #[serde(default)]
    script: Option<String>,
    /// Seconds before the command and everything it started are stopped (default 120).
    #[serde(default)]
    timeout_seconds: Option<u64>,
}

impl ShellTools {
    /// Commands run in `dir`'s root under `policy`.
    pub fn new(dir: &crate::LocalDir, policy: ShellPolicy) -> Self {
        ShellTools { root: dir.root().to_path_buf(), policy: std::sync::Arc::new(policy) }
    }

    /// `run_command` (approval required).
    pub fn run_command(&self) -> Result<tackle_tools::FunctionTool, tackle_tools::ToolBuildError> {
        let tools = self.clone();
        tackle_tools::typed_tool(
            "run_command",
            "Run a program with arguments (or, where allowed, an sh script) in the root directory. Everything it starts is stopped when it ends or times out; output is kept to its start and its end.",
            move |ctx: tackle_tools::ToolContext, args: RunArgs| {
                let tools = tools.clone();
                async move {
                    // The settings narrow the policy, never widen it.
                    let mut policy = (*tools.policy).clone();
                    if let Some(list) = ctx.setting("allowed_programs").filter(|l| !l.trim().is_empty()) {
                        let listed: Vec<String> =
                            list.split(['\n', ',']).map(str::trim).filter(|p| !p.is_empty()).map(String::from).collect();
                        policy.allowed_programs = Some(match policy.allowed_programs.take() {
                            Some(already) => listed.into_iter().filter(|p| already.contains(p)).collect(),
                            None => listed,
                        });
                    }
                    if ctx.setting("allow_scripts").is_some_and(|v| v.trim() == "false") {
                        policy.allow_scripts = false;
                    }
                    let request = CommandRequest {
                        program: args.program.map(|p| (p, args.args)),
                        script: args.script,
                        timeout: args.timeout_seconds.map(Duration::from_secs),
                        env: Vec::new(),
                    };
                    let outcome = run_command(&tools.root, &policy, request).await.map_err(|e| match e {
                        ShellError::Refused(_) => tackle_core::ToolError::feedback(e.to_string()),
                        ShellError::Spawn { .. } => tackle_core::ToolError::feedback(e.to_string()),
                    })?;
                    Ok(report(&outcome))
                }
            },
        )
        .returns_untrusted_content()
        .requires_approval()
        .sequential()
        .setting(tackle_core::SettingField::new("allowed_programs").describe(
            "Programs run_command may run (one per line or comma-separated); when set, scripts and environment overrides are refused.",
        ))
        .setting(tackle_core::SettingField::new("allow_scripts").describe("Whether sh scripts may run (true or false)."))
        .build()
    }
}

/// A command's outcome as the model reads it.
fn report(outcome: &CommandOutcome) -> String {
    use std::fmt::Write as _;
    let ended = match (outcome.timed_out, outcome.exit_code, outcome.signal) {
        (true, _, _) => "timed out; it and everything it started were stopped".to_owned(),
        (false, Some(code), _) => format!("exit code {code}"),
        (false, None, Some(signal)) => format!("ended by signal {signal}"),
        (false, None, None) => "ended".to_owned(),
    };
    let mut out = format!("{ended} ({:.1} s)\n", outcome.duration.as_secs_f64());
    for (name, captured) in [("stdout", &outcome.stdout), ("stderr", &outcome.stderr)] {
        if captured.bytes == 0 {
            continue;
        }
        let cut = if captured.truncated() { ", only its start and end kept" } else { "" };
        let _ = writeln!(out, "--- {name} ({} bytes{cut}) ---", captured.bytes);
        out.push_str(&captured.text());
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}
