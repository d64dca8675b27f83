//! Commands: output, exit codes, deadlines that end the whole process group, bounded
//! capture, the environment allowlist and the program allowlist.
#![cfg(unix)]
#![allow(clippy::unwrap_used, missing_docs)]

use std::time::Duration;

use tackle_env::{CommandRequest, ShellError, ShellPolicy, run_command};

fn policy() -> ShellPolicy {
    ShellPolicy { grace: Duration::from_millis(200), ..ShellPolicy::default() }
}

fn script(text: &str) -> CommandRequest {
    CommandRequest { script: Some(text.into()), ..CommandRequest::default() }
}

fn program(name: &str, args: &[&str]) -> CommandRequest {
    CommandRequest {
        program: Some((name.into(), args.iter().map(|a| (*a).to_owned()).collect())),
        ..CommandRequest::default()
    }
}

/// Whether process `pid` is still running (a zombie waiting to be reaped is not).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

#[tokio::test]
async fn output_and_exit_codes_come_back() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_command(dir.path(), &policy(), program("printf", &["%s-%s", "a b", "c"])).await.unwrap();
    assert_eq!((out.exit_code, out.stdout.text().as_str(), out.timed_out), (Some(0), "a b-c", false));
    let out = run_command(dir.path(), &policy(), script("echo oops >&2; exit 3")).await.unwrap();
    assert_eq!((out.exit_code, out.stderr.text().as_str()), (Some(3), "oops\n"));
    // It runs in the root.
    let out = run_command(dir.path(), &policy(), program("pwd", &[])).await.unwrap();
    assert_eq!(
        std::fs::canonicalize(out.stdout.text().trim()).unwrap(),
        std::fs::canonicalize(dir.path()).unwrap()
    );
    let missing = run_command(dir.path(), &policy(), program("no-such-program-tackle", &[])).await;
    assert!(matches!(missing, Err(ShellError::Spawn { .. })), "{missing:?}");
}

#[tokio::test]
async fn a_deadline_ends_the_whole_group() {
    let dir = tempfile::tempdir().unwrap();
    let request = CommandRequest {
        timeout: Some(Duration::from_millis(500)),
        ..script("sleep 30 & echo $!; (sleep 30; echo never) & echo $!; sleep 30")
    };
    let out = run_command(dir.path(), &policy(), request).await.unwrap();
    assert!(out.timed_out);
    assert_eq!(out.exit_code, None);
    assert!(out.duration < Duration::from_secs(5), "{:?}", out.duration);
    let pids: Vec<u32> = out.stdout.text().lines().filter_map(|l| l.trim().parse().ok()).collect();
    assert_eq!(pids.len(), 2, "{:?}", out.stdout.text());
    // The group had TERM and then KILL; give the kernel a moment to finish them.
    tokio::time::sleep(Duration::from_millis(200)).await;
    for pid in pids {
        assert!(!alive(pid), "process {pid} survived");
    }
}

#[tokio::test]
async fn what_a_finished_command_leaves_running_is_ended_too() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_command(dir.path(), &policy(), script("sleep 30 & echo $!")).await.unwrap();
    assert_eq!(out.exit_code, Some(0));
    assert!(out.duration < Duration::from_secs(5), "{:?}", out.duration);
    let pid: u32 = out.stdout.text().trim().parse().unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!alive(pid), "process {pid} survived");
}

#[tokio::test]
async fn output_is_kept_to_its_bound_head_and_tail() {
    let dir = tempfile::tempdir().unwrap();
    let policy = ShellPolicy { output_limit: 1000, ..policy() };
    let out =
        run_command(dir.path(), &policy, script("echo START; yes middle | head -c 1000000; echo; echo END"))
            .await
            .unwrap();
    assert_eq!(out.stdout.bytes, 6 + 1_000_000 + 1 + 4);
    assert!(out.stdout.truncated());
    assert_eq!((out.stdout.head.len(), out.stdout.tail.len()), (500, 500));
    let text = out.stdout.text();
    assert!(text.starts_with("START\n") && text.ends_with("END\n"), "{}", &text[text.len() - 20..]);
    assert!(text.contains("bytes not kept"));
}

#[tokio::test]
async fn only_allowlisted_variables_reach_the_command() {
    let dir = tempfile::tempdir().unwrap();
    // Cargo sets this for the test process; it is not on the allowlist.
    assert!(std::env::var("CARGO_MANIFEST_DIR").is_ok());
    let out = run_command(dir.path(), &policy(), script("echo ${CARGO_MANIFEST_DIR:-unset} ${PATH:+path}"))
        .await
        .unwrap();
    assert_eq!(out.stdout.text(), "unset path\n");
    let request = CommandRequest { env: vec![("GREETING".into(), "hi".into())], ..script("echo $GREETING") };
    assert_eq!(run_command(dir.path(), &policy(), request).await.unwrap().stdout.text(), "hi\n");
}

