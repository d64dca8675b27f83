//! Background commands: started by one call, then looked at, fed, signalled and stopped by
//! later ones. Each runs in its own process group like any command; what it prints is
//! spooled within the output bound until someone looks. It ends when it exits, when it is
//! stopped, when its lifetime passes, when the run that started it ends, or when the table
//! that holds it is dropped — whichever comes first — and whatever it started ends with it.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::sync::watch;

use crate::shell::{Captured, CommandRequest, ShellError, ShellPolicy, Spool, command, command_line};

/// The most bytes one write to a command's input may carry.
pub const STDIN_MAX_BYTES: usize = 64 * 1024;

/// How long a write to a command's input may wait for the command to read it.
const STDIN_WAIT: Duration = Duration::from_secs(5);

/// How many ended commands are remembered (for their last output) per table.
const KEEP_ENDED: usize = 16;

/// Why a background command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EndReason {
    /// It exited by itself (or a signal it was sent ended it).
    Exited,
    /// It was stopped on request.
    Stopped,
    /// Its lifetime passed.
    Lifetime,
    /// The run that started it ended.
    RunEnded,
}

/// How a background command ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exit {
    /// The exit code, when it exited.
    pub exit_code: Option<i32>,
    /// The signal that ended it, when one did.
    pub signal: Option<i32>,
    /// Why it ended.
    pub reason: EndReason,
    /// How long it ran.
    pub duration: Duration,
}

/// A look at one background command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// Its id (`bg1`, `bg2`, ...).
    pub id: String,
    /// What runs, as started.
    pub label: String,
    /// Its process id (also its process group's).
    pub pid: Option<u32>,
    /// How long it has run (or ran).
    pub elapsed: Duration,
    /// How it ended, when it has.
    pub exit: Option<Exit>,
    /// Standard output that came since the last look.
    pub stdout: Captured,
    /// Standard error that came since the last look.
    pub stderr: Captured,
}

struct Process {
    id: String,
    run_id: String,
    label: String,
    pid: Option<u32>,
    started: Instant,
    stdin: tokio::sync::Mutex<Option<tokio::process::ChildStdin>>,
    stdout: Arc<Mutex<Spool>>,
    stderr: Arc<Mutex<Spool>>,
    exit: watch::Receiver<Option<Exit>>,
    stop: watch::Sender<bool>,
}

impl Process {
    fn running(&self) -> bool {
        self.exit.borrow().is_none()
    }

