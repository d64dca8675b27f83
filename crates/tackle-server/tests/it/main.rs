//! `tackle-server` end to end on loopback: a real HTTP server, a SQLite store in a temp
//! dir, workers running the real harness against a scripted model.
#![allow(clippy::unwrap_used, missing_docs)]

mod tenancy;

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tackle_core::{AssistantPart, AssistantTurn, Message, ToolCall, UserPart};
use tackle_harness::Harness;
use tackle_server::store::SessionLink;
use tackle_server::{Engine, Server, ServerConfig, Store};
use tackle_test::FunctionModel;
use tackle_tools::ToolsetExt as _;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct AddArgs {
    a: i64,
    b: i64,
}

/// Whether a result of a call is in the conversation.
fn has_results(messages: &[Message]) -> bool {
    messages.iter().any(|m| matches!(m, Message::User { parts } if parts.iter().any(|p| matches!(p, UserPart::ToolReturn(_)))))
}

/// A model that adds when asked and answers once the result is back.
fn model() -> FunctionModel {
    FunctionModel::new(|request| {
        let answered = has_results(request.messages);
        Ok(if answered {
            AssistantTurn::text("It is 42.")
        } else {
            AssistantTurn {
                parts: vec![
                    AssistantPart::Text("Adding.".into()),
                    AssistantPart::ToolCall(ToolCall::new("call_1", "add", json!({"a": 2, "b": 40}))),
                ],
                ..AssistantTurn::default()
            }
        })
    })
}

/// Where a test's store lives: a SQLite file always, and a fresh database on the
/// PostgreSQL server `TACKLE_TEST_POSTGRES` names (`.ci/run` starts one and sets
/// `TACKLE_REQUIRE_POSTGRES`, so that CI never skips it).
#[derive(Clone)]
enum Backend {
    Sqlite(Arc<tempfile::TempDir>),
    Postgres(String),
}

impl Backend {
    fn open(&self) -> Arc<dyn Store> {
        match self {
            Backend::Sqlite(dir) => {
                tackle_server::open(dir.path().join("server.db").to_str().unwrap(), 8).unwrap()
            }
            Backend::Postgres(url) => tackle_server::open(url, 8).unwrap(),
        }
    }
}

fn backends() -> Vec<Backend> {
    let mut out = vec![Backend::Sqlite(Arc::new(tempfile::tempdir().unwrap()))];
    match std::env::var("TACKLE_TEST_POSTGRES") {
        Ok(admin) if !admin.is_empty() => out.push(Backend::Postgres(fresh_database(&admin))),
        _ => {
            assert!(
                std::env::var_os("TACKLE_REQUIRE_POSTGRES").is_none(),
                "TACKLE_REQUIRE_POSTGRES is set but TACKLE_TEST_POSTGRES names no server"
            );
            #[allow(clippy::print_stderr)]
            {
                eprintln!(
                    "note: PostgreSQL skipped: TACKLE_TEST_POSTGRES is not set (.ci/run starts a server)"
                );
            }
        }
    }
    out
}

/// A new, empty database on the server `admin` points at; its URL.
fn fresh_database(admin: &str) -> String {
    let name = format!("tackle_test_{}_{}", std::process::id(), fastrand_name());
    tokio::task::block_in_place(|| {
        let mut client = postgres::Client::connect(admin, postgres::NoTls).unwrap();
        client.batch_execute(&format!("CREATE DATABASE {name}")).unwrap();
    });
    let (base, _) = admin.rsplit_once('/').unwrap();
    format!("{base}/{name}")
}

fn fastrand_name() -> String {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
    format!("{}_{nanos}", NEXT.fetch_add(1, Ordering::SeqCst))
}

struct Running {
    url: String,
    server: Server,
    http: reqwest::Client,
}