#[tokio::test]
async fn a_program_allowlist_refuses_everything_else() {
    let dir = tempfile::tempdir().unwrap();
    let strict = ShellPolicy { allowed_programs: Some(vec!["echo".into()]), ..policy() };
    assert_eq!(
        run_command(dir.path(), &strict, program("echo", &["ok"])).await.unwrap().stdout.text(),
        "ok\n"
    );
    for refused in [
        program("rm", &["-rf", "x"]),
        script("echo hi"),
        CommandRequest { env: vec![("LD_PRELOAD".into(), "x.so".into())], ..program("echo", &["x"]) },
        CommandRequest::default(),
    ] {
        assert!(matches!(run_command(dir.path(), &strict, refused).await, Err(ShellError::Refused(_))));
    }
    let no_scripts = ShellPolicy { allow_scripts: false, ..policy() };
    assert!(matches!(
        run_command(dir.path(), &no_scripts, script("true")).await,
        Err(ShellError::Refused(_))
    ));
}

#[tokio::test]
async fn a_cancelled_call_takes_its_group_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("pids");
    let request = script(&format!("sleep 30 & echo $! > {}; sleep 30", marker.display()));
    let policy = policy();
    let call = run_command(dir.path(), &policy, request);
    // The call is dropped half a second in, as a stopped run drops it.
    assert!(tokio::time::timeout(Duration::from_millis(500), call).await.is_err());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let pid: u32 = std::fs::read_to_string(&marker).unwrap().trim().parse().unwrap();
    assert!(!alive(pid), "process {pid} survived");
}

#[tokio::test]
async fn the_tool_reports_exit_output_and_needs_approval() {
    use tackle_tools::{DynTool, RunContext, ToolContext};
    let dir = tempfile::tempdir().unwrap();
    let env = tackle_env::LocalDir::new(dir.path()).unwrap();
    let tool = tackle_env::ShellTools::new(&env, policy()).run_command().unwrap();
    assert_eq!(tool.definition().kind, tackle_core::ToolKind::ApprovalRequired);
    let call = |args: serde_json::Value| {
        let tool = tool.clone();
        async move {
            let serde_json::Value::Object(args) = args else { panic!("an object") };
            let ctx = ToolContext::detached(std::sync::Arc::new(RunContext::new("r")), "c1", "run_command");
            DynTool::call(&tool, ctx, args).await.map(|r| r.content.model_text().into_owned())
        }
    };
    let out = call(serde_json::json!({"program": "sh", "args": ["-c", "echo hi; echo no >&2; exit 2"]}))
        .await
        .unwrap();
    assert!(out.starts_with("exit code 2 ("), "{out}");
    assert!(out.ends_with("--- stdout (3 bytes) ---\nhi\n--- stderr (3 bytes) ---\nno\n"), "{out}");
    let late = call(serde_json::json!({"script": "sleep 5", "timeout_seconds": 0})).await.unwrap();
    assert!(late.starts_with("timed out"), "{late}");
    let both = call(serde_json::json!({"program": "true", "script": "true"})).await;
    assert!(matches!(both, Err(tackle_core::ToolError::Feedback(_))), "{both:?}");
}

mod background {
    use std::time::Duration;

    use tackle_env::{Background, CommandRequest, EndReason, ShellError, ShellPolicy};

    use super::{alive, policy, program, script};

    fn never() -> std::future::Pending<()> {
        std::future::pending()
    }