    fn snapshot(&self, take_output: bool) -> Snapshot {
        let exit = self.exit.borrow().clone();
        let (stdout, stderr) = if take_output {
            (lock(&self.stdout).take(), lock(&self.stderr).take())
        } else {
            (Captured::default(), Captured::default())
        };
        Snapshot {
            id: self.id.clone(),
            label: self.label.clone(),
            pid: self.pid,
            elapsed: exit.as_ref().map_or_else(|| self.started.elapsed(), |e| e.duration),
            exit,
            stdout,
            stderr,
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[derive(Default)]
struct Table {
    processes: Mutex<Vec<Arc<Process>>>,
    next: AtomicU64,
}

impl Drop for Table {
    /// The host's tools are gone: nothing they started may outlive them.
    fn drop(&mut self) {
        for process in lock(&self.processes).iter().filter(|p| p.running()) {
            #[cfg(unix)]
            if let Some(pid) = process.pid {
                crate::shell::signal_group(pid, rustix::process::Signal::KILL);
            }
        }
    }
}

/// The background commands of a directory, under one policy. Clones share the table; the
/// commands are killed when the last clone is dropped.
#[derive(Clone)]
pub struct Background {
    root: PathBuf,
    policy: Arc<ShellPolicy>,
    table: Arc<Table>,
}

impl std::fmt::Debug for Background {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let running = lock(&self.table.processes).iter().filter(|p| p.running()).count();
        f.debug_struct("Background").field("root", &self.root).field("running", &running).finish()
    }
}

impl Background {
    /// Background commands in `root` under `policy`.
    pub fn new(root: &Path, policy: ShellPolicy) -> Self {
        Background { root: root.to_path_buf(), policy: Arc::new(policy), table: Arc::default() }
    }

    /// Starts `request` for run `run_id` under `policy` (this table's, or one narrowed from
    /// it). The command ends when `run_ended` completes, unless it ended before; its
    /// `timeout` is its lifetime, capped by the policy's.
    pub fn start(
        &self,
        run_id: &str,
        policy: &ShellPolicy,
        request: CommandRequest,
        run_ended: impl Future<Output = ()> + Send + 'static,
    ) -> Result<Snapshot, ShellError> {
        let line = command_line(policy, &request)?;
        let mut processes = lock(&self.table.processes);
        let running: Vec<&str> = processes.iter().filter(|p| p.running()).map(|p| p.id.as_str()).collect();
        if running.len() >= policy.max_background {
            return Err(ShellError::Refused(format!(
                "{} background commands are running ({}), the most allowed at once; stop one first",
                running.len(),
                running.join(", ")
            )));
        }
        let mut command = command(&self.root, policy, &line, &request.env);
        command.stdin(Stdio::piped());
        let started = Instant::now();
        let mut child = command
            .spawn()
            .map_err(|e| ShellError::Spawn { program: line.0.clone(), message: e.to_string() })?;
        let pid = child.id();
        let stdout = Arc::new(Mutex::new(Spool::new(policy.output_limit)));
        let stderr = Arc::new(Mutex::new(Spool::new(policy.output_limit)));
        let drains = [spool(child.stdout.take(), stdout.clone()), spool(child.stderr.take(), stderr.clone())];
        let (exit_tx, exit_rx) = watch::channel(None);
        let (stop_tx, stop_rx) = watch::channel(false);
        let lifetime = request.timeout.unwrap_or(policy.background_lifetime).min(policy.background_lifetime);
        let id = format!("bg{}", self.table.next.fetch_add(1, Ordering::Relaxed) + 1);
        let process = Arc::new(Process {
            id,
            run_id: run_id.to_owned(),
            label: label(&request, &line),
            pid,
            started,
            stdin: tokio::sync::Mutex::new(child.stdin.take()),
            stdout,
            stderr,
            exit: exit_rx,
            stop: stop_tx,
        });
        let grace = policy.grace;
        tokio::spawn(async move {
            let (status, reason) = watch_over(&mut child, pid, grace, lifetime, stop_rx, run_ended).await;
            // What it left running in its group ends with it, and its output is read to the
            // end (a bounded wait: something that left the group may hold a pipe open).
            #[cfg(unix)]
            if let Some(pid) = pid {
                crate::shell::signal_group(pid, rustix::process::Signal::KILL);
            }
            for drain in drains {
                let _ = tokio::time::timeout(Duration::from_secs(1), drain).await;
            }
            #[cfg(unix)]
            let signal = status.and_then(|s| std::os::unix::process::ExitStatusExt::signal(&s));
            #[cfg(not(unix))]
            let signal = None;
            let _ = exit_tx.send(Some(Exit {
                exit_code: status.and_then(|s| s.code()),
                signal,
                reason,
                duration: started.elapsed(),
            }));
        });
        // Ended commands are remembered for their last output, a bounded number of them.
        let mut ended = processes.iter().filter(|p| !p.running()).count();
        processes.retain(|p| {
            let drop = ended > KEEP_ENDED && !p.running();
            ended -= usize::from(drop);
            !drop
        });
        processes.push(process.clone());
        Ok(process.snapshot(false))
    }

    fn find(&self, run_id: &str, id: &str) -> Result<Arc<Process>, ShellError> {
        let processes = lock(&self.table.processes);
        let mine: Vec<&Arc<Process>> = processes.iter().filter(|p| p.run_id == run_id).collect();
        match mine.iter().find(|p| p.id == id) {
            Some(p) => Ok(Arc::clone(p)),
            None => {
                let known: Vec<&str> = mine.iter().map(|p| p.id.as_str()).collect();
                Err(ShellError::NotFound(if known.is_empty() {
                    format!("no background command {id:?}: none was started in this run")
                } else {
                    format!("no background command {id:?}; this run's are {}", known.join(", "))
                }))
            }
        }
    }

    /// The commands run `run_id` started, without their output.
    pub fn list(&self, run_id: &str) -> Vec<Snapshot> {
        lock(&self.table.processes).iter().filter(|p| p.run_id == run_id).map(|p| p.snapshot(false)).collect()
    }

    /// Command `id`'s state and the output that came since the last look, after waiting up
    /// to `wait` (at most the policy's longest deadline) for it to end.
    pub async fn status(&self, run_id: &str, id: &str, wait: Duration) -> Result<Snapshot, ShellError> {
        let process = self.find(run_id, id)?;
        let mut exit = process.exit.clone();
        let wait = wait.min(self.policy.max_timeout);
        let _ = tokio::time::timeout(wait, exit.wait_for(Option::is_some)).await;
        Ok(process.snapshot(true))
    }

    /// Writes `input` to command `id`'s standard input, closing it afterwards when `close`.
    pub async fn write_stdin(
        &self,
        run_id: &str,
        id: &str,
        input: &[u8],
        close: bool,
    ) -> Result<(), ShellError> {
        let process = self.find(run_id, id)?;
        if input.len() > STDIN_MAX_BYTES {
            return Err(ShellError::Refused(format!(
                "{} bytes is more than one write may carry ({STDIN_MAX_BYTES})",
                input.len()
            )));
        }
        if !process.running() {
            return Err(ShellError::Refused(format!("{id} has ended; its input is closed")));
        }
        let mut stdin = process.stdin.lock().await;
        let Some(pipe) = stdin.as_mut() else {
            return Err(ShellError::Refused(format!("{id}'s input was closed")));
        };
        let write = async {
            pipe.write_all(input).await?;
            pipe.flush().await
        };
        match tokio::time::timeout(STDIN_WAIT, write).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(ShellError::Refused(format!("{id} does not take input: {e}"))),
            Err(_) => {
                return Err(ShellError::Refused(format!(
                    "{id} did not read its input within {} s",
                    STDIN_WAIT.as_secs()
                )));
            }
        }
        if close {
            *stdin = None;
        }
        Ok(())
    }

    /// Sends the signal named `name` (`INT`, `TERM`, `HUP`, `QUIT`, `KILL`, `USR1`, `USR2`,
    /// `STOP`, `CONT`, with or without `SIG`) to command `id`'s whole process group.
    pub fn signal(&self, run_id: &str, id: &str, name: &str) -> Result<(), ShellError> {
        let process = self.find(run_id, id)?;
        let signal = signal_named(name)?;
        if !process.running() {
            return Err(ShellError::Refused(format!("{id} has ended")));
        }
        #[cfg(unix)]
        if let Some(pid) = process.pid {
            crate::shell::signal_group(pid, signal);
        }
        #[cfg(not(unix))]
        let _ = signal;
        Ok(())
    }

    /// Stops command `id` (`TERM` to its group, `KILL` after the grace period) and returns
    /// its end and its last output.
    pub async fn stop(&self, run_id: &str, id: &str) -> Result<Snapshot, ShellError> {
        let process = self.find(run_id, id)?;
        let _ = process.stop.send(true);
        let mut exit = process.exit.clone();
        let _ = exit.wait_for(Option::is_some).await;
        Ok(process.snapshot(true))
    }

    /// Stops every command still running (each `TERM`, then `KILL` after the grace period):
    /// for a host whose run is over.
    pub async fn stop_all(&self) {
        let running: Vec<Arc<Process>> =
            lock(&self.table.processes).iter().filter(|p| p.running()).cloned().collect();
        for process in &running {
            let _ = process.stop.send(true);
        }
        for process in running {
            let mut exit = process.exit.clone();
            let _ = exit.wait_for(Option::is_some).await;
        }
    }
}

/// Spools `reader` into `spool` until it ends.
fn spool(
    reader: Option<impl AsyncRead + Unpin + Send + 'static>,
    spool: Arc<Mutex<Spool>>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let Some(mut reader) = reader else { return };
        let mut buf = vec![0u8; 8192];
        loop {
            match reader.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => lock(&spool).push(&buf[..n]),
            }
        }
    })
}

