//! Sessions: saved runs, continued conversations, and approvals from another process.

use serde_json::json;
use wiremock::MockServer;

use super::{Wire, isolated, output, requests, searxng, settings, tackle, tackle_process};

/// The run id from a "run ID waits for …" line.
fn waiting_id(stderr: &str) -> String {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("run ") && l.contains(" waits for "))
        .unwrap_or_else(|| panic!("{stderr}"));
    line.split_whitespace().nth(1).unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_suspended_run_is_approved_from_a_second_process() {
    for wire in [Wire::Responses, Wire::Chat] {
        let server = MockServer::start().await;
        searxng(
            &server,
            json!([{"url": "http://127.0.0.1:9/a", "title": "A", "content": "Snippet about rivers."}]),
        )
        .await;
        wire.mount(
            &server,
            vec![
                wire.turn("", &[("call_s", "web_search", json!({"query": "rivers"}))]),
                wire.turn("Found it.", &[]),
            ],
        )
        .await;
        let dir = tempfile::tempdir().unwrap();
        let extra = format!("[tools.web_search]\nsearxng_url = \"{}\"\napproval = true", server.uri());
        let config = settings(dir.path(), wire, &server, &extra);

        let mut command = tackle(&config);
        command.args(["run", "Search for rivers."]);
        let (code, stdout, stderr) = output(command).await;
        assert_eq!(code, 3, "{wire:?}: {stderr}");
        assert_eq!(stdout, "");
        insta::with_settings!({filters => vec![(r"\b[a-z2-9]{10}\b", "[ID]")]}, {
            insta::allow_duplicates! {
                insta::assert_snapshot!(stderr, @r#"
                run [ID] waits for approval of 1 call(s):
                  call_s web_search(query: "rivers")
                  hint: `tackle approve [ID]` runs them; `--deny REASON` refuses; `--edit JSON` runs one with other arguments
                "#);
            }
        });
        let id = waiting_id(&stderr);
        assert_eq!(requests(&server, wire).await.len(), 1, "nothing runs before the approval");

        // Continuing is refused while the run waits.
        let mut command = tackle(&config);
        command.args(["run", "--continue", &id, "more"]);
        let (code, _, stderr) = output(command).await;
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains("waits for a decision"), "{stderr}");
        assert!(stderr.contains(&format!("tackle approve {id}")), "{stderr}");

        // A new process approves, and the run goes on where it stopped.
        let mut command = tackle(&config);
        command.args(["approve", &id]);
        let (code, stdout, stderr) = output(command).await;
        assert_eq!(code, 0, "{wire:?}: {stderr}");
        assert_eq!(stdout, "Found it.\n");
        assert!(stderr.contains("✓ web_search(query: \"rivers\") ok"), "{stderr}");
        let sent = requests(&server, wire).await;
        assert_eq!(sent.len(), 2);
        assert!(sent[1].to_string().contains("Snippet about rivers."), "{}", sent[1]);

        // Approving again is a mistake.
        let mut command = tackle(&config);
        command.args(["approve", &id]);
        let (code, _, stderr) = output(command).await;
        assert_eq!(code, 2);
        assert!(stderr.contains("does not wait for approval"), "{stderr}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_denied_call_tells_the_model_why_and_edits_change_arguments() {
    let wire = Wire::Anthropic;
    let server = MockServer::start().await;
    searxng(&server, json!([])).await;
    wire.mount(
        &server,
        vec![
            wire.turn("", &[("toolu_1", "web_search", json!({"query": "secret plans"}))]),
            wire.turn("Understood.", &[]),
            wire.turn("", &[("toolu_2", "web_search", json!({"query": "typo"}))]),
            wire.turn("Searched.", &[]),
        ],
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let extra = format!("[tools.web_search]\nsearxng_url = \"{}\"\napproval = true", server.uri());
    let config = settings(dir.path(), wire, &server, &extra);

    let mut command = tackle(&config);
    command.args(["run", "Look this up."]);
    let (code, _, stderr) = output(command).await;
    assert_eq!(code, 3, "{stderr}");
    let id = waiting_id(&stderr);
    let mut command = tackle(&config);
    command.args(["approve", &id, "--deny", "not on this machine"]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "Understood.\n");
    let second = requests(&server, wire).await[1].to_string();
    assert!(second.contains("not on this machine"), "{second}");

    // The same session goes on; the next call is approved with other arguments.
    let mut command = tackle(&config);
    command.args(["run", "--continue", &id, "Try again."]);
    let (code, _, stderr) = output(command).await;
    assert_eq!(code, 3, "{stderr}");
    let mut command = tackle(&config);
    command.args(["approve", &id, "--edit", "{\"query\": \"fixed\"}"]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "Searched.\n");
    assert!(stderr.contains("web_search(query: \"fixed\")"), "{stderr}");
    let sent = requests(&server, wire).await;
    assert_eq!(sent.len(), 4);
    let third = sent[2].to_string();
    assert!(third.contains("Try again.") && third.contains("Understood."), "history goes along: {third}");
}

#[tokio::test(flavor = "multi_thread")]
async fn sessions_are_listed_shown_and_continued() {
    let wire = Wire::Chat;
    let server = MockServer::start().await;
    wire.mount(&server, vec![wire.turn("Paris.", &[]), wire.turn("About 2.1 million.", &[])]).await;
    let dir = tempfile::tempdir().unwrap();
    let config = settings(dir.path(), wire, &server, "");

    let mut command = tackle(&config);
    command.args(["run", "Capital of France?"]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!((code, stdout.as_str()), (0, "Paris.\n"), "{stderr}");

    let mut command = tackle(&config);
    command.args(["sessions", "list", "--json"]);
    let (code, stdout, _) = output(command).await;
    assert_eq!(code, 0);
    let rows: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 1, "{stdout}");
    assert_eq!(rows[0]["title"], "Capital of France?");
    assert_eq!(rows[0]["status"], "answered");
    assert_eq!(rows[0]["provider"], "openai");
    let id = rows[0]["id"].as_str().unwrap().to_owned();

    let mut command = tackle(&config);
    command.args(["run", "--continue", &id, "And its population?"]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!((code, stdout.as_str()), (0, "About 2.1 million.\n"), "{stderr}");
    let sent = requests(&server, wire).await;
    let messages = sent[1]["messages"].as_array().unwrap();
    // The tools' policy as the system message, then the whole conversation.
    assert_eq!(messages.len(), 4, "{messages:?}");
    assert_eq!(messages[2], json!({"role": "assistant", "content": "Paris."}));

    let mut command = tackle(&config);
    command.args(["sessions", "show", &id]);
    let (code, stdout, _) = output(command).await;
    assert_eq!(code, 0);
    for needle in [
        "[user]\nCapital of France?",
        "[assistant]\nParis.",
        "[user]\nAnd its population?",
        "About 2.1 million.",
    ] {
        assert!(stdout.contains(needle), "{needle:?} in {stdout}");
    }

    let mut command = tackle(&config);
    command.args(["sessions", "show", "nope"]);
    let (code, _, stderr) = output(command).await;
    assert_eq!(code, 2);
    assert!(stderr.contains("no session \"nope\""), "{stderr}");
}

#[tokio::test(flavor = "multi_thread")]
async fn chat_runs_prompts_asks_for_approval_and_resets() {
    let wire = Wire::Chat;
    let server = MockServer::start().await;
    searxng(&server, json!([{"url": "http://127.0.0.1:9/a", "title": "A", "content": "Snippet."}])).await;
    wire.mount(
        &server,
        vec![
            wire.turn("", &[("call_1", "web_search", json!({"query": "rivers"}))]),
            wire.turn("Rivers carve valleys.", &[]),
            wire.turn("Hello again.", &[]),
        ],
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let extra = format!("[tools.web_search]\nsearxng_url = \"{}\"\napproval = true", server.uri());
    let config = settings(dir.path(), wire, &server, &extra);
    let mut command = tackle(&config);
    command.arg("chat").write_stdin("How are valleys made?\ny\n/tools\n/nope\n/reset\nHi\n/exit\n");
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Rivers carve valleys.\n"), "{stdout}");
    assert!(stdout.contains("web_search  offered") && stdout.contains("read_web_page  offered"), "{stdout}");
    assert!(stdout.contains("Hello again.\n"), "{stdout}");
    assert!(stderr.contains("✓ web_search(query: \"rivers\") ok"), "{stderr}");
    assert!(stderr.contains("unknown command /nope"), "{stderr}");
    assert!(!stderr.contains("tackle approve"), "approval is asked in place: {stderr}");
    let sent = requests(&server, wire).await;
    assert_eq!(sent.len(), 3);
    let after_reset = sent[2]["messages"].as_array().unwrap();
    assert!(!sent[2].to_string().contains("How are valleys made?"), "/reset starts over: {after_reset:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn resumed_runs_go_to_the_endpoint_they_started_on() {
    let wire = Wire::Chat;
    let server = MockServer::start().await;
    searxng(&server, json!([{"url": "http://127.0.0.1:9/a", "title": "A", "content": "Rivers."}])).await;
    wire.mount(
        &server,
        vec![
            wire.turn("", &[("call_1", "web_search", json!({"query": "rivers"}))]),
            wire.turn("Found it.", &[]),
            wire.turn("More.", &[]),
            wire.turn("Elsewhere.", &[]),
        ],
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    // The settings file names no base URL: only the command line points at the server.
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        format!("[tools.web_search]\nsearxng_url = \"{}\"\napproval = true\n", server.uri()),
    )
    .unwrap();
    let base = format!("{}/v1", server.uri());
    let with_key = |args: &[&str]| {
        let mut command = tackle(&config);
        command.env("OPENAI_API_KEY", "sk-from-env").args(args);
        command
    };

    let (code, _, stderr) =
        output(with_key(&["run", "--provider", "openai", "--base-url", &base, "-m", "m1", "Search."])).await;
    assert_eq!(code, 3, "{stderr}");
    let id = waiting_id(&stderr);

    // Approved from another process with no flags: the same server answers.
    let (code, stdout, stderr) = output(with_key(&["approve", &id])).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "Found it.\n");
    assert!(!stderr.contains("warning"), "{stderr}");
    // Continued naming the same provider but no base URL: the same server again.
    let (code, stdout, stderr) =
        output(with_key(&["run", "--continue", &id, "--provider", "openai", "And?"])).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "More.\n");
    assert!(!stderr.contains("warning"), "{stderr}");
    assert_eq!(requests(&server, wire).await.len(), 3);

    // Another endpoint only when asked for, and with a warning.
    let other = MockServer::start().await;
    wire.mount(&other, vec![wire.turn("Other server.", &[])]).await;
    let other_base = format!("{}/v1", other.uri());
    let (code, stdout, stderr) = output(with_key(&[
        "run",
        "--continue",
        &id,
        "--base-url",
        &other_base,
        "--provider",
        "openai",
        "Hi",
    ]))
    .await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "Other server.\n");
    assert!(
        stderr.contains(&format!("warning: this session was started against openai at {base}; it goes on against openai at {other_base}, as asked")),
        "{stderr}"
    );
    assert_eq!(requests(&server, wire).await.len(), 3, "nothing more went to the first server");

    // What the session keeps names where the key came from, never the key.
    let db = std::fs::read(dir.path().join("data").join("sessions.db")).unwrap();
    let db = String::from_utf8_lossy(&db);
    assert!(db.contains("environment variable OPENAI_API_KEY"));
    assert!(!db.contains("sk-from-env"));
}

/// `--dir`: the model lists, greps, edits a file (after approval, from a second process) and
/// runs `cargo --version` (after another), and answers; the session remembers the directory.
#[tokio::test(flavor = "multi_thread")]
async fn a_run_works_in_a_directory_with_approvals() {
    let wire = Wire::Chat;
    let server = MockServer::start().await;
    wire.mount(
        &server,
        vec![
            wire.turn("", &[("c1", "list_dir", json!({})), ("c2", "grep", json!({"pattern": "helo"}))]),
            wire.turn(
                "",
                &[(
                    "c3",
                    "edit_file",
                    json!({"path": "src/greet.txt", "old_string": "helo", "new_string": "hello"}),
                )],
            ),
            wire.turn("", &[("c4", "run_command", json!({"program": "cargo", "args": ["--version"]}))]),
            wire.turn("Fixed the greeting.", &[]),
        ],
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::write(project.join("src/greet.txt"), "helo world\n").unwrap();
    let config = settings(dir.path(), wire, &server, "");

    let mut command = tackle(&config);
    command.args(["run", "--dir", project.to_str().unwrap(), "Fix the typo in the greeting."]);
    let (code, _, stderr) = output(command).await;
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("✓ list_dir") && stderr.contains("✓ grep"), "{stderr}");
    assert!(stderr.contains("edit_file(path: \"src/greet.txt\""), "{stderr}");
    // The edit is shown as a diff before anyone approves it.
    assert!(
        stderr.contains("    --- a/src/greet.txt\n    +++ b/src/greet.txt\n    @@ -1 +1 @@\n    -helo world\n    +hello world\n"),
        "{stderr}"
    );
    let id = waiting_id(&stderr);
    assert_eq!(
        std::fs::read_to_string(project.join("src/greet.txt")).unwrap(),
        "helo world\n",
        "nothing edited yet"
    );
    let second = requests(&server, wire).await[1].to_string();
    assert!(second.contains("src/") && second.contains("src/greet.txt:1:helo world"), "{second}");

    // Approved from another process, without --dir: the session knows the directory.
    let mut command = tackle(&config);
    command.args(["approve", &id]);
    let (code, _, stderr) = output(command).await;
    assert_eq!(code, 3, "{stderr}");
    assert_eq!(std::fs::read_to_string(project.join("src/greet.txt")).unwrap(), "hello world\n");
    assert!(stderr.contains("run_command(program: \"cargo\""), "{stderr}");
    // And shown again, as made, once it ran.
    let ran = stderr.split("✓ edit_file").nth(1).unwrap_or_default();
    assert!(ran.contains("\n    @@ -1 +1 @@\n    -helo world\n    +hello world\n"), "{stderr}");

    let mut command = tackle(&config);
    command.args(["approve", &id]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "Fixed the greeting.\n");
    let last = requests(&server, wire).await[3].to_string();
    assert!(last.contains("exit code 0") && last.contains("cargo "), "{last}");

    // The session's trace records what each tool did: the edit's diff, the command's end.
    let mut command = tackle(&config);
    command.args(["sessions", "show", &id]);
    let (code, stdout, _) = output(command).await;
    assert_eq!(code, 0);
    assert!(stdout.contains("edit_file(path: \"src/greet.txt\""), "{stdout}");
    assert!(stdout.contains("       -helo world\n       +hello world"), "{stdout}");
    assert!(stdout.contains("\"exit_code\":0") && stdout.contains("\"timed_out\":false"), "{stdout}");

    // Without --dir (and no [env] root) no such tools are offered.
    let mut command = tackle(&config);
    command.args(["tools", "list"]);
    let (_, stdout, _) = output(command).await;
    assert!(!stdout.contains("read_file"), "{stdout}");
}

/// `approval = false` with a program allowlist lets the model run those programs, and only
/// those, without asking.
#[tokio::test(flavor = "multi_thread")]
async fn an_allowlist_relaxes_run_command() {
    let wire = Wire::Chat;
    let server = MockServer::start().await;
    wire.mount(
        &server,
        vec![
            wire.turn(
                "",
                &[
                    ("c1", "run_command", json!({"program": "cargo", "args": ["--version"]})),
                    ("c2", "run_command", json!({"program": "rm", "args": ["-rf", "src"]})),
                    ("c3", "run_command", json!({"script": "cargo --version && rm -rf src"})),
                ],
            ),
            wire.turn("Ran it.", &[]),
        ],
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join("src")).unwrap();
    let extra = format!(
        "[env]\nroot = \"{}\"\n\n[tools.run_command]\napproval = false\nallowed_programs = [\"cargo\"]",
        project.display()
    );
    let config = settings(dir.path(), wire, &server, &extra);
    let mut command = tackle(&config);
    command.args(["run", "Check the toolchain."]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "Ran it.\n");
    let second = requests(&server, wire).await[1].to_string();
    assert!(second.contains("exit code 0"), "{second}");
    assert!(second.contains("not on the program allowlist"), "{second}");
    assert!(second.contains("scripts are not allowed here"), "{second}");
    assert!(project.join("src").exists());
}

/// A background command started by the model (allowed without asking, under
/// `run_command`'s allowlist) is looked at, and stopped with everything it started when
/// the run ends.
#[tokio::test(flavor = "multi_thread")]
async fn background_commands_end_with_the_run() {
    let wire = Wire::Chat;
    let server = MockServer::start().await;
    wire.mount(
        &server,
        vec![
            wire.turn(
                "",
                &[
                    (
                        "c1",
                        "start_command",
                        json!({"program": "sh", "args": ["-c", "sleep 60 & echo $! > pid; echo serving; wait"]}),
                    ),
                    ("c2", "start_command", json!({"program": "rm", "args": ["-rf", "src"]})),
                ],
            ),
            wire.turn("", &[("c3", "command_status", json!({"id": "bg1", "wait_seconds": 1}))]),
            wire.turn("It serves.", &[]),
        ],
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join("src")).unwrap();
    let extra = format!(
        "[env]\nroot = \"{}\"\n\n[tools.run_command]\nallowed_programs = [\"sh\"]\n\n[tools.start_command]\napproval = false",
        project.display()
    );
    let config = settings(dir.path(), wire, &server, &extra);
    let mut command = tackle(&config);
    command.args(["run", "Start the server."]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "It serves.\n");
    let second = requests(&server, wire).await[1].to_string();
    assert!(second.contains("started bg1 (pid "), "{second}");
    assert!(second.contains("not on the program allowlist"), "{second}");
    let third = requests(&server, wire).await[2].to_string();
    assert!(third.contains("running for") && third.contains("serving"), "{third}");
    assert!(project.join("src").exists());
    let pid = std::fs::read_to_string(project.join("pid")).unwrap().trim().to_owned();
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = stat.rsplit(')').next().unwrap_or("").trim_start().chars().next();
    assert!(matches!(state, None | Some('Z')), "process {pid} outlived the run: {stat}");
}

/// The model asks; the run waits with the questions shown; a wrong answer is refused and
/// loses nothing; the right one goes back to the model.
#[tokio::test(flavor = "multi_thread")]
async fn a_question_is_answered_from_a_second_process() {
    let wire = Wire::Chat;
    let server = MockServer::start().await;
    let questions = json!({"questions": [{"header": "Database", "question": "Which database?",
        "options": [{"label": "PostgreSQL", "description": "the server"}, {"label": "SQLite", "description": "one file"}]}]});
    wire.mount(
        &server,
        vec![
            wire.turn("", &[("q1", "ask_user_question", questions.clone())]),
            wire.turn("", &[("q2", "ask_user_question", questions)]),
            wire.turn("SQLite it is.", &[]),
        ],
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let config = settings(dir.path(), wire, &server, "");
    let mut command = tackle(&config);
    command.args(["run", "--dir", project.to_str().unwrap(), "Set up storage."]);
    let (code, _, stderr) = output(command).await;
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("    1. [Database] Which database? (pick one)\n       - PostgreSQL: the server\n       - SQLite: one file\n"), "{stderr}");
    assert!(stderr.contains(" waits for answers to 1 question(s):"), "{stderr}");
    // The hint is how to answer; there is no call to approve.
    assert!(stderr.contains("--answer '[[\"label\"], \"own words\"]'"), "{stderr}");
    assert!(!stderr.contains("runs them"), "{stderr}");
    let id = waiting_id(&stderr);
    // `--json` carries the questions in its `suspended` event.
    let mut command = tackle(&config);
    command.args(["run", "--json", "--dir", project.to_str().unwrap(), "Set up storage again."]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 3, "{stderr}");
    let suspended =
        stdout.lines().find(|l| l.contains("\"suspended\"")).unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        suspended.contains("\"header\":\"Database\"") && suspended.contains("\"label\":\"SQLite\""),
        "{suspended}"
    );

    let approve = |extra: &[&str]| {
        let mut command = tackle(&config);
        command.args(["approve", &id]).args(extra);
        command
    };
    let (code, _, stderr) = output(approve(&[])).await;
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("waits for answers"), "{stderr}");
    let (code, _, stderr) = output(approve(&["--answer", r#"[["MySQL"]]"#])).await;
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("\"MySQL\" is not an option"), "{stderr}");
    let (code, stdout, stderr) = output(approve(&["--answer", r#"[["SQLite"]]"#])).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "SQLite it is.\n");
    let third = requests(&server, wire).await[2].to_string();
    assert!(
        third.contains("The user answered:") && third.contains("Database (Which database?): SQLite"),
        "{third}"
    );
}

/// In `tackle chat`, questions are asked in place: a number that is no option is explained
/// and asked again; the answer goes back to the model.
#[tokio::test(flavor = "multi_thread")]
async fn chat_asks_questions_in_place() {
    let wire = Wire::Chat;
    let server = MockServer::start().await;
    let questions = json!({"questions": [
        {"header": "Database", "question": "Which database?",
         "options": [{"label": "PostgreSQL", "description": "the server"}, {"label": "SQLite", "description": "one file"}]},
        {"header": "Targets", "question": "Which platforms?", "multiple": true,
         "options": [{"label": "Linux", "description": ""}, {"label": "macOS", "description": ""}, {"label": "Windows", "description": ""}]}]});
    wire.mount(
        &server,
        vec![wire.turn("", &[("q1", "ask_user_question", questions)]), wire.turn("Noted.", &[])],
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let config = settings(dir.path(), wire, &server, "");
    let mut command = tackle(&config);
    command
        .args(["chat", "--dir", project.to_str().unwrap()])
        .write_stdin("Set it up.\n1,2\n2\n1,3\n/exit\n");
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Noted.\n"), "{stdout}");
    assert!(stderr.contains("1. [Database] Which database?\n   1) PostgreSQL: the server\n"), "{stderr}");
    assert!(stderr.contains("takes one option, not 2; try again"), "{stderr}");
    let second = requests(&server, wire).await[1].to_string();
    assert!(
        second.contains("Database (Which database?): SQLite")
            && second.contains("Targets (Which platforms?): Linux, Windows"),
        "{second}"
    );
}

/// `tackle run` on a terminal (a pseudo-terminal from `script`) asks the model's questions
/// in place and goes on; off a terminal the same run waits for `tackle approve --answer`.
#[tokio::test(flavor = "multi_thread")]
async fn run_on_a_terminal_asks_questions_in_place() {
    if std::process::Command::new("script").arg("--version").output().is_err() {
        panic!("`script` (util-linux) is needed to give the run a terminal");
    }
    let wire = Wire::Chat;
    let server = MockServer::start().await;
    let questions = json!({"questions": [
        {"header": "Database", "question": "Which database?",
         "options": [{"label": "PostgreSQL", "description": "the server"}, {"label": "SQLite", "description": "one file"}]}]});
    wire.mount(
        &server,
        vec![wire.turn("", &[("q1", "ask_user_question", questions)]), wire.turn("Using SQLite.", &[])],
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let config = settings(dir.path(), wire, &server, "");
    let binary = assert_cmd::cargo::cargo_bin("tackle");
    let line = format!("'{}' run --dir '{}' 'Set it up.'", binary.display(), project.display());
    // `script` runs the line on a pseudo-terminal and passes our input to it.
    let mut script = isolated(assert_cmd::Command::new("script"), &config);
    script.args(["-qec", &line, "/dev/null"]);
    script.write_stdin("2\n").timeout(std::time::Duration::from_secs(60));
    let (code, stdout, _) = output(script).await;
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("1. [Database] Which database?"), "{stdout}");
    assert!(stdout.contains("Using SQLite."), "{stdout}");
    assert!(!stdout.contains("tackle approve"), "{stdout}");
    let second = requests(&server, wire).await[1].to_string();
    assert!(second.contains("Database (Which database?): SQLite"), "{second}");
}

/// A project's skill is offered and loaded; a skill written during the chat is found again
/// before the next prompt (the change is said), offered from then on, and `/skills` lists both.
#[tokio::test(flavor = "multi_thread")]
async fn chat_loads_skills_and_finds_new_ones() {
    let wire = Wire::Chat;
    let server = MockServer::start().await;
    let notes = "---\nname: notes\ndescription: Keep meeting notes.\n---\nWrite them down.\n";
    wire.mount(
        &server,
        vec![
            wire.turn("", &[("c1", "load_skill", json!({"name": "release"}))]),
            wire.turn(
                "",
                &[("c2", "write_file", json!({"path": ".agents/skills/notes/SKILL.md", "content": notes}))],
            ),
            wire.turn("Released.", &[]),
            wire.turn("Noted.", &[]),
        ],
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join(".agents/skills/release")).unwrap();
    std::fs::write(
        project.join(".agents/skills/release/SKILL.md"),
        "---\nname: release\ndescription: Cut a release.\n---\nTag it, then push the tag.\n",
    )
    .unwrap();
    std::fs::write(project.join(".agents/skills/release/checklist.md"), "- changelog\n").unwrap();
    let config = settings(dir.path(), wire, &server, "[tools.write_file]\napproval = false");
    let mut command = tackle(&config);
    command
        .args(["chat", "--dir", project.to_str().unwrap()])
        .write_stdin("Release it.\nTake notes.\n/skills\n/exit\n");
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    let sent = requests(&server, wire).await;
    let first = sent[0].to_string();
    assert!(first.contains("- release: Cut a release.") && !first.contains("notes"), "{first}");
    let second = sent[1].to_string();
    assert!(second.contains("# Skill: release") && second.contains("- checklist.md"), "{second}");
    assert!(stderr.contains("skills: added notes"), "{stderr}");
    let fourth = sent[3].to_string();
    assert!(fourth.contains("- notes: Keep meeting notes."), "{fourth}");
    assert!(stdout.contains("notes  Keep meeting notes.\nrelease  Cut a release.\n"), "{stdout}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_closed_stdout_cancels_the_run_and_keeps_its_session() {
    // `tackle run … | head -1`: the reader is gone before the answer is written. The run
    // ends as Ctrl-C ends it — cancelled, its session saved — not with the process cut short.
    closed_stdout(&["run", "Tell me about rivers."], b"").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_closed_stdout_ends_a_chat_as_cancelled_and_reads_no_more() {
    // `tackle chat < questions | head -1`: the first answer has nowhere to go. Its run is
    // cancelled and saved, the next question is never sent, and the exit code says so.
    closed_stdout(&["chat"], b"Tell me about rivers.\nAnd lakes?\n").await;
}

/// Runs `tackle ARGS` with `input` on stdin and stdout closed before anything is written:
/// it exits 130, its one session is saved as cancelled, and no request holds "And lakes?"
/// (a second question, where `input` has one).
async fn closed_stdout(args: &[&str], input: &[u8]) {
    let wire = Wire::Chat;
    let server = MockServer::start().await;
    searxng(&server, json!([])).await;
    wire.mount(
        &server,
        vec![
            wire.turn("Let me look that up first.", &[("call_1", "web_search", json!({"query": "rivers"}))]),
            wire.turn("Done.", &[]),
            wire.turn("Lakes are still water.", &[]),
        ],
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let extra = format!("[tools.web_search]\nsearxng_url = \"{}\"", server.uri());
    let config = settings(dir.path(), wire, &server, &extra);
    let mut command = tackle_process(&config);
    command.args(args);
    command.stdin(std::process::Stdio::piped());
    command.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
    let mut child = command.spawn().unwrap();
    drop(child.stdout.take());
    {
        use std::io::Write as _;
        child.stdin.take().unwrap().write_all(input).unwrap();
    }
    let ended = tokio::task::spawn_blocking(move || child.wait_with_output().unwrap()).await.unwrap();
    let stderr = String::from_utf8_lossy(&ended.stderr);
    assert_eq!(ended.status.code(), Some(130), "{stderr}");
    let sent = requests(&server, wire).await;
    assert!(sent.iter().all(|r| !r.to_string().contains("And lakes?")), "{sent:?}");
    let mut list = tackle(&config);
    list.args(["sessions", "list", "--json"]);
    let (code, listed, err) = output(list).await;
    assert_eq!(code, 0, "{err}");
    let sessions: Vec<&str> = listed.lines().collect();
    assert_eq!(sessions.len(), 1, "{listed}");
    let session: serde_json::Value =
        serde_json::from_str(sessions[0]).unwrap_or_else(|e| panic!("{e}: {listed}"));
    assert_eq!(session["status"], "cancelled", "{session}");
}