    /// Waits until `path` holds whitespace-separated pids, and returns them.
    async fn pids(path: &std::path::Path, count: usize) -> Vec<u32> {
        for _ in 0..200 {
            let pids: Vec<u32> = std::fs::read_to_string(path)
                .unwrap_or_default()
                .split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect();
            if pids.len() >= count {
                return pids;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("{} never held {count} pids", path.display());
    }

    #[tokio::test]
    async fn output_comes_in_pieces_and_input_reaches_the_command() {
        let dir = tempfile::tempdir().unwrap();
        let bg = Background::new(dir.path(), policy());
        let started = bg
            .start(
                "r",
                &policy(),
                script("echo ready; while read line; do echo \"got $line\"; done; echo bye >&2"),
                never(),
            )
            .unwrap();
        assert_eq!((started.id.as_str(), started.exit.is_none()), ("bg1", true));
        let first = bg.status("r", "bg1", Duration::from_millis(300)).await.unwrap();
        assert_eq!((first.stdout.text().as_str(), first.exit.as_ref()), ("ready\n", None));
        bg.write_stdin("r", "bg1", b"one\n", false).await.unwrap();
        bg.write_stdin("r", "bg1", b"two\n", true).await.unwrap();
        let last = bg.status("r", "bg1", Duration::from_secs(5)).await.unwrap();
        // Only what came since the last look.
        assert_eq!(last.stdout.text(), "got one\ngot two\n");
        assert_eq!(last.stderr.text(), "bye\n");
        let exit = last.exit.unwrap();
        assert_eq!((exit.exit_code, exit.reason), (Some(0), EndReason::Exited));
        let again = bg.status("r", "bg1", Duration::ZERO).await.unwrap();
        assert_eq!((again.stdout.bytes, again.stderr.bytes), (0, 0));
        let closed = bg.write_stdin("r", "bg1", b"more\n", false).await;
        assert!(matches!(closed, Err(ShellError::Refused(_))), "{closed:?}");
    }

    #[tokio::test]
    async fn stopping_ends_the_whole_group() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("pids");
        let bg = Background::new(dir.path(), policy());
        let text = format!(
            "trap '' TERM; sleep 30 & echo $! > {m}; (trap '' TERM; sleep 30) & echo $! >> {m}; echo $$ >> {m}; wait",
            m = marker.display()
        );
        bg.start("r", &policy(), script(&text), never()).unwrap();
        let pids = pids(&marker, 3).await;
        let stopped = bg.stop("r", "bg1").await.unwrap();
        let exit = stopped.exit.unwrap();
        // It ignored TERM, so KILL ended it after the grace period.
        assert_eq!((exit.reason, exit.signal), (EndReason::Stopped, Some(9)));
        tokio::time::sleep(Duration::from_millis(100)).await;
        for pid in pids {
            assert!(!alive(pid), "process {pid} survived");
        }
    }

    #[tokio::test]
    async fn the_end_of_the_run_and_the_end_of_the_table_end_commands() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("pids");
        let bg = Background::new(dir.path(), policy());
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let text = format!("sleep 30 & echo $! > {}; wait", marker.display());
        bg.start("r", &policy(), script(&text), async move {
            let _ = rx.await;
        })
        .unwrap();
        let first = pids(&marker, 1).await;
        drop(tx);
        let ended = bg.status("r", "bg1", Duration::from_secs(5)).await.unwrap();
        assert_eq!(ended.exit.map(|e| e.reason), Some(EndReason::RunEnded));
        // The group was killed; the kernel may take a moment to remove the process.
        for _ in 0..100 {
            if !alive(first[0]) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(!alive(first[0]), "process {} outlived the run", first[0]);

        std::fs::remove_file(&marker).unwrap();
        bg.start("r", &policy(), script(&text), never()).unwrap();
        let second = pids(&marker, 1).await;
        drop(bg);
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(!alive(second[0]), "process {} outlived the table", second[0]);
    }

    /// A host that shuts its runtime down first (as a process does on its way out) drops
    /// the watching tasks unrun; dropping the table still ends every group.
    #[test]
    fn a_table_dropped_after_its_runtime_still_ends_its_groups() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("pids");
        let bg = Background::new(dir.path(), policy());
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let text = format!("sleep 30 & echo $! > {}; wait", marker.display());
        let sleeper = runtime.block_on(async {
            bg.start("r", &policy(), script(&text), never()).unwrap();
            pids(&marker, 1).await[0]
        });
        drop(runtime);
        std::thread::sleep(Duration::from_millis(100));
        assert!(alive(sleeper), "the runtime alone does not reach the group");
        drop(bg);
        std::thread::sleep(Duration::from_millis(200));
        assert!(!alive(sleeper), "process {sleeper} outlived the table");
    }