async fn start(backend: &Backend) -> Running {
    let store = backend.open();
    let add =
        tackle_tools::typed_tool(
            "add",
            "Add two numbers.",
            |_ctx: tackle_tools::ToolContext, a: AddArgs| async move {
                Ok::<_, tackle_tools::ToolError>(a.a + a.b)
            },
        )
        .build()
        .unwrap();
    let harness = Harness::new(tackle_tools::ToolRegistry::builder().tool(add).build().unwrap());
    let engine = Engine::new(harness, Arc::new(model()));
    let config =
        ServerConfig::default().with_workers(2).with_lease(Duration::from_secs(2)).with_max_body(4096);
    let server = Server::start(store, engine, config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let router = server.router();
    tokio::spawn(async move { axum::serve(tackle_server::nodelay(listener), router).await.unwrap() });
    Running { url, server, http: reqwest::Client::new() }
}

impl Running {
    fn token(&self, org: &str, user: &str) -> String {
        self.server.store().create_token(org, user).unwrap()
    }

    async fn post(&self, token: &str, body: &str) -> (u16, Value) {
        let response = self
            .http
            .post(format!("{}/v1/runs", self.url))
            .bearer_auth(token)
            .header("content-type", "application/json")
            .body(body.to_owned())
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    async fn get(&self, token: Option<&str>, path: &str, last_event: Option<&str>) -> (u16, String, String) {
        let mut request = self.http.get(format!("{}{path}", self.url));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(last) = last_event {
            request = request.header("last-event-id", last);
        }
        let response = tokio::time::timeout(Duration::from_secs(20), request.send()).await.unwrap().unwrap();
        let status = response.status().as_u16();
        let kind = response
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default();
        let body = tokio::time::timeout(Duration::from_secs(20), response.text()).await.unwrap().unwrap();
        (status, kind, body)
    }
}

/// `(id, data)` of each SSE event in `body`.
fn sse_events(body: &str) -> Vec<(i64, Value)> {
    body.split("\n\n")
        .filter_map(|block| {
            let id = block.lines().find_map(|l| l.strip_prefix("id: "))?.parse().ok()?;
            let data = block.lines().find_map(|l| l.strip_prefix("data: "))?;
            Some((id, serde_json::from_str(data).unwrap()))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_goes_through_and_its_events_resume_from_any_point() {
    for backend in backends() {
        a_run_goes_through_and_its_events_resume_from_any_point_on(backend).await;
    }
}

async fn a_run_goes_through_and_its_events_resume_from_any_point_on(backend: Backend) {
    let running = start(&backend).await;
    let alice = running.token("acme", "alice");
    let (status, created) = running.post(&alice, r#"{"prompt": "2+40?"}"#).await;
    assert_eq!(status, 202, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    assert_eq!(created["events"], format!("/v1/runs/{id}/events"));

    // The stream follows the run and ends once it is settled.
    let (status, kind, body) = running.get(Some(&alice), &format!("/v1/runs/{id}/events"), None).await;
    assert_eq!(status, 200);
    assert!(kind.starts_with("text/event-stream"), "{kind}");
    let events = sse_events(&body);
    let ids: Vec<i64> = events.iter().map(|e| e.0).collect();
    assert_eq!(ids, (1..=ids.len() as i64).collect::<Vec<_>>(), "every event once, in order");
    let kinds: Vec<&str> = events.iter().filter_map(|e| e.1["event"].as_str()).collect();
    for wanted in ["run_started", "tool_call_started", "tool_call_finished", "finished"] {
        assert!(kinds.contains(&wanted), "{wanted} missing from {kinds:?}");
    }

    let (status, _, run) = running.get(Some(&alice), &format!("/v1/runs/{id}"), None).await;
    assert_eq!(status, 200);
    let run: Value = serde_json::from_str(&run).unwrap();
    assert_eq!(run["status"], "answered");
    assert_eq!(run["answer"], "It is 42.");
    assert!(run.get("state").is_none(), "the checkpoint is not shown");

    // A client that saw up to event 2 gets exactly the rest.
    let (_, _, rest) = running.get(Some(&alice), &format!("/v1/runs/{id}/events"), Some("2")).await;
    let rest = sse_events(&rest);
    assert_eq!(rest.first().map(|e| e.0), Some(3));
    assert_eq!(rest.len(), events.len() - 2);
    assert_eq!(rest, events[2..].to_vec());
    running.server.shutdown(Duration::ZERO).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_sees_only_its_own_users_runs() {
    for backend in backends() {
        a_token_sees_only_its_own_users_runs_on(backend).await;
    }
}

async fn a_token_sees_only_its_own_users_runs_on(backend: Backend) {
    let running = start(&backend).await;
    let alice = running.token("acme", "alice");
    let bob = running.token("acme", "bob");
    let mallory = running.token("evil", "alice");
    let (_, created) = running.post(&alice, r#"{"prompt": "mine"}"#).await;
    let id = created["id"].as_str().unwrap();
    for token in [&bob, &mallory] {
        for path in [format!("/v1/runs/{id}"), format!("/v1/runs/{id}/events")] {
            let (status, kind, body) = running.get(Some(token), &path, None).await;
            assert_eq!(status, 404, "{path}: {body}");
            assert_eq!(kind, "application/problem+json");
            assert!(!body.contains("mine"));
        }
    }
    let (status, kind, _) = running.get(None, &format!("/v1/runs/{id}"), None).await;
    assert_eq!((status, kind.as_str()), (401, "application/problem+json"));
    let (status, _, _) = running.get(Some("tk_forged"), &format!("/v1/runs/{id}"), None).await;
    assert_eq!(status, 401);
    running.server.shutdown(Duration::ZERO).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_are_problems() {
    for backend in backends() {
        bad_requests_are_problems_on(backend).await;
    }
}

async fn bad_requests_are_problems_on(backend: Backend) {
    let running = start(&backend).await;
    let alice = running.token("acme", "alice");
    let (status, problem) = running.post(&alice, r#"{"prompt": "hi", "temperature": 2}"#).await;
    assert_eq!(status, 422);
    assert!(problem["detail"].as_str().unwrap().contains("unknown field"), "{problem}");
    assert_eq!(problem["status"], 422);
    let (status, _) = running.post(&alice, r#"{"prompt": "   "}"#).await;
    assert_eq!(status, 422);
    let (status, _) = running.post(&alice, "not json").await;
    assert_eq!(status, 422);
    let big = format!(r#"{{"prompt": "{}"}}"#, "x".repeat(5000));
    let (status, problem) = running.post(&alice, &big).await;
    assert_eq!(status, 413, "{problem}");
    let (status, _, _) = running.get(Some(&alice), "/v1/runs/run_x/events", Some("minus one")).await;
    assert_eq!(status, 400);
    let (status, kind, _) = running.get(Some(&alice), "/v1/nothing", None).await;
    assert_eq!((status, kind.as_str()), (404, "application/problem+json"));
    let (status, _, body) = running.get(None, "/readyz", None).await;
    assert_eq!((status, body.as_str()), (200, "ready"));
    running.server.shutdown(Duration::ZERO).await;
}

/// A run whose worker vanished before its first checkpoint is started again from the top
/// (no call can have started), its events numbered on after the lost worker's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_whose_worker_vanished_before_any_checkpoint_starts_again() {
    for backend in backends() {
        a_run_whose_worker_vanished_before_any_checkpoint_starts_again_on(backend).await;
    }
}

async fn a_run_whose_worker_vanished_before_any_checkpoint_starts_again_on(backend: Backend) {
    let store = backend.open();
    let token = store.create_token("acme", "alice").unwrap();
    let owner = store.authenticate(&token).unwrap().unwrap();
    let run = store.create_run(&owner, &json!({"prompt": "2+40?"}), &new_session()).unwrap();
    // A worker of another process claims it, writes one event and dies.
    store.claim("ghost", Duration::from_millis(300)).unwrap().unwrap();
    store
        .append_events(&run.id, "ghost", &[r#"{"event":"run_started","run_id":"x"}"#.into()], &[], None)
        .unwrap();

    let harness = Harness::new(tackle_tools::ToolRegistry::builder().tool(add_tool()).build().unwrap());
    let engine = Engine::new(harness, Arc::new(model()));
    let config = ServerConfig::default().with_workers(1).with_poll(Duration::from_millis(50));
    let server = Server::start(backend.open(), engine, config);
    let record = settled(server.store().as_ref(), &owner, &run.id).await;
    assert_eq!(record.status, tackle_server::RunStatus::Answered, "{:?}", record.error);
    let events = server.store().follow(&owner, &run.id, 0, 100).unwrap().unwrap().1;
    let seqs: Vec<i64> = events.iter().map(|e| e.0).collect();
    assert_eq!(seqs, (1..=seqs.len() as i64).collect::<Vec<_>>());
    assert_eq!(events.iter().filter(|e| e.1.contains("\"run_started\"")).count(), 2);
    server.shutdown(Duration::ZERO).await;
}

fn new_session() -> SessionLink {
    SessionLink::New { title: "a test".into() }
}

fn add_tool() -> tackle_tools::FunctionTool {
    tackle_tools::typed_tool("add", "Add two numbers.", |_ctx: tackle_tools::ToolContext, a: AddArgs| async move {
        Ok::<_, tackle_tools::ToolError>(a.a + a.b)
    })
    .build()
    .unwrap()
}

async fn settled(store: &dyn Store, owner: &tackle_server::Principal, id: &str) -> tackle_server::RunRecord {
    for _ in 0..200 {
        let record = store.run(owner, id).unwrap().unwrap();
        if record.status.is_settled() {
            return record;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the run never settled");
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Empty {}

/// `delete(path)`, counted in `deleted`.
fn delete_tool(deleted: Arc<std::sync::atomic::AtomicUsize>) -> tackle_tools::FunctionTool {
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Path {
        path: String,
    }
    tackle_tools::typed_tool("delete", "Delete a file.", move |_ctx: tackle_tools::ToolContext, p: Path| {
        let deleted = Arc::clone(&deleted);
        async move {
            deleted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Ok::<_, tackle_tools::ToolError>(format!("deleted {}", p.path))
        }
    })
    .build()
    .unwrap()
}

/// `charge()`, counted in `charged`, which never finishes: the server stops while it runs.
fn charge_tool(charged: Arc<std::sync::atomic::AtomicUsize>) -> tackle_tools::FunctionTool {
    tackle_tools::typed_tool(
        "charge",
        "Charge the card.",
        move |_ctx: tackle_tools::ToolContext, _: Empty| {
            let charged = Arc::clone(&charged);
            async move {
                charged.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                tokio::time::sleep(Duration::from_secs(3600)).await;
                Ok::<_, tackle_tools::ToolError>("charged")
            }
        },
    )
    .build()
    .unwrap()
}

/// A server stopped in the middle of a batch; another, on the same store, takes the run over
/// from its checkpoint: the idempotent call runs again, the other is reported interrupted
/// with its outcome unknown — never run twice — and the run answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_taken_over_mid_batch_reruns_only_idempotent_calls() {
    for backend in backends() {
        a_run_taken_over_mid_batch_reruns_only_idempotent_calls_on(backend).await;
    }
}

async fn a_run_taken_over_mid_batch_reruns_only_idempotent_calls_on(backend: Backend) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let charged = Arc::new(AtomicUsize::new(0));
    let looked_up = Arc::new(AtomicUsize::new(0));
    let engine = || {
        let (charged, looked_up) = (Arc::clone(&charged), Arc::clone(&looked_up));
        let charge = charge_tool(charged);
        let lookup = tackle_tools::typed_tool(
            "lookup",
            "Look the price up.",
            move |_ctx: tackle_tools::ToolContext, _: Empty| {
                let looked_up = Arc::clone(&looked_up);
                async move {
                    looked_up.fetch_add(1, Ordering::SeqCst);
                    Ok::<_, tackle_tools::ToolError>("12 EUR")
                }
            },
        )
        .idempotent()
        .build()
        .unwrap();
        let registry = tackle_tools::ToolRegistry::builder().tool(charge).tool(lookup).build().unwrap();
        let model = FunctionModel::new(|request| {
            let answered = has_results(request.messages);
            Ok(if answered {
                AssistantTurn::text("Checked.")
            } else {
                AssistantTurn {
                    parts: vec![
                        AssistantPart::ToolCall(ToolCall::new("c_charge", "charge", json!({}))),
                        AssistantPart::ToolCall(ToolCall::new("c_lookup", "lookup", json!({}))),
                    ],
                    ..AssistantTurn::default()
                }
            })
        });
        Engine::new(Harness::new(registry), Arc::new(model))
    };
    let config = || {
        ServerConfig::default()
            .with_workers(1)
            .with_poll(Duration::from_millis(50))
            .with_lease(Duration::from_millis(600))
    };

    let first = Server::start(backend.open(), engine(), config());
    let token = first.store().create_token("acme", "alice").unwrap();
    let owner = first.store().authenticate(&token).unwrap().unwrap();
    let run =
        first.store().create_run(&owner, &json!({"prompt": "Charge me the price."}), &new_session()).unwrap();
    for _ in 0..100 {
        if charged.load(Ordering::SeqCst) == 1 && looked_up.load(Ordering::SeqCst) == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        (charged.load(Ordering::SeqCst), looked_up.load(Ordering::SeqCst)),
        (1, 1),
        "the batch is under way"
    );
    first.shutdown(Duration::ZERO).await;

    let second = Server::start(backend.open(), engine(), config());
    let record = settled(second.store().as_ref(), &owner, &run.id).await;
    assert_eq!(record.status, tackle_server::RunStatus::Answered, "{:?}", record.error);
    assert_eq!(record.answer.as_deref(), Some("Checked."));
    assert_eq!(charged.load(Ordering::SeqCst), 1, "the charge never ran twice");
    assert_eq!(looked_up.load(Ordering::SeqCst), 2, "the idempotent lookup ran again");
    let state: Value = serde_json::from_str(record.state.as_deref().unwrap()).unwrap();
    let history = state["messages"].to_string();
    assert!(history.contains("its outcome is unknown"), "{history}");
    assert!(history.contains("12 EUR"), "{history}");
    let events = second.store().follow(&owner, &run.id, 0, 1000).unwrap().unwrap().1;
    let seqs: Vec<i64> = events.iter().map(|e| e.0).collect();
    assert_eq!(seqs, (1..=seqs.len() as i64).collect::<Vec<_>>(), "every event once, numbered on");
    second.shutdown(Duration::ZERO).await;
}

/// An engine whose model asks to delete a file (a tool that needs approval) and then
/// answers; `deleted` counts the deletions.
fn approval_engine(deleted: Arc<std::sync::atomic::AtomicUsize>) -> Engine {
    let delete = delete_tool(deleted);
    let registry = tackle_tools::ToolRegistry::builder()
        .toolset(tackle_tools::StaticToolset::new("files").tool(delete).approval_required())
        .build()
        .unwrap();
    let model = FunctionModel::new(|request| {
        let answered = has_results(request.messages);
        Ok(if answered {
            AssistantTurn::text("Deleted.")
        } else {
            AssistantTurn {
                parts: vec![AssistantPart::ToolCall(ToolCall::new(
                    "c_del",
                    "delete",
                    json!({"path": "/tmp/a"}),
                ))],
                ..AssistantTurn::default()
            }
        })
    });
    Engine::new(Harness::new(registry), Arc::new(model))
}

async fn serve(server: &Server) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let router = server.router();
    tokio::spawn(async move { axum::serve(tackle_server::nodelay(listener), router).await.unwrap() });
    url
}

/// Approval from a second process: one server runs the run to its suspension and stops;
/// the decision goes to another on the same store, whose worker resumes the run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn decisions_resume_a_suspended_run_from_another_process() {
    for backend in backends() {
        decisions_resume_a_suspended_run_from_another_process_on(backend).await;
    }
}

async fn decisions_resume_a_suspended_run_from_another_process_on(backend: Backend) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let deleted = Arc::new(AtomicUsize::new(0));
    let config = || ServerConfig::default().with_workers(1).with_poll(Duration::from_millis(50));
    let first = Server::start(backend.open(), approval_engine(Arc::clone(&deleted)), config());
    let alice = first.store().create_token("acme", "alice").unwrap();
    let bob = first.store().create_token("acme", "bob").unwrap();
    let owner = first.store().authenticate(&alice).unwrap().unwrap();
    let run = first.store().create_run(&owner, &json!({"prompt": "Delete /tmp/a"}), &new_session()).unwrap();
    let record = settled(first.store().as_ref(), &owner, &run.id).await;
    assert_eq!(record.status, tackle_server::RunStatus::Suspended);
    assert_eq!(deleted.load(Ordering::SeqCst), 0);
    first.shutdown(Duration::ZERO).await;

    let second = Server::start(backend.open(), approval_engine(Arc::clone(&deleted)), config());
    let url = serve(&second).await;
    let http = reqwest::Client::new();
    let decide = |token: &str, body: Value| {
        http.post(format!("{url}/v1/runs/{}/decisions", run.id))
            .bearer_auth(token.to_owned())
            .json(&body)
            .send()
    };
    // Mistakes are answered at once and change nothing.
    let missing = decide(&alice, json!({"decisions": {}})).await.unwrap();
    assert_eq!(missing.status().as_u16(), 422);
    let wrong = decide(&alice, json!({"decisions": {"c_del": {"decision": "result", "result": {"status": "ok", "content": {"text": "x"}}}}})).await.unwrap();
    assert_eq!(wrong.status().as_u16(), 422, "{}", wrong.text().await.unwrap());
    let stranger = decide(&bob, json!({"decisions": {"c_del": {"decision": "approve"}}})).await.unwrap();
    assert_eq!(stranger.status().as_u16(), 404);

    let approved = decide(&alice, json!({"decisions": {"c_del": {"decision": "approve"}}})).await.unwrap();
    assert_eq!(approved.status().as_u16(), 202);
    let record = settled(second.store().as_ref(), &owner, &run.id).await;
    assert_eq!(record.status, tackle_server::RunStatus::Answered, "{:?}", record.error);
    assert_eq!(record.answer.as_deref(), Some("Deleted."));
    assert_eq!(deleted.load(Ordering::SeqCst), 1);
    let again = decide(&alice, json!({"decisions": {"c_del": {"decision": "approve"}}})).await.unwrap();
    assert_eq!(again.status().as_u16(), 409, "decided once only");
    let events = second.store().follow(&owner, &run.id, 0, 1000).unwrap().unwrap().1;
    assert!(events.iter().any(|e| e.1.contains("\"suspended\"")));
    assert!(events.iter().any(|e| e.1.contains("\"tool_call_finished\"")));
    second.shutdown(Duration::ZERO).await;
}

/// The model's multiple-choice questions (`ask_user_question`): answers are checked against
/// the questions (a wrong label is refused, nothing decided) and worded for the model.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_to_the_models_questions_are_checked_and_worded() {
    for backend in backends() {
        answers_to_the_models_questions_are_checked_and_worded_on(backend).await;
    }
}

async fn answers_to_the_models_questions_are_checked_and_worded_on(backend: Backend) {
    let registry =
        tackle_tools::ToolRegistry::builder().tool(tackle_env::ask_user_question().unwrap()).build().unwrap();
    let model = FunctionModel::new(|request| {
        Ok(if has_results(request.messages) {
            AssistantTurn::text("Noted.")
        } else {
            let questions = json!({"questions": [{"header": "Colour", "question": "Which colour?",
                "options": [{"label": "Red", "description": "warm"}, {"label": "Blue", "description": "cool"}]}]});
            AssistantTurn {
                parts: vec![AssistantPart::ToolCall(ToolCall::new("c_ask", "ask_user_question", questions))],
                ..AssistantTurn::default()
            }
        })
    });
    let config = ServerConfig::default().with_workers(1).with_poll(Duration::from_millis(50));
    let server = Server::start(backend.open(), Engine::new(Harness::new(registry), Arc::new(model)), config);
    let alice = server.store().create_token("acme", "alice").unwrap();
    let owner = server.store().authenticate(&alice).unwrap().unwrap();
    let run = server.store().create_run(&owner, &json!({"prompt": "Pick for me"}), &new_session()).unwrap();
    assert_eq!(
        settled(server.store().as_ref(), &owner, &run.id).await.status,
        tackle_server::RunStatus::Suspended
    );
    let url = serve(&server).await;
    let http = reqwest::Client::new();
    let decide = |body: Value| {
        http.post(format!("{url}/v1/runs/{}/decisions", run.id)).bearer_auth(alice.clone()).json(&body).send()
    };
    let wrong = decide(json!({"decisions": {"c_ask": {"decision": "answers", "answers": [["Green"]]}}}))
        .await
        .unwrap();
    assert_eq!(wrong.status().as_u16(), 422);
    let text = wrong.text().await.unwrap();
    let problem: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(problem["detail"], "\"c_ask\": answer 1: \"Green\" is not an option (Red, Blue)");
    let elsewhere =
        decide(json!({"decisions": {"c_other": {"decision": "answers", "answers": ["x"]}}})).await.unwrap();
    assert_eq!(elsewhere.status().as_u16(), 422);

    let chosen = decide(json!({"decisions": {"c_ask": {"decision": "answers", "answers": [["Blue"]]}}}))
        .await
        .unwrap();
    assert_eq!(chosen.status().as_u16(), 202);
    let record = settled(server.store().as_ref(), &owner, &run.id).await;
    assert_eq!(record.answer.as_deref(), Some("Noted."), "{:?}", record.error);
    let events = server.store().follow(&owner, &run.id, 0, 1000).unwrap().unwrap().1;
    let finished = events.iter().find(|e| e.1.contains("\"tool_call_finished\"")).unwrap();
    assert!(finished.1.contains("Colour (Which colour?): Blue"), "{}", finished.1);
    server.shutdown(Duration::ZERO).await;
}

/// Cancel: a suspended run is cancelled at once; a running one stops.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancel_stops_a_run() {
    for backend in backends() {
        cancel_stops_a_run_on(backend).await;
    }
}

async fn cancel_stops_a_run_on(backend: Backend) {
    let deleted = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let config = ServerConfig::default().with_workers(1).with_poll(Duration::from_millis(50));
    let server = Server::start(backend.open(), approval_engine(deleted), config);
    let url = serve(&server).await;
    let token = server.store().create_token("acme", "alice").unwrap();
    let owner = server.store().authenticate(&token).unwrap().unwrap();
    let run = server.store().create_run(&owner, &json!({"prompt": "Delete /tmp/a"}), &new_session()).unwrap();
    settled(server.store().as_ref(), &owner, &run.id).await;
    let http = reqwest::Client::new();
    let cancelled =
        http.post(format!("{url}/v1/runs/{}/cancel", run.id)).bearer_auth(&token).send().await.unwrap();
    assert_eq!(cancelled.status().as_u16(), 202);
    let body: Value = cancelled.json().await.unwrap();
    assert_eq!(body["status"], "cancelled");
    assert_eq!(
        server.store().run(&owner, &run.id).unwrap().unwrap().status,
        tackle_server::RunStatus::Cancelled
    );
    server.shutdown(Duration::ZERO).await;

    // A running one: its tool waits until the run is cancelled.
    let slow =
        tackle_tools::typed_tool("wait", "Wait.", |ctx: tackle_tools::ToolContext, _: Empty| async move {
            ctx.cancellation().cancelled().await;
            Ok::<_, tackle_tools::ToolError>("stopped")
        })
        .build()
        .unwrap();
    let model = FunctionModel::new(|_| {
        Ok(AssistantTurn {
            parts: vec![AssistantPart::ToolCall(ToolCall::new("c_wait", "wait", json!({})))],
            ..AssistantTurn::default()
        })
    });
    let engine = Engine::new(
        Harness::new(tackle_tools::ToolRegistry::builder().tool(slow).build().unwrap()),
        Arc::new(model),
    );
    let server = Server::start(backend.open(), engine, ServerConfig::default().with_workers(1));
    let url = serve(&server).await;
    let run = server.store().create_run(&owner, &json!({"prompt": "Wait."}), &new_session()).unwrap();
    for _ in 0..100 {
        if server.store().run(&owner, &run.id).unwrap().unwrap().status == tackle_server::RunStatus::Running {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let cancelled =
        http.post(format!("{url}/v1/runs/{}/cancel", run.id)).bearer_auth(&token).send().await.unwrap();
    assert_eq!(cancelled.status().as_u16(), 202);
    let record = settled(server.store().as_ref(), &owner, &run.id).await;
    assert_eq!(record.status, tackle_server::RunStatus::Cancelled, "{:?}", record.error);
    server.shutdown(Duration::ZERO).await;
}

/// Shutting down with a grace period: no new run is claimed, the run under way finishes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_graceful_shutdown_lets_the_run_under_way_finish() {
    for backend in backends() {
        let slow = tackle_tools::typed_tool(
            "slow",
            "Take a moment.",
            |_ctx: tackle_tools::ToolContext, _: Empty| async move {
                tokio::time::sleep(Duration::from_millis(300)).await;
                Ok::<_, tackle_tools::ToolError>("done")
            },
        )
        .build()
        .unwrap();
        let model = FunctionModel::new(|request| {
            let answered = has_results(request.messages);
            Ok(if answered {
                AssistantTurn::text("Finished.")
            } else {
                AssistantTurn {
                    parts: vec![AssistantPart::ToolCall(ToolCall::new("c_slow", "slow", json!({})))],
                    ..AssistantTurn::default()
                }
            })
        });
        let engine = Engine::new(
            Harness::new(tackle_tools::ToolRegistry::builder().tool(slow).build().unwrap()),
            Arc::new(model),
        );
        let server = Server::start(
            backend.open(),
            engine,
            ServerConfig::default().with_workers(1).with_poll(Duration::from_millis(20)),
        );
        let token = server.store().create_token("acme", "alice").unwrap();
        let owner = server.store().authenticate(&token).unwrap().unwrap();
        let run = server.store().create_run(&owner, &json!({"prompt": "Go."}), &new_session()).unwrap();
        for _ in 0..100 {
            if server.store().run(&owner, &run.id).unwrap().unwrap().status
                == tackle_server::RunStatus::Running
            {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let store = Arc::clone(server.store());
        server.shutdown(Duration::from_secs(10)).await;
        let record = store.run(&owner, &run.id).unwrap().unwrap();
        assert_eq!(record.status, tackle_server::RunStatus::Answered, "{:?}", record.error);
        // Nothing is claimed after the shutdown began.
        let later = store.create_run(&owner, &json!({"prompt": "Again."}), &new_session()).unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert_eq!(store.run(&owner, &later.id).unwrap().unwrap().status, tackle_server::RunStatus::Queued);
    }
}

/// `/v1/tools`, `/metrics` and `/openapi.json`: every documented path is served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_metrics_and_the_api_description() {
    let backend = backends().remove(0);
    let running = start(&backend).await;
    let alice = running.token("acme", "alice");
    let (status, _, body) = running.get(Some(&alice), "/v1/tools", None).await;
    assert_eq!(status, 200);
    let tools: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(tools["tools"][0]["name"], "add");
    assert_eq!(tools["tools"][0]["offered"], true);
    assert_eq!(running.get(None, "/v1/tools", None).await.0, 401);

    let (_, created) = running.post(&alice, r#"{"prompt": "2+40?"}"#).await;
    let id = created["id"].as_str().unwrap().to_owned();
    running.get(Some(&alice), &format!("/v1/runs/{id}/events"), None).await;
    let (status, kind, metrics) = running.get(None, "/metrics", None).await;
    assert_eq!(status, 200);
    assert!(kind.starts_with("application/openmetrics-text"), "{kind}");
    assert!(metrics.contains("tackle_server_runs_created_total 1"), "{metrics}");
    assert!(metrics.contains("tackle_server_runs_settled_total{status=\"answered\"} 1"), "{metrics}");
    assert!(
        metrics.contains("tackle_server_tool_calls_total{gen_ai_tool_name=\"add\",status=\"ok\"} 1"),
        "{metrics}"
    );
    assert!(
        metrics.contains(
            "tackle_server_tool_call_duration_seconds_count{gen_ai_tool_name=\"add\",status=\"ok\"} 1"
        ),
        "{metrics}"
    );
    assert!(
        metrics.contains("gen_ai_client_token_usage_count{gen_ai_operation_name=\"chat\",gen_ai_provider_name=\"test\",gen_ai_request_model=\"function\",gen_ai_token_type=\"input\"} 2"),
        "two rounds: {metrics}"
    );
    assert!(
        metrics.contains("gen_ai_client_operation_duration_seconds_count{gen_ai_operation_name=\"chat\",gen_ai_provider_name=\"test\",gen_ai_request_model=\"function\"} 2"),
        "two rounds timed: {metrics}"
    );
    assert!(metrics.contains("tackle_server_runs_running 0"), "{metrics}");

    let (status, _, document) = running.get(None, "/openapi.json", None).await;
    assert_eq!(status, 200);
    let document: Value = serde_json::from_str(&document).unwrap();
    assert_eq!(document["openapi"], "3.1.0");
    let paths: Vec<&str> = document["paths"].as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        paths,
        [
            "/v1/runs",
            "/v1/runs/{id}",
            "/v1/runs/{id}/events",
            "/v1/runs/{id}/decisions",
            "/v1/runs/{id}/cancel",
            "/v1/sessions",
            "/v1/sessions/{id}",
            "/v1/tools",
            "/v1/me",
            "/v1/usage",
            "/healthz",
            "/readyz",
            "/metrics",
            "/openapi.json"
        ]
    );
    for (path, operations) in document["paths"].as_object().unwrap() {
        for method in operations.as_object().unwrap().keys() {
            let url = format!("{}{}", running.url, path.replace("{id}", &id));
            let request = match method.as_str() {
                "post" => running.http.post(&url).body("{}"),
                "put" => running.http.put(&url).body("{}"),
                _ => running.http.get(&url),
            };
            let response =
                request.bearer_auth(&alice).header("content-type", "application/json").send().await.unwrap();
            let text = response.text().await.unwrap();
            assert!(!text.contains("no such endpoint"), "{method} {path} is documented but not served");
        }
    }
    running.server.shutdown(Duration::ZERO).await;
}

/// The store's own rules, on every backend: one claim per lease, only the holder writes,
/// events numbered on without gaps, a lapsed lease taken over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_store_keeps_the_lease_rules() {
    for backend in backends() {
        let store = backend.open();
        let token = store.create_token("o", "u").unwrap();
        let owner = store.authenticate(&token).unwrap().unwrap();
        let run = store.create_run(&owner, &json!({"prompt": "x"}), &new_session()).unwrap();
        let lease = Duration::from_secs(30);
        assert_eq!(store.claim("w1", lease).unwrap().unwrap().id, run.id);
        assert!(store.claim("w2", lease).unwrap().is_none());
        assert_eq!(
            store.append_events(&run.id, "w1", &["a".into(), "b".into()], &[], Some("{}")).unwrap(),
            Some(2)
        );
        assert_eq!(store.append_events(&run.id, "w2", &["c".into()], &[], Some("{\"x\":1}")).unwrap(), None);
        assert_eq!(store.append_events(&run.id, "w1", &[], &[], Some("{\"y\":2}")).unwrap(), Some(2));
        assert_eq!(store.append_events(&run.id, "w1", &["c".into()], &[], None).unwrap(), Some(3));
        let record = store.run(&owner, &run.id).unwrap().unwrap();
        assert_eq!(record.state.as_deref(), Some("{\"y\":2}"), "only the holder's checkpoint is kept");
        let seqs: Vec<i64> =
            store.follow(&owner, &run.id, 1, 10).unwrap().unwrap().1.into_iter().map(|e| e.0).collect();
        assert_eq!(seqs, vec![2, 3]);
        assert!(store.release(&run.id, "w1").unwrap());
        assert_eq!(
            store.claim("w2", lease).unwrap().unwrap().id,
            run.id,
            "a released lease is taken at once"
        );
        assert!(!store.heartbeat(&run.id, "w1", lease).unwrap());
        assert_eq!(store.append_events(&run.id, "w2", &["d".into()], &[], None).unwrap(), Some(4));
    }
}

/// A run resumed with decisions went on past them and its server stopped in a later
/// batch: the run taken over is recovered (its decisions are not applied a second time),
/// the later call is reported interrupted, and nothing ran twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_that_went_on_after_its_decisions_is_recovered_not_resumed_again() {
    for backend in backends() {
        a_run_that_went_on_after_its_decisions_on(backend).await;
    }
}

async fn a_run_that_went_on_after_its_decisions_on(backend: Backend) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let deleted = Arc::new(AtomicUsize::new(0));
    let charged = Arc::new(AtomicUsize::new(0));
    let engine = || {
        let (delete, charge) = (delete_tool(Arc::clone(&deleted)), charge_tool(Arc::clone(&charged)));
        let registry = tackle_tools::ToolRegistry::builder()
            .toolset(tackle_tools::StaticToolset::new("files").tool(delete).approval_required())
            .tool(charge)
            .build()
            .unwrap();
        let model = FunctionModel::new(|request| {
            let results = request
                .messages
                .iter()
                .filter(|m| matches!(m, Message::User { parts } if parts.iter().any(|p| matches!(p, UserPart::ToolReturn(_)))))
                .count();
            Ok(match results {
                0 => AssistantTurn {
                    parts: vec![AssistantPart::ToolCall(ToolCall::new(
                        "c_del",
                        "delete",
                        json!({"path": "/tmp/a"}),
                    ))],
                    ..AssistantTurn::default()
                },
                1 => AssistantTurn {
                    parts: vec![AssistantPart::ToolCall(ToolCall::new("c_charge", "charge", json!({})))],
                    ..AssistantTurn::default()
                },
                _ => AssistantTurn::text("Done."),
            })
        });
        Engine::new(Harness::new(registry), Arc::new(model))
    };
    let config = || ServerConfig::default().with_workers(1).with_poll(Duration::from_millis(50));
    let first = Server::start(backend.open(), engine(), config());
    let token = first.store().create_token("acme", "alice").unwrap();
    let owner = first.store().authenticate(&token).unwrap().unwrap();
    let run =
        first.store().create_run(&owner, &json!({"prompt": "Delete and charge."}), &new_session()).unwrap();
    assert_eq!(
        settled(first.store().as_ref(), &owner, &run.id).await.status,
        tackle_server::RunStatus::Suspended
    );
    assert!(
        first.store().submit_decisions(&owner, &run.id, r#"{"c_del": {"decision": "approve"}}"#).unwrap()
    );
    for _ in 0..200 {
        if charged.load(Ordering::SeqCst) == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(charged.load(Ordering::SeqCst), 1, "the run went on to the charge");
    first.shutdown(Duration::ZERO).await;

    let second = Server::start(backend.open(), engine(), config());
    let record = settled(second.store().as_ref(), &owner, &run.id).await;
    assert_eq!(record.status, tackle_server::RunStatus::Answered, "{:?}", record.error);
    assert_eq!((deleted.load(Ordering::SeqCst), charged.load(Ordering::SeqCst)), (1, 1), "nothing ran twice");
    second.shutdown(Duration::ZERO).await;
}

/// Following runs that are not there (or not the caller's) leaves nothing behind.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn probing_for_runs_leaves_nothing_behind() {
    let backend = backends().remove(0);
    let running = start(&backend).await;
    let alice = running.token("acme", "alice");
    for i in 0..50 {
        let (status, _, _) = running.get(Some(&alice), &format!("/v1/runs/run_{i}/events"), None).await;
        assert_eq!(status, 404);
    }
    assert_eq!(running.server.followed(), 0, "no wake-up channel kept for a run never followed");
    running.server.shutdown(Duration::ZERO).await;
}

/// Two servers on one PostgreSQL, each polling the store only every 10 s: a run queued
/// through one is taken up at once by the other (the notification wakes a worker there),
/// and a client following it on the first sees its events as they are written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_process_hears_of_queued_runs_and_written_events_at_once() {
    for backend in backends() {
        if matches!(backend, Backend::Postgres(_)) {
            another_process_hears_on(backend).await;
        }
    }
}

async fn another_process_hears_on(backend: Backend) {
    let answering = |text: &'static str| {
        let harness = Harness::new(tackle_tools::ToolRegistry::builder().tool(add_tool()).build().unwrap());
        Engine::new(harness, Arc::new(FunctionModel::new(move |_| Ok(AssistantTurn::text(text)))))
    };
    let config = || ServerConfig::default().with_workers(1).with_poll(Duration::from_secs(10));
    let first = Server::start(backend.open(), answering("from the first"), config());
    let second = Server::start(backend.open(), answering("from the second"), config());
    // Both have looked at the store and found nothing; they wait (up to 10 s).
    tokio::time::sleep(Duration::from_millis(300)).await;
    let url = serve(&first).await;
    let token = first.store().create_token("acme", "alice").unwrap();
    let owner = first.store().authenticate(&token).unwrap().unwrap();
    // Queued without waking anyone here: only the notification can.
    let run = first.store().create_run(&owner, &json!({"prompt": "hi"}), &new_session()).unwrap();
    let started = std::time::Instant::now();
    let body = reqwest::Client::new()
        .get(format!("{url}/v1/runs/{}/events", run.id))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
    assert!(body.contains("\"finished\""), "{body}");
    let record = first.store().run(&owner, &run.id).unwrap().unwrap();
    assert_eq!(record.answer.as_deref(), Some("from the second"));
    first.shutdown(Duration::ZERO).await;
    second.shutdown(Duration::ZERO).await;
}
