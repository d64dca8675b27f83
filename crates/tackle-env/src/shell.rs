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
    /// How many background commands may run at once.
    pub max_background: usize,
    /// The longest a background command runs before it is stopped.
    pub background_lifetime: Duration,
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
            max_background: 4,
            background_lifetime: Duration::from_secs(30 * 60),
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
#[non_exhaustive]
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
    /// There is no such background command in this run.
    #[error("{0}")]
    NotFound(String),
    /// It could not be started.
    #[error("could not start {program}: {message}")]
    Spawn {
        /// What was to run.
        program: String,
        /// Why not.
        message: String,
    },
}

/// Output kept within a bound as it comes: the first half of the bound and a rolling last
/// half, until [`Spool::take`] hands over what came and starts again.
#[derive(Debug)]
pub(crate) struct Spool {
    head: Vec<u8>,
    tail: std::collections::VecDeque<u8>,
    bytes: u64,
    limit: usize,
}

impl Spool {
    pub(crate) fn new(limit: usize) -> Self {
        Spool { head: Vec::new(), tail: std::collections::VecDeque::new(), bytes: 0, limit }
    }

    pub(crate) fn push(&mut self, mut chunk: &[u8]) {
        let half = self.limit / 2;
        self.bytes += chunk.len() as u64;
        let room = (self.limit - half).saturating_sub(self.head.len()).min(chunk.len());
        self.head.extend_from_slice(&chunk[..room]);
        chunk = &chunk[room..];
        if chunk.len() >= half {
            self.tail.clear();
            self.tail.extend(&chunk[chunk.len() - half..]);
            return;
        }
        self.tail.extend(chunk);
        let excess = self.tail.len().saturating_sub(half);
        self.tail.drain(..excess);
    }

    /// What came since the last take.
    pub(crate) fn take(&mut self) -> Captured {
        let captured = Captured {
            head: std::mem::take(&mut self.head),
            tail: self.tail.drain(..).collect(),
            bytes: self.bytes,
        };
        self.bytes = 0;
        captured
    }
}

/// Reads `reader` to its end, keeping `limit` bytes: the first half and a rolling last half.
async fn drain(mut reader: impl AsyncRead + Unpin, limit: usize) -> Captured {
    let mut spool = Spool::new(limit);
    let mut buf = vec![0u8; 8192];
    loop {
        match reader.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => spool.push(&buf[..n]),
        }
    }
    spool.take()
}

/// Sends `signal` to the process group `pgid` (Unix).
#[cfg(unix)]
pub(crate) fn signal_group(pgid: u32, signal: rustix::process::Signal) {
    if let Some(pid) = i32::try_from(pgid).ok().and_then(rustix::process::Pid::from_raw) {
        // The group may be gone already: nothing to do then.
        let _ = rustix::process::kill_process_group(pid, signal);
    }
}