/// Waits for the command to exit, ending it first when it is asked to stop, when its
/// lifetime passes or when its run ends.
async fn watch_over(
    child: &mut tokio::process::Child,
    pid: Option<u32>,
    grace: Duration,
    lifetime: Duration,
    mut stop: watch::Receiver<bool>,
    run_ended: impl Future<Output = ()>,
) -> (Option<ExitStatus>, EndReason) {
    let reason = tokio::select! {
        status = child.wait() => return (status.ok(), EndReason::Exited),
        _ = stop.wait_for(|stop| *stop) => EndReason::Stopped,
        () = tokio::time::sleep(lifetime) => EndReason::Lifetime,
        () = run_ended => EndReason::RunEnded,
        // (The table was dropped when the sender is gone.)
    };
    #[cfg(unix)]
    if let Some(pid) = pid {
        crate::shell::signal_group(pid, rustix::process::Signal::TERM);
        if let Ok(status) = tokio::time::timeout(grace, child.wait()).await {
            return (status.ok(), reason);
        }
        crate::shell::signal_group(pid, rustix::process::Signal::KILL);
    }
    #[cfg(not(unix))]
    let _ = (pid, grace, child.start_kill());
    (child.wait().await.ok(), reason)
}

#[cfg(unix)]
fn signal_named(name: &str) -> Result<rustix::process::Signal, ShellError> {
    use rustix::process::Signal;
    let upper = name.trim().to_ascii_uppercase();
    Ok(match upper.strip_prefix("SIG").unwrap_or(&upper) {
        "INT" => Signal::INT,
        "TERM" => Signal::TERM,
        "HUP" => Signal::HUP,
        "QUIT" => Signal::QUIT,
        "KILL" => Signal::KILL,
        "USR1" => Signal::USR1,
        "USR2" => Signal::USR2,
        "STOP" => Signal::STOP,
        "CONT" => Signal::CONT,
        _ => {
            return Err(ShellError::Refused(format!(
                "no signal {name:?}; send one of INT, TERM, HUP, QUIT, KILL, USR1, USR2, STOP, CONT"
            )));
        }
    })
}

#[cfg(not(unix))]
fn signal_named(name: &str) -> Result<(), ShellError> {
    Err(ShellError::Refused(format!("signals ({name}) are not supported on this system")))
}

/// What a command runs, for people: the script, or the program and its arguments, cut short.
fn label(request: &CommandRequest, (program, args): &(String, Vec<String>)) -> String {
    let full = match &request.script {
        Some(script) => script.clone(),
        None => std::iter::once(program).chain(args).cloned().collect::<Vec<_>>().join(" "),
    };
    let line = full.lines().next().unwrap_or("");
    let mut short: String = line.chars().take(80).collect();
    if short.len() < full.len() {
        short.push('…');
    }
    short
}
