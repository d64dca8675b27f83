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