/// Ends the process group: `TERM`, then `KILL` after `grace` (at once if `grace` is zero).
pub(crate) async fn end_group(pgid: Option<u32>, grace: Duration) {
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

/// The program and arguments `request` runs, when `policy` allows it.
pub(crate) fn command_line(
    policy: &ShellPolicy,
    request: &CommandRequest,
) -> Result<(String, Vec<String>), ShellError> {
    let line = match (&request.program, &request.script) {
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
    Ok(line)
}

/// The command for `program args` in `root`: its own process group, a cleared environment
/// with only the allowlisted variables and `env`, output piped, stdin closed.
pub(crate) fn command(
    root: &Path,
    policy: &ShellPolicy,
    (program, args): &(String, Vec<String>),
    env: &[(String, String)],
) -> tokio::process::Command {
    let mut command = tokio::process::Command::new(program);
    command
        .args(args)
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
    command.envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    #[cfg(unix)]
    command.process_group(0);
    command
}

/// Runs `request` in `root` under `policy`.
pub async fn run_command(
    root: &Path,
    policy: &ShellPolicy,
    request: CommandRequest,
) -> Result<CommandOutcome, ShellError> {
    let line = command_line(policy, &request)?;
    let program = line.0.clone();
    let timeout = request.timeout.unwrap_or(policy.default_timeout).min(policy.max_timeout);
    let mut command = command(root, policy, &line, &request.env);
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

/// The shell tools over a directory: `run_command`, and the background commands
/// (`start_command`, `command_status`, `write_stdin`, `signal_command`, `stop_command`).
/// Background commands end with the run that started them (when its cancellation token
/// fires), with their lifetime, or when the last clone of these tools is dropped.
#[derive(Clone)]
pub struct ShellTools {
    root: std::path::PathBuf,
    policy: std::sync::Arc<ShellPolicy>,
    background: crate::Background,
}

/// The arguments of `run_command` and `start_command`.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct CommandArgs {
    /// The program to run (no shell): `cargo`, `git`, `npm`, `python3`.
    #[serde(default)]
    program: Option<String>,
    /// Its arguments, each as one string.
    #[serde(default)]
    args: Vec<String>,
    /// Instead of a program: a script for `sh -c` (pipes, redirections), where allowed.
    #[serde(default)]
    script: Option<String>,
    /// Seconds before the command and everything it started are stopped (run_command:
    /// 120 by default; start_command: 1800 by default and at most).
    #[serde(default)]
    timeout_seconds: Option<u64>,
}

impl CommandArgs {
    fn request(self) -> CommandRequest {
        CommandRequest {
            program: self.program.map(|p| (p, self.args)),
            script: self.script,
            timeout: self.timeout_seconds.map(Duration::from_secs),
            env: Vec::new(),
        }
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct StatusArgs {
    /// The background command (`bg1`); without it, every command of this run is listed.
    #[serde(default)]
    id: Option<String>,
    /// Seconds to wait for it to end before answering (default 0: answer at once).
    #[serde(default)]
    wait_seconds: Option<u64>,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct StdinArgs {
    /// The background command (`bg1`).
    id: String,
    /// The text to write to its standard input (add the newline a line needs).
    text: String,
    /// Whether to close its input afterwards (end of input).
    #[serde(default)]
    close: bool,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct SignalArgs {
    /// The background command (`bg1`).
    id: String,
    /// The signal: INT, TERM, HUP, QUIT, KILL, USR1, USR2, STOP or CONT.
    signal: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct StopArgs {
    /// The background command (`bg1`).
    id: String,
}

impl ShellTools {
    /// Commands run in `dir`'s root under `policy`.
    pub fn new(dir: &crate::LocalDir, policy: ShellPolicy) -> Self {
        ShellTools {
            root: dir.root().to_path_buf(),
            background: crate::Background::new(dir.root(), policy.clone()),
            policy: std::sync::Arc::new(policy),
        }
    }

    /// The background commands these tools start, for a host that stops them itself.
    pub fn background(&self) -> &crate::Background {
        &self.background
    }

    /// Every shell tool: `run_command` and the five background-command tools.
    pub fn all(&self) -> Result<Vec<tackle_tools::FunctionTool>, tackle_tools::ToolBuildError> {
        Ok(vec![
            self.run_command()?,
            self.start_command()?,
            self.command_status()?,
            self.write_stdin()?,
            self.signal_command()?,
            self.stop_command()?,
        ])
    }

    /// The policy for one call: the settings of `run_command` (`allowed_programs`,
    /// `allow_scripts`) narrow it, never widen it.
    fn narrowed(&self, ctx: &tackle_tools::ToolContext) -> ShellPolicy {
        let read = |field: &str| match ctx.tool_name() {
            "run_command" => ctx.setting(field),
            _ => ctx.run().settings.layered("run_command", field).map(|(v, _)| v),
        };
        let mut policy = (*self.policy).clone();
        if let Some(list) = read("allowed_programs").filter(|l| !l.trim().is_empty()) {
            let listed: Vec<String> =
                list.split(['\n', ',']).map(str::trim).filter(|p| !p.is_empty()).map(String::from).collect();
            policy.allowed_programs = Some(match policy.allowed_programs.take() {
                Some(already) => listed.into_iter().filter(|p| already.contains(p)).collect(),
                None => listed,
            });
        }
        if read("allow_scripts").is_some_and(|v| v.trim() == "false") {
            policy.allow_scripts = false;
        }
        policy
    }

    /// How long the executor lets a call that waits up to the longest deadline take: that
    /// deadline, the grace period, and a margin to report in.
    fn call_timeout(&self) -> Duration {
        self.policy.max_timeout + self.policy.grace + Duration::from_secs(5)
    }

    /// `run_command` (approval required).
    pub fn run_command(&self) -> Result<tackle_tools::FunctionTool, tackle_tools::ToolBuildError> {
        let tools = self.clone();
        tackle_tools::typed_tool(
            "run_command",
            "Run a program with arguments (or, where allowed, an sh script) in the root directory and wait for it. Everything it starts is stopped when it ends or times out; output is kept to its start and its end. For servers and watchers that keep running, use start_command.",
            move |ctx: tackle_tools::ToolContext, args: CommandArgs| {
                let tools = tools.clone();
                async move {
                    let policy = tools.narrowed(&ctx);
                    let outcome = run_command(&tools.root, &policy, args.request()).await.map_err(feedback)?;
                    Ok(tackle_core::ToolReturn::text(report(&outcome)).with_private_metadata(serde_json::json!({
                        "exit_code": outcome.exit_code,
                        "signal": outcome.signal,
                        "timed_out": outcome.timed_out,
                        "duration_ms": u64::try_from(outcome.duration.as_millis()).unwrap_or(u64::MAX),
                        "stdout_bytes": outcome.stdout.bytes,
                        "stderr_bytes": outcome.stderr.bytes,
                    })))
                }
            },
        )
        .returns_untrusted_content()
        .requires_approval()
        .sequential()
        .timeout(self.call_timeout())
        .setting(tackle_core::SettingField::new("allowed_programs").describe(
            "Programs run_command and start_command may run (one per line or comma-separated); when set, scripts and environment overrides are refused.",
        ))
        .setting(
            tackle_core::SettingField::new("allow_scripts")
                .describe("Whether sh scripts may run, here and in start_command (true or false)."),
        )
        .routing_hint("Use when the user asks to run a command or a script, build, test, install, or check a version, and wants its output.")
        .build()
    }

    /// `start_command` (approval required): a command that keeps running in the background.
    pub fn start_command(&self) -> Result<tackle_tools::FunctionTool, tackle_tools::ToolBuildError> {
        let tools = self.clone();
        tackle_tools::typed_tool(
            "start_command",
            "Start a program (or, where allowed, an sh script) in the background in the root directory, for servers, watchers and long builds. Returns its id at once; read its output with command_status, feed it with write_stdin, stop it with stop_command. It is stopped when the run ends.",
            move |ctx: tackle_tools::ToolContext, args: CommandArgs| {
                let tools = tools.clone();
                async move {
                    let policy = tools.narrowed(&ctx);
                    let asked = args.timeout_seconds;
                    let request = args.request();
                    let cancel = ctx.cancellation().clone();
                    let started = tools
                        .background
                        .start(ctx.run_id(), &policy, request, async move { cancel.cancelled().await })
                        .map_err(feedback)?;
                    let lifetime = asked
                        .map_or(policy.background_lifetime, Duration::from_secs)
                        .min(policy.background_lifetime);
                    let text = format!(
                        "started {} (pid {}): {}\nIt is stopped after {} s or when this run ends. Read its output with command_status.",
                        started.id,
                        started.pid.map_or_else(|| "?".to_owned(), |p| p.to_string()),
                        started.label,
                        lifetime.as_secs()
                    );
                    Ok(tackle_core::ToolReturn::text(text).with_private_metadata(snapshot_metadata(&started)))
                }
            },
        )
        .requires_approval()
        .sequential()
        .routing_hint("Use only for commands that keep running in the background: servers, watchers, long builds.")
        .build()
    }

    /// `command_status`: a background command's state and new output, or the run's list.
    pub fn command_status(&self) -> Result<tackle_tools::FunctionTool, tackle_tools::ToolBuildError> {
        let tools = self.clone();
        tackle_tools::typed_tool(
            "command_status",
            "Show a background command's state and the output it printed since the last look, optionally waiting for it to end first (wait_seconds). Without an id, list this run's background commands.",
            move |ctx: tackle_tools::ToolContext, args: StatusArgs| {
                let tools = tools.clone();
                async move {
                    let Some(id) = args.id else {
                        let all = tools.background.list(ctx.run_id());
                        if all.is_empty() {
                            return Ok(tackle_core::ToolReturn::text("no background commands were started in this run"));
                        }
                        return Ok(tackle_core::ToolReturn::text(all.iter().map(state_line).collect::<Vec<_>>().join("\n")));
                    };
                    let wait = Duration::from_secs(args.wait_seconds.unwrap_or(0));
                    let snapshot = tools.background.status(ctx.run_id(), &id, wait).await.map_err(feedback)?;
                    Ok(tackle_core::ToolReturn::text(snapshot_report(&snapshot))
                        .with_private_metadata(snapshot_metadata(&snapshot)))
                }
            },
        )
        .returns_untrusted_content()
        .timeout(self.call_timeout())
        .routing_hint("Use to read the output or the state of a background command started earlier.")
        .build()
    }

    /// `write_stdin` (approval required): input for a background command.
    pub fn write_stdin(&self) -> Result<tackle_tools::FunctionTool, tackle_tools::ToolBuildError> {
        let tools = self.clone();
        tackle_tools::typed_tool(
            "write_stdin",
            "Write text to a background command's standard input, optionally closing it afterwards.",
            move |ctx: tackle_tools::ToolContext, args: StdinArgs| {
                let tools = tools.clone();
                async move {
                    tools
                        .background
                        .write_stdin(ctx.run_id(), &args.id, args.text.as_bytes(), args.close)
                        .await
                        .map_err(feedback)?;
                    let closed = if args.close { " and closed its input" } else { "" };
                    Ok(format!("wrote {} bytes to {}{closed}", args.text.len(), args.id))
                }
            },
        )
        .requires_approval()
        .sequential()
        .routing_hint("Use to type input into a background command started earlier.")
        .build()
    }

    /// `signal_command`: a signal to a background command's whole process group.
    pub fn signal_command(&self) -> Result<tackle_tools::FunctionTool, tackle_tools::ToolBuildError> {
        let tools = self.clone();
        tackle_tools::typed_tool(
            "signal_command",
            "Send a signal (INT, TERM, HUP, QUIT, KILL, USR1, USR2, STOP, CONT) to a background command and everything it started.",
            move |ctx: tackle_tools::ToolContext, args: SignalArgs| {
                let tools = tools.clone();
                async move {
                    tools.background.signal(ctx.run_id(), &args.id, &args.signal).map_err(feedback)?;
                    Ok(format!("sent {} to {}", args.signal.trim().to_ascii_uppercase(), args.id))
                }
            },
        )
        .sequential()
        .routing_hint("Use to send a signal (interrupt, hang-up) to a background command started earlier.")
        .build()
    }

    /// `stop_command`: ends a background command (TERM, then KILL after a grace period).
    pub fn stop_command(&self) -> Result<tackle_tools::FunctionTool, tackle_tools::ToolBuildError> {
        let tools = self.clone();
        tackle_tools::typed_tool(
            "stop_command",
            "Stop a background command and everything it started (TERM, then KILL after a grace period); returns how it ended and its last output.",
            move |ctx: tackle_tools::ToolContext, args: StopArgs| {
                let tools = tools.clone();
                async move {
                    let snapshot = tools.background.stop(ctx.run_id(), &args.id).await.map_err(feedback)?;
                    Ok(tackle_core::ToolReturn::text(snapshot_report(&snapshot))
                        .with_private_metadata(snapshot_metadata(&snapshot)))
                }
            },
        )
        .returns_untrusted_content()
        .sequential()
        .timeout(self.call_timeout())
        .routing_hint("Use to stop a background command started earlier.")
        .build()
    }
}

/// A refusal or a failure to start, as a correction the model can act on.
fn feedback(error: ShellError) -> tackle_core::ToolError {
    tackle_core::ToolError::feedback(error.to_string())
}

/// One line on a background command's state.
fn state_line(snapshot: &crate::Snapshot) -> String {
    use crate::EndReason;
    let pid = snapshot.pid.map_or_else(|| "?".to_owned(), |p| p.to_string());
    let seconds = snapshot.elapsed.as_secs_f64();
    let state = match &snapshot.exit {
        None => format!("running for {seconds:.1} s"),
        Some(exit) => {
            let how = match (exit.exit_code, exit.signal) {
                (Some(code), _) => format!("exit code {code}"),
                (None, Some(signal)) => format!("signal {signal}"),
                (None, None) => "no status".to_owned(),
            };
            let why = match exit.reason {
                EndReason::Stopped => "stopped on request",
                EndReason::Lifetime => "stopped when its time ran out",
                EndReason::RunEnded => "stopped when its run ended",
                _ => "ended",
            };
            format!("{why} ({how}) after {seconds:.1} s")
        }
    };
    format!("{} (pid {pid}) `{}`: {state}", snapshot.id, snapshot.label)
}

/// A background command's state, for the host and the trace.
fn snapshot_metadata(snapshot: &crate::Snapshot) -> serde_json::Value {
    let exit = snapshot.exit.as_ref();
    serde_json::json!({
        "id": snapshot.id,
        "pid": snapshot.pid,
        "command": snapshot.label,
        "running": exit.is_none(),
        "exit_code": exit.and_then(|e| e.exit_code),
        "signal": exit.and_then(|e| e.signal),
        "ended": exit.map(|e| format!("{:?}", e.reason).to_lowercase()),
        "stdout_bytes": snapshot.stdout.bytes,
        "stderr_bytes": snapshot.stderr.bytes,
    })
}

/// A background command's state and new output, as the model reads it.
fn snapshot_report(snapshot: &crate::Snapshot) -> String {
    let mut out = state_line(snapshot);
    out.push('\n');
    if snapshot.stdout.bytes == 0 && snapshot.stderr.bytes == 0 {
        out.push_str("no new output\n");
    }
    output_sections(&mut out, &snapshot.stdout, &snapshot.stderr, "new ");
    out
}

/// Appends the non-empty streams, each under a header with its size.
fn output_sections(out: &mut String, stdout: &Captured, stderr: &Captured, new: &str) {
    use std::fmt::Write as _;
    for (name, captured) in [("stdout", stdout), ("stderr", stderr)] {
        if captured.bytes == 0 {
            continue;
        }
        let cut = if captured.truncated() { ", only its start and end kept" } else { "" };
        let _ = writeln!(out, "--- {name} ({new}{} bytes{cut}) ---", captured.bytes);
        out.push_str(&captured.text());
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
}

/// A command's outcome as the model reads it.
fn report(outcome: &CommandOutcome) -> String {
    let ended = match (outcome.timed_out, outcome.exit_code, outcome.signal) {
        (true, _, _) => "timed out; it and everything it started were stopped".to_owned(),
        (false, Some(code), _) => format!("exit code {code}"),
        (false, None, Some(signal)) => format!("ended by signal {signal}"),
        (false, None, None) => "ended".to_owned(),
    };
    let mut out = format!("{ended} ({:.1} s)\n", outcome.duration.as_secs_f64());
    output_sections(&mut out, &outcome.stdout, &outcome.stderr, "");
    out
}