    #[tokio::test]
    async fn lifetime_cap_signals_and_lookups() {
        let dir = tempfile::tempdir().unwrap();
        let policy = ShellPolicy { max_background: 2, ..policy() };
        let bg = Background::new(dir.path(), policy.clone());
        let short = CommandRequest { timeout: Some(Duration::from_millis(300)), ..program("sleep", &["30"]) };
        bg.start("r", &policy, short, never()).unwrap();
        bg.start("r", &policy, script("trap 'echo interrupted; exit 4' INT; sleep 30 & wait"), never())
            .unwrap();
        let full = bg.start("r", &policy, program("sleep", &["30"]), never());
        assert!(matches!(&full, Err(ShellError::Refused(m)) if m.contains("bg1, bg2")), "{full:?}");
        let timed = bg.status("r", "bg1", Duration::from_secs(5)).await.unwrap();
        assert_eq!(timed.exit.map(|e| e.reason), Some(EndReason::Lifetime));
        // A slot is free again.
        bg.start("r", &policy, program("true", &[]), never()).unwrap();

        tokio::time::sleep(Duration::from_millis(100)).await;
        bg.signal("r", "bg2", "sigint").unwrap();
        let interrupted = bg.status("r", "bg2", Duration::from_secs(5)).await.unwrap();
        assert_eq!(interrupted.stdout.text(), "interrupted\n");
        assert_eq!(interrupted.exit.map(|e| (e.exit_code, e.reason)), Some((Some(4), EndReason::Exited)));
        let bad = bg.signal("r", "bg2", "SEGV");
        assert!(matches!(bad, Err(ShellError::Refused(_))), "{bad:?}");
        // Another run sees none of them; a wrong id names the right ones.
        let other = bg.status("other", "bg1", Duration::ZERO).await;
        assert!(
            matches!(&other, Err(ShellError::NotFound(m)) if m.contains("none was started")),
            "{other:?}"
        );
        let wrong = bg.status("r", "bg9", Duration::ZERO).await;
        assert!(matches!(&wrong, Err(ShellError::NotFound(m)) if m.contains("bg1, bg2, bg3")), "{wrong:?}");
        assert_eq!(bg.list("r").len(), 3);
        // The allowlist holds for background commands too.
        let listed = ShellPolicy { allowed_programs: Some(vec!["cargo".into()]), ..policy };
        let refused = bg.start("r", &listed, program("sleep", &["1"]), never());
        assert!(matches!(refused, Err(ShellError::Refused(_))), "{refused:?}");
    }

    #[tokio::test]
    async fn the_tools_start_look_feed_and_stop() {
        use tackle_tools::{DynTool, RunContext, ToolContext};
        let dir = tempfile::tempdir().unwrap();
        let env = tackle_env::LocalDir::new(dir.path()).unwrap();
        let tools = tackle_env::ShellTools::new(&env, policy()).all().unwrap();
        let kinds: Vec<(String, tackle_core::ToolKind)> =
            tools.iter().map(|t| (t.definition().name.clone(), t.definition().kind)).collect();
        for (name, kind) in &kinds {
            let gated = ["run_command", "start_command", "write_stdin"].contains(&name.as_str());
            assert_eq!(*kind == tackle_core::ToolKind::ApprovalRequired, gated, "{name}");
        }
        // The executor's deadline leaves room for the longest wait the tools allow.
        for tool in tools.iter().filter(|t| {
            ["run_command", "command_status", "stop_command"].contains(&t.definition().name.as_str())
        }) {
            let timeout = tool.definition().timeout.unwrap_or_default();
            assert!(
                timeout > policy().max_timeout + policy().grace,
                "{}: {timeout:?}",
                tool.definition().name
            );
        }
        let run = std::sync::Arc::new(RunContext::new("r"));
        let call = |name: &str, args: serde_json::Value| {
            let tool = tools.iter().find(|t| t.definition().name == name).unwrap().clone();
            let ctx = ToolContext::detached(run.clone(), "c1", name);
            async move {
                let serde_json::Value::Object(args) = args else { panic!("an object") };
                DynTool::call(&tool, ctx, args).await.map(|r| r.content.model_text().into_owned())
            }
        };
        let started = call("start_command", serde_json::json!({"program": "cat"})).await.unwrap();
        assert!(started.starts_with("started bg1 (pid "), "{started}");
        let none = call("command_status", serde_json::json!({"id": "bg1"})).await.unwrap();
        assert!(none.contains("`cat`: running for") && none.ends_with("no new output\n"), "{none}");
        call("write_stdin", serde_json::json!({"id": "bg1", "text": "hello\n", "close": true}))
            .await
            .unwrap();
        let done = call("command_status", serde_json::json!({"id": "bg1", "wait_seconds": 5})).await.unwrap();
        assert!(done.contains("ended (exit code 0)"), "{done}");
        assert!(done.ends_with("--- stdout (new 6 bytes) ---\nhello\n"), "{done}");
        call("start_command", serde_json::json!({"program": "sleep", "args": ["30"]})).await.unwrap();
        let listed = call("command_status", serde_json::json!({})).await.unwrap();
        assert_eq!(listed.lines().count(), 2, "{listed}");
        let stopped = call("stop_command", serde_json::json!({"id": "bg2"})).await.unwrap();
        assert!(stopped.contains("stopped on request (signal 15)"), "{stopped}");
        let unknown = call("signal_command", serde_json::json!({"id": "bg7", "signal": "INT"})).await;
        assert!(matches!(unknown, Err(tackle_core::ToolError::Feedback(_))), "{unknown:?}");
        // The run's end stops what is left.
        call("start_command", serde_json::json!({"program": "sleep", "args": ["30"]})).await.unwrap();
        run.cancel.cancel();
        let ended =
            call("command_status", serde_json::json!({"id": "bg3", "wait_seconds": 5})).await.unwrap();
        assert!(ended.contains("stopped when its run ended"), "{ended}");
    }
}
