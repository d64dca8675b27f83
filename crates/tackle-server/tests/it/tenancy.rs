//! Sessions, the organisation's policy, plans, preferences, secrets and credits, through
//! the HTTP API on every backend.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tackle_core::{
    AssistantPart, AssistantTurn, Confidence, Cost, Message, SettingField, ToolCall, Usage, UserPart,
};
use tackle_harness::Harness;
use tackle_server::store::SessionLink;
use tackle_server::{Engine, ModelEntry, PlanRecord, Price, SecretKey, Server, ServerConfig, StoreError};
use tackle_test::FunctionModel;

use super::{Backend, backends, serve};

/// A client of one server.
struct Client {
    url: String,
    http: reqwest::Client,
}

impl Client {
    async fn send(
        &self,
        method: reqwest::Method,
        token: &str,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut request = self.http.request(method, format!("{}{path}", self.url)).bearer_auth(token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = tokio::time::timeout(Duration::from_secs(20), request.send()).await.unwrap().unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    async fn get(&self, token: &str, path: &str) -> (u16, Value) {
        self.send(reqwest::Method::GET, token, path, None).await
    }

    async fn post(&self, token: &str, body: Value) -> (u16, Value) {
        self.send(reqwest::Method::POST, token, "/v1/runs", Some(body)).await
    }

    /// Posts a run and waits for it to settle; the run.
    async fn run(&self, token: &str, body: Value) -> Value {
        let (status, created) = self.post(token, body).await;
        assert_eq!(status, 202, "{created}");
        let id = created["id"].as_str().unwrap().to_owned();
        for _ in 0..400 {
            let (_, run) = self.get(token, &format!("/v1/runs/{id}")).await;
            if !matches!(run["status"].as_str(), Some("queued" | "running")) {
                return run;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("run {id} never settled");
    }
}

async fn start(backend: &Backend, engine: Engine) -> (Server, Client) {
    let config = ServerConfig::default().with_workers(2).with_poll(Duration::from_millis(50));
    let server = Server::start(backend.open(), engine, config);
    let url = serve(&server).await;
    (server, Client { url, http: reqwest::Client::new() })
}

/// The user prompts of a conversation.
fn prompts(messages: &[Message]) -> Vec<String> {
    messages
        .iter()
        .filter_map(|m| match m {
            Message::User { parts } => parts.iter().find_map(|p| match p {
                UserPart::Text(text) => Some(text.clone()),
                UserPart::ToolReturn(_) => None,
            }),
            _ => None,
        })
        .collect()
}

/// A model that says which prompts it has seen and which tools it is offered.
fn echo(name: &'static str) -> FunctionModel {
    FunctionModel::new(move |request| {
        let tools: Vec<&str> = request.tools.iter().map(|t| t.name.as_str()).collect();
        Ok(AssistantTurn::text(format!(
            "{name} saw [{}] with tools [{}]",
            prompts(request.messages).join(" | "),
            tools.join(",")
        )))
    })
}

fn tool(name: &str) -> tackle_tools::ToolBuilder {
    let answer = format!("{name} done");
    tackle_tools::function_tool(
        name,
        "A tool.",
        json!({"type": "object"}),
        move |_ctx: tackle_tools::ToolContext, _args| {
            let answer = answer.clone();
            async move { Ok::<_, tackle_tools::ToolError>(answer) }
        },
    )
}

fn registry() -> tackle_tools::ToolRegistry {
    tackle_tools::ToolRegistry::builder()
        .tool(tool("add").build().unwrap())
        .tool(tool("search").capability("web_search").build().unwrap())
        .tool(tool("remember").keeps_conversation_state().build().unwrap())
        .build()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_carry_the_conversation_and_stay_with_their_owner() {
    for backend in backends() {
        sessions_on(backend).await;
    }
}

async fn sessions_on(backend: Backend) {
    let (server, client) = start(&backend, Engine::new(Harness::new(registry()), Arc::new(echo("m")))).await;
    let alice = server.store().create_token("acme", "alice").unwrap();
    let bob = server.store().create_token("acme", "bob").unwrap();

    let first = client.run(&alice, json!({"prompt": "What is tackle?\nTell me."})).await;
    assert_eq!(first["status"], "answered", "{first}");
    let session = first["session"].as_str().unwrap().to_owned();
    let second = client.run(&alice, json!({"prompt": "And then?", "session": session})).await;
    assert_eq!(second["session"], session.as_str());
    assert_eq!(second["previous"], first["id"]);
    let answer = second["answer"].as_str().unwrap();
    assert!(
        answer.contains("saw [What is tackle?\nTell me. | And then?]"),
        "the conversation goes on: {answer}"
    );

    let (status, listed) = client.get(&alice, "/v1/sessions").await;
    assert_eq!(status, 200);
    assert_eq!(listed["sessions"][0]["id"], session.as_str());
    assert_eq!(listed["sessions"][0]["title"], "What is tackle? Tell me.");
    assert_eq!(listed["sessions"][0]["run_count"], 2);
    let (status, one) = client.get(&alice, &format!("/v1/sessions/{session}")).await;
    assert_eq!(status, 200);
    let ids: Vec<&Value> = one["runs"].as_array().unwrap().iter().map(|r| &r["id"]).collect();
    assert_eq!(ids, vec![&first["id"], &second["id"]]);

    // Bob sees none of it and cannot continue it.
    let (status, listed) = client.get(&bob, "/v1/sessions").await;
    assert_eq!((status, listed["sessions"].as_array().unwrap().len()), (200, 0));
    assert_eq!(client.get(&bob, &format!("/v1/sessions/{session}")).await.0, 404);
    let (status, problem) = client.post(&bob, json!({"prompt": "mine now", "session": session})).await;
    assert_eq!(status, 404, "{problem}");

    // A temporary conversation is kept out of the history and offered no stateful tool.
    let temporary = client.run(&alice, json!({"prompt": "Just once.", "temporary": true})).await;
    assert!(temporary["session"].is_null(), "{temporary}");
    let answer = temporary["answer"].as_str().unwrap();
    assert!(answer.contains("tools [add,search]"), "{answer}");
    let (_, listed) = client.get(&alice, "/v1/sessions").await;
    assert_eq!(listed["sessions"].as_array().unwrap().len(), 1);
    let (status, problem) =
        client.post(&alice, json!({"prompt": "x", "temporary": true, "session": session})).await;
    assert_eq!(status, 422, "{problem}");
    assert_eq!(
        client.post(&alice, json!({"prompt": "x", "sessions": session})).await.0,
        422,
        "unknown fields"
    );
    server.shutdown(Duration::ZERO).await;

    // A session whose last run is still going (or waits) cannot be continued yet.
    let store = backend.open();
    let owner = store.authenticate(&alice).unwrap().unwrap();
    let run =
        store.create_run(&owner, &json!({"prompt": "a"}), &SessionLink::New { title: "a".into() }).unwrap();
    let session = run.session.unwrap();
    let busy = store.create_run(&owner, &json!({"prompt": "b"}), &SessionLink::Continue { session });
    assert!(matches!(busy, Err(StoreError::Conflict(_))), "{busy:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn models_tools_plans_preferences_and_settings_come_from_the_store() {
    for backend in backends() {
        policy_on(backend).await;
    }
}

/// A tool that reports its setting and whether its secret is there, and tries to leak it.
fn greeter() -> tackle_tools::FunctionTool {
    tackle_tools::function_tool(
        "greet",
        "Greets.",
        json!({"type": "object"}),
        |ctx: tackle_tools::ToolContext, _args| async move {
            let greeting = ctx.setting("greeting").unwrap_or("?").to_owned();
            let key = ctx.secret("api_key").map(|k| k.expose().to_owned()).unwrap_or_default();
            Ok::<_, tackle_tools::ToolError>(format!("{greeting}; key {key}"))
        },
    )
    .setting(SettingField::new("greeting").default_value("hello"))
    .setting(SettingField::new("api_key").secret().required())
    .build()
    .unwrap()
}

/// A model that calls `greet` once and repeats what it returned.
fn greeting_model() -> FunctionModel {
    FunctionModel::new(|request| {
        let result = request.messages.iter().rev().find_map(|m| match m {
            Message::User { parts } => parts.iter().find_map(|p| match p {
                UserPart::ToolReturn(r) => Some(r.content.clone()),
                UserPart::Text(_) => None,
            }),
            _ => None,
        });
        Ok(match result {
            Some(result) => AssistantTurn::text(format!("the tool said: {result}")),
            None => AssistantTurn {
                parts: vec![AssistantPart::ToolCall(ToolCall::new("g1", "greet", json!({})))],
                ..AssistantTurn::default()
            },
        })
    })
}

async fn policy_on(backend: Backend) {
    let key_hex = SecretKey::generate().unwrap();
    let key = SecretKey::from_hex(&key_hex).unwrap();
    let registry = tackle_tools::ToolRegistry::builder()
        .tool(tool("add").build().unwrap())
        .tool(tool("search").capability("web_search").build().unwrap())
        .tool(greeter())
        .build()
        .unwrap();
    let models = vec![
        ModelEntry {
            name: "small".into(),
            model: Arc::new(echo("small")),
            confidence: Confidence::Medium,
            price: None,
        },
        ModelEntry {
            name: "large".into(),
            model: Arc::new(echo("large")),
            confidence: Confidence::High,
            price: None,
        },
        ModelEntry {
            name: "greeter".into(),
            model: Arc::new(greeting_model()),
            confidence: Confidence::High,
            price: None,
        },
    ];
    let engine = Engine::with_models(Harness::new(registry), models).unwrap().with_secret_key(key.clone());
    let (server, client) = start(&backend, engine).await;
    let store = server.store();
    let alice = store.create_token("acme", "alice").unwrap();
    let carol = store.create_token("other", "carol").unwrap();
    store
        .set_org_policy(
            "acme",
            &json!({"models": ["small", "greeter"], "locked": {"greet.greeting": "good day"}}).to_string(),
        )
        .unwrap();

    // Models: the organisation's allowance, checked when the run is posted.
    let (status, problem) = client.post(&alice, json!({"prompt": "hi", "model": "large"})).await;
    assert_eq!(status, 403, "{problem}");
    assert!(problem["detail"].as_str().unwrap().contains("not allowed in your organisation"), "{problem}");
    assert_eq!(client.post(&alice, json!({"prompt": "hi", "model": "huge"})).await.0, 403);
    let run = client.run(&alice, json!({"prompt": "hi", "model": "small"})).await;
    assert!(run["answer"].as_str().unwrap().starts_with("small saw"), "{run}");
    let run = client.run(&carol, json!({"prompt": "hi", "model": "large"})).await;
    assert!(
        run["answer"].as_str().unwrap().starts_with("large saw"),
        "another organisation allows it: {run}"
    );
    let (_, me) = client.get(&alice, "/v1/me").await;
    assert_eq!(me["models"], json!(["small", "greeter"]));
    // Without a choice, a run gets the first model the organisation allows.
    store.set_org_policy("other", &json!({"models": ["large"]}).to_string()).unwrap();
    let run = client.run(&carol, json!({"prompt": "hi"})).await;
    assert!(run["answer"].as_str().unwrap().starts_with("large saw"), "{run}");
    store.set_org_policy("other", "{}").unwrap();

    // Tools: a chosen subset is all the model is offered; unknown ones are refused.
    let run = client.run(&alice, json!({"prompt": "hi", "tools": ["add"]})).await;
    assert!(run["answer"].as_str().unwrap().ends_with("tools [add]"), "{run}");
    let (status, problem) = client.post(&alice, json!({"prompt": "hi", "tools": ["nope"]})).await;
    assert_eq!(status, 403, "{problem}");

    // Plans: a plan without web_search takes the search tool away, and says why.
    store
        .set_plan(&PlanRecord {
            name: "basic".into(),
            capabilities: vec!["memory".into()],
            allowance_micros: 0,
        })
        .unwrap();
    let offered = |tools: &Value, name: &str| {
        tools["tools"].as_array().unwrap().iter().find(|t| t["name"] == name).unwrap().clone()
    };
    let (_, tools) = client.get(&alice, "/v1/tools").await;
    assert_eq!(offered(&tools, "search")["offered"], true);
    store.assign_plan("acme", "alice", "basic").unwrap();
    let (_, tools) = client.get(&alice, "/v1/tools").await;
    let search = offered(&tools, "search");
    assert_eq!(search["offered"], false);
    assert!(search["reason"].as_str().unwrap().contains("plan does not include web_search"), "{search}");
    let (status, problem) = client.post(&alice, json!({"prompt": "hi", "tools": ["search"]})).await;
    assert_eq!(status, 403, "{problem}");
    assert!(problem["detail"].as_str().unwrap().contains("web_search"), "{problem}");
    assert!(store.assign_plan("acme", "alice", "gold").is_err(), "no such plan");

    // Preferences: the user turns a tool off; a locked setting or a secret is not theirs.
    let put = |body: Value| client.send(reqwest::Method::PUT, &alice, "/v1/me", Some(body));
    let (status, _) = put(json!({"disabled_tools": ["add"]})).await;
    assert_eq!(status, 200);
    let (_, tools) = client.get(&alice, "/v1/tools").await;
    assert_eq!(offered(&tools, "add")["reason"], "turned off by the user");
    let (status, problem) = put(json!({"settings": {"greet.greeting": "yo"}})).await;
    assert_eq!(status, 422, "{problem}");
    assert!(problem["detail"].as_str().unwrap().contains("locked"), "{problem}");
    assert_eq!(put(json!({"settings": {"greet.api_key": "x"}})).await.0, 422);
    assert_eq!(put(json!({"settings": {"greet.colour": "x"}})).await.0, 422);
    assert_eq!(put(json!({"disabled": ["add"]})).await.0, 422, "unknown fields");

    // The organisation's locked setting and its secret reach the tool; the secret never
    // reaches the model, the answer or the events.
    let (_, tools) = client.get(&alice, "/v1/tools").await;
    assert_eq!(offered(&tools, "greet")["offered"], false, "no key yet: {tools}");
    let secret = "sk-acme-1234567890";
    store.put_secret("acme", "greet.api_key", &key.seal("acme", "greet.api_key", secret).unwrap()).unwrap();
    let run = client.run(&alice, json!({"prompt": "greet me", "model": "greeter"})).await;
    let answer = run["answer"].as_str().unwrap();
    assert!(answer.starts_with("the tool said: good day; key "), "{run}");
    assert!(!answer.contains(secret), "{answer}");
    let events = store
        .follow(&store.authenticate(&alice).unwrap().unwrap(), run["id"].as_str().unwrap(), 0, 1000)
        .unwrap()
        .unwrap()
        .1;
    assert!(!events.iter().any(|(_, e)| e.contains(secret)));
    // Sealed for acme, the value does not open for another organisation's row.
    store.put_secret("other", "greet.api_key", &key.seal("acme", "greet.api_key", secret).unwrap()).unwrap();
    let run = client.run(&carol, json!({"prompt": "greet me"})).await;
    assert_eq!(run["status"], "failed");
    assert!(run["error"].as_str().unwrap().contains("does not open"), "{run}");
    let (status, problem) = client.post(&carol, json!({"prompt": "greet me", "model": "greeter"})).await;
    assert_eq!(status, 503, "a server fault, not the user's: {problem}");
    server.shutdown(Duration::ZERO).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn credits_are_charged_once_and_a_run_stops_cleanly_when_they_run_out() {
    for backend in backends() {
        credits_on(backend).await;
    }
}

/// A model that looks something up every round (1,000 input tokens a round) and never
/// answers on its own.
fn spender() -> FunctionModel {
    FunctionModel::new(|request| {
        let round = request.messages.len();
        Ok(AssistantTurn {
            parts: vec![AssistantPart::ToolCall(ToolCall::new(format!("c{round}"), "lookup", json!({})))],
            usage: Usage::default().input_tokens(1_000).output_tokens(0).requests(1),
            ..AssistantTurn::default()
        })
    })
}

async fn credits_on(backend: Backend) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let lookups = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&lookups);
    let lookup = tackle_tools::function_tool(
        "lookup",
        "Looks up.",
        json!({"type": "object"}),
        move |_ctx: tackle_tools::ToolContext, _args| {
            counted.fetch_add(1, Ordering::SeqCst);
            async move { Ok::<_, tackle_tools::ToolError>("found") }
        },
    )
    .cost(Cost::credits(2.0))
    .build()
    .unwrap();
    let registry = tackle_tools::ToolRegistry::builder().tool(lookup).build().unwrap();
    // A credit per round of 1,000 input tokens; a round needs one credit to start.
    let price =
        Price { input: Cost::credits(1_000.0), round_minimum: Cost::credits(1.0), ..Price::default() };
    let harness = Harness::new(registry).limits(tackle_harness::Limits::default().max_rounds(20));
    let engine = Engine::new(harness, Arc::new(spender())).with_price(price);
    let (server, client) = start(&backend, engine).await;
    let store = server.store();
    let alice = store.create_token("acme", "alice").unwrap();
    let bob = store.create_token("acme", "bob").unwrap();
    assert_eq!(store.grant("acme", "alice", 5_000_000, "trial").unwrap(), 5_000_000);

    // 5 credits: round 1 (1) and a lookup (2); round 2 (1); the next lookup (2) is refused
    // with 1 left; round 3 (1); its lookup refused; round 4 finds nothing left.
    let run = client.run(&alice, json!({"prompt": "spend"})).await;
    assert_eq!(run["status"], "failed", "{run}");
    let error = run["error"].as_str().unwrap();
    assert!(error.contains("out of credits: the balance is 0 credits"), "{error}");
    assert_eq!(lookups.load(Ordering::SeqCst), 1, "refused calls never ran");
    let state: Value = serde_json::from_str(
        store
            .run(&store.authenticate(&alice).unwrap().unwrap(), run["id"].as_str().unwrap())
            .unwrap()
            .unwrap()
            .state
            .as_deref()
            .unwrap(),
    )
    .unwrap();
    let history = state["messages"].to_string();
    assert_eq!(history.matches("not run: out of credits").count(), 2, "{history}");
    assert!(history.contains("this call costs 2 credits; the balance is 1 credits"), "{history}");

    let (status, usage) = client.get(&alice, "/v1/usage").await;
    assert_eq!(status, 200);
    assert_eq!(usage["balance"], 0.0, "{usage}");
    assert_eq!(usage["granted"], 5.0, "{usage}");
    assert_eq!(usage["spent"], 5.0, "{usage}");
    assert_eq!(usage["runs"][0]["model"], 3.0, "{usage}");
    assert_eq!(usage["runs"][0]["tools"], 2.0, "{usage}");
    let (_, one) = client.get(&alice, &format!("/v1/usage?run={}", run["id"].as_str().unwrap())).await;
    assert_eq!(one["runs"].as_array().unwrap().len(), 1);
    // Nothing of Alice's shows to Bob, who is not metered: his runs go on, and are counted.
    let (_, theirs) = client.get(&bob, &format!("/v1/usage?run={}", run["id"].as_str().unwrap())).await;
    assert_eq!(theirs["runs"].as_array().unwrap().len(), 0);
    assert!(theirs["balance"].is_null());
    let run = client.run(&bob, json!({"prompt": "spend"})).await;
    assert_eq!(run["status"], "answered", "bob ran to the round limit: {run}");
    let (_, usage) = client.get(&bob, "/v1/usage").await;
    assert_eq!(usage["runs"][0]["model"], 20.0, "{usage}");
    assert_eq!(usage["runs"][0]["tools"], 38.0, "19 lookups, the last round's call not run: {usage}");

    // A charge is taken once per key, and refused when the balance does not cover it.
    let owner = store.authenticate(&alice).unwrap().unwrap();
    let charge =
        tackle_server::store::Charge { key: "call:x", kind: "tool", detail: "lookup", amount_micros: 1 };
    assert_eq!(store.charge(&owner, "r", &charge, true).unwrap(), tackle_server::store::Charged::Refused(0));
    store.grant("acme", "alice", 1, "top-up").unwrap();
    assert_eq!(
        store.charge(&owner, "r", &charge, true).unwrap(),
        tackle_server::store::Charged::Taken(Some(0))
    );
    assert_eq!(store.charge(&owner, "r", &charge, true).unwrap(), tackle_server::store::Charged::Already);
    server.shutdown(Duration::ZERO).await;
}
