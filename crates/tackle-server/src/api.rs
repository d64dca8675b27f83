//! The HTTP API: runs, their events over SSE, health. Every error is an RFC 9457 problem.

use std::convert::Infallible;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::Stream;
use serde::Deserialize;
use serde_json::json;

use crate::Shared;
use crate::policy::{self, Asked, Profile};
use crate::store::{Principal, SessionLink, StoreError};
use crate::worker::blocking;

/// An RFC 9457 problem.
#[derive(Debug)]
pub(crate) struct Problem {
    status: StatusCode,
    title: &'static str,
    detail: String,
}

impl Problem {
    fn new(status: StatusCode, title: &'static str, detail: impl Into<String>) -> Self {
        Problem { status, title, detail: detail.into() }
    }

    fn not_found(what: &str) -> Self {
        Problem::new(StatusCode::NOT_FOUND, "Not found", format!("no {what} with that id is yours"))
    }

    fn store(error: StoreError) -> Self {
        match error {
            StoreError::NotFound(detail) => Problem::new(StatusCode::NOT_FOUND, "Not found", detail),
            StoreError::Conflict(detail) => Problem::new(StatusCode::CONFLICT, "Conflict", detail),
            StoreError::Invalid(detail) => {
                Problem::new(StatusCode::UNPROCESSABLE_ENTITY, "Invalid request", detail)
            }
            error => {
                tracing::warn!(%error, "the store failed");
                Problem::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "Store unavailable",
                    "the store could not be reached; try again",
                )
            }
        }
    }

    fn invalid(detail: impl Into<String>) -> Self {
        Problem::new(StatusCode::UNPROCESSABLE_ENTITY, "Invalid request body", detail)
    }

    fn setup(error: policy::SetupError) -> Self {
        match error {
            policy::SetupError::Refused(detail) => Problem::new(StatusCode::FORBIDDEN, "Not allowed", detail),
            policy::SetupError::Broken(detail) => {
                Problem::new(StatusCode::SERVICE_UNAVAILABLE, "Runs cannot be set up", detail)
            }
        }
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let body = json!({
            "type": "about:blank",
            "title": self.title,
            "status": self.status.as_u16(),
            "detail": self.detail,
        });
        let mut response = (self.status, body.to_string()).into_response();
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/problem+json"));
        response
    }
}

pub(crate) fn router(shared: Arc<Shared>) -> Router {
    let max_body = shared.config.max_body;
    Router::new()
        .route("/v1/runs", post(create_run))
        .route("/v1/runs/{id}", get(get_run))
        .route("/v1/runs/{id}/events", get(events))
        .route("/v1/runs/{id}/decisions", post(decide))
        .route("/v1/runs/{id}/cancel", post(cancel))
        .route("/v1/sessions", get(sessions))
        .route("/v1/sessions/{id}", get(session))
        .route("/v1/tools", get(tools))
        .route("/v1/me", get(me).put(set_me))
        .route("/v1/usage", get(usage))
        .route("/openapi.json", get(|| async { axum::Json(crate::openapi::document()) }))
        .route("/metrics", get(metrics))
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(ready))
        .route("/", get(crate::web::index))
        .route("/{file}", get(crate::web::asset))
        .fallback(|| async { Problem::new(StatusCode::NOT_FOUND, "Not found", "no such endpoint") })
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(shared)
}

/// The token's principal, or 401.
async fn principal(shared: &Arc<Shared>, headers: &HeaderMap) -> Result<Principal, Problem> {
    let unauthorised = |detail: &str| Problem::new(StatusCode::UNAUTHORIZED, "Unauthorised", detail);
    let value = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| unauthorised("send `Authorization: Bearer <token>`"))?;
    let token = value.strip_prefix("Bearer ").map(str::trim).filter(|t| !t.is_empty());
    let token = token.ok_or_else(|| unauthorised("send `Authorization: Bearer <token>`"))?.to_owned();
    blocking(&shared.store, move |s| s.authenticate(&token))
        .await
        .map_err(Problem::store)?
        .ok_or_else(|| unauthorised("the token is not known"))
}

/// `POST /v1/runs`: what a client may ask.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RunRequest {
    /// The user's prompt.
    prompt: String,
    /// The session to continue; absent: a new one.
    #[serde(default)]
    session: Option<String>,
    /// The model, by the server's name for it, among those the organisation allows.
    #[serde(default)]
    model: Option<String>,
    /// The tools the run may be offered (each one offered to this user); absent: all.
    #[serde(default)]
    tools: Option<std::collections::BTreeSet<String>>,
    /// A temporary conversation: kept out of the history, without tools that keep state.
    #[serde(default)]
    temporary: bool,
}

/// The body as JSON of type `T`, or the problem with it.
fn body_of<T: serde::de::DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, Problem> {
    let body = body.map_err(|rejection| {
        Problem::new(rejection.status(), "Request body refused", rejection.body_text())
    })?;
    serde_json::from_slice(&body).map_err(|e| Problem::invalid(e.to_string()))
}

async fn create_run(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, Problem> {
    let owner = principal(&shared, &headers).await?;
    let request: RunRequest = body_of(body)?;
    if request.prompt.trim().is_empty() {
        return Err(Problem::invalid("the prompt is empty"));
    }
    let link = match (&request.session, request.temporary) {
        (Some(_), true) => {
            return Err(Problem::invalid("a temporary conversation has no session to continue"));
        }
        (Some(session), false) => SessionLink::Continue { session: session.clone() },
        (None, true) => SessionLink::Temporary,
        (None, false) => SessionLink::New { title: tackle_harness::conversation_title(&request.prompt) },
    };
    // A traced caller's run joins its trace: a well-formed `traceparent` (anything else is
    // ignored, as the W3C spec asks) and a `tracestate` of sensible length.
    let traceparent = headers
        .get("traceparent")
        .and_then(|v| v.to_str().ok())
        .and_then(tackle_core::telemetry::parse_traceparent)
        .map(|trace| trace.traceparent);
    let tracestate = traceparent
        .as_ref()
        .and_then(|_| headers.get("tracestate"))
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|v| !v.is_empty() && v.len() <= 512)
        .map(str::to_owned);
    let asked = Asked {
        prompt: request.prompt,
        model: request.model,
        tools: request.tools,
        temporary: request.temporary,
        traceparent,
        tracestate,
    };
    // What was chosen is checked now, so that a mistake is answered here (and again when
    // the run starts, should the organisation change its mind in between).
    if asked.model.is_some() || asked.tools.is_some() {
        let who = owner.clone();
        let tenant = blocking(&shared.store, move |s| s.tenant(&who)).await.map_err(Problem::store)?;
        policy::check(&shared.engine, &owner, &tenant, &asked).map_err(Problem::setup)?;
    }
    let stored = serde_json::to_value(&asked).map_err(|e| Problem::invalid(e.to_string()))?;
    let run = blocking(&shared.store, move |s| s.create_run(&owner, &stored, &link))
        .await
        .map_err(Problem::store)?;
    shared.metrics.runs_created.inc();
    shared.work_added.notify_one();
    let location = format!("/v1/runs/{}", run.id);
    let body = json!({"id": run.id, "status": run.status, "session": run.session, "events": format!("{location}/events")});
    let mut response = (StatusCode::ACCEPTED, axum::Json(body)).into_response();
    if let Ok(value) = HeaderValue::from_str(&location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    Ok(response)
}

async fn get_run(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Problem> {
    let owner = principal(&shared, &headers).await?;
    let run = blocking(&shared.store, move |s| s.run(&owner, &id)).await.map_err(Problem::store)?;
    let run = run.ok_or_else(|| Problem::not_found("run"))?;
    Ok(axum::Json(run).into_response())
}

/// How many events one read of the store brings.
const PAGE: usize = 500;

/// `GET /v1/runs/{id}/events`: every event after `Last-Event-ID` (or from the start), each
/// with its sequence number as the SSE id, then the stream ends once the run is settled.
async fn events(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, Problem> {
    let owner = principal(&shared, &headers).await?;
    let after = match headers.get("last-event-id") {
        None => 0,
        Some(value) => {
            value.to_str().ok().and_then(|v| v.trim().parse::<i64>().ok()).filter(|n| *n >= 0).ok_or_else(
                || {
                    Problem::new(
                        StatusCode::BAD_REQUEST,
                        "Bad Last-Event-ID",
                        "Last-Event-ID must be an event number",
                    )
                },
            )?
        }
    };
    // Listening starts before the first read, so that nothing written after it is missed;
    // on a refusal the stream state is dropped, and the wake-up channel with it.
    let notes = shared.follow(&id);
    let (who, run_id) = (owner.clone(), id.clone());
    let mut state = Follow {
        shared,
        owner,
        id,
        after,
        pending: std::collections::VecDeque::new(),
        notes,
        stale: false,
        idle: 0,
        finished: false,
    };
    let (status, first) = blocking(&state.shared.store, move |s| s.follow(&who, &run_id, after, PAGE))
        .await
        .map_err(Problem::store)?
        .ok_or_else(|| Problem::not_found("run"))?;
    state.take(status, first);
    let stream = futures_util::stream::unfold(state, |mut follow| async move {
        let event = follow.next().await?;
        Some((Ok(event), follow))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

struct Follow {
    shared: Arc<Shared>,
    owner: Principal,
    id: String,
    after: i64,
    pending: std::collections::VecDeque<(i64, String)>,
    /// What this process writes of the run.
    notes: tokio::sync::broadcast::Receiver<crate::Note>,
    /// Whether the store must be read (after a gap, a full page, and when told).
    stale: bool,
    /// Reads of the store in a row that found nothing: the next one waits longer.
    idle: u32,
    /// The run is settled and every event it has is pending or sent.
    finished: bool,
}

impl Drop for Follow {
    fn drop(&mut self) {
        // The last stream of a run takes its wake-up channel with it.
        let mut changes = self.shared.changes.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if changes.get(&self.id).is_some_and(|sender| sender.receiver_count() <= 1) {
            changes.remove(&self.id);
        }
    }
}

impl Follow {
    /// Takes what one read of the store found: the run's status and its events after
    /// `after`, read together (a run settled in that read has all its events in it).
    fn take(&mut self, status: crate::RunStatus, events: Vec<(i64, String)>) {
        let full = events.len() == PAGE;
        self.idle = if events.is_empty() { self.idle.saturating_add(1) } else { 0 };
        if let Some((last, _)) = events.last() {
            self.after = self.after.max(*last);
        }
        self.pending.extend(events);
        // A full page: there may be more to read before listening.
        self.stale = full;
        self.finished = status.is_settled() && !full;
    }

    /// The next event, waiting for it; `None` once the run is settled and every event sent.
    async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some((seq, data)) = self.pending.pop_front() {
                return Some(Event::default().id(seq.to_string()).data(data));
            }
            if self.finished {
                return None;
            }
            if !self.stale {
                // Quiet runs are read less often: up to 8 times the poll interval.
                let poll = self.shared.config.poll * (1 << self.idle.min(3));
                tokio::select! {
                    note = self.notes.recv() => match note {
                        // Events written here come as they are, unless one is missing.
                        Ok(crate::Note::Events(written)) => {
                            self.idle = 0;
                            let mut expected = self.after + 1;
                            for (seq, data) in written.iter() {
                                if *seq < expected {
                                    continue;
                                }
                                if *seq > expected {
                                    self.stale = true;
                                    break;
                                }
                                self.pending.push_back((*seq, data.clone()));
                                self.after = *seq;
                                expected += 1;
                            }
                        }
                        Ok(crate::Note::Settled(Some(last))) if last <= self.after => self.finished = true,
                        Ok(crate::Note::Settled(_) | crate::Note::Changed) | Err(_) => self.stale = true,
                    },
                    // Other processes' writes are seen by reading the store now and then.
                    () = tokio::time::sleep(poll) => self.stale = true,
                    // Shutting down: the client reconnects elsewhere with Last-Event-ID.
                    () = self.shared.draining.cancelled() => return None,
                }
                continue;
            }
            self.stale = false;
            let (owner, id, after) = (self.owner.clone(), self.id.clone(), self.after);
            match blocking(&self.shared.store, move |s| s.follow(&owner, &id, after, PAGE)).await {
                Ok(Some((status, events))) => self.take(status, events),
                // Gone (it cannot be: runs are not deleted) ends the stream.
                Ok(None) => return None,
                Err(error) => {
                    tracing::warn!(%error, "reading events failed");
                    tokio::time::sleep(self.shared.config.poll).await;
                    self.stale = true;
                }
            }
        }
    }
}

/// `POST /v1/runs/{id}/decisions`: a decision for every call the run waits for.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Decisions {
    /// By call id: `{"decision": "approve"}`, `{"decision": "deny", "reason": …}`,
    /// `{"decision": "approve_with_arguments", "arguments": {…}}`,
    /// `{"decision": "input", "response": {…}}`, `{"decision": "result", "result": {…}}`,
    /// and for an `ask_user_question` call `{"decision": "answers", "answers": [["label"],
    /// "own words", …]}`.
    decisions: std::collections::BTreeMap<String, serde_json::Value>,
}

/// The decisions as the harness takes them. Answers to `ask_user_question` are checked
/// against the call's questions and worded for the model here, as the CLI does.
fn harness_decisions(
    state: &tackle_harness::RunState,
    asked: std::collections::BTreeMap<String, serde_json::Value>,
) -> Result<std::collections::BTreeMap<String, tackle_harness::Decision>, String> {
    let mut out = std::collections::BTreeMap::new();
    for (call_id, value) in asked {
        let decision = if value.get("decision").and_then(serde_json::Value::as_str) == Some("answers") {
            let call = state
                .pending
                .as_ref()
                .and_then(|batch| batch.calls.iter().find(|c| c.id == call_id))
                .filter(|c| c.name == "ask_user_question")
                .ok_or_else(|| format!("{call_id:?} is not a waiting ask_user_question call"))?;
            let tackle_core::ToolArguments::Json(arguments) = &call.arguments else {
                return Err(format!("the questions of {call_id:?} cannot be read"));
            };
            let questions: tackle_env::Questions = serde_json::from_value(arguments.clone())
                .map_err(|e| format!("the questions of {call_id:?} cannot be read: {e}"))?;
            let answers: Vec<tackle_env::Answer> =
                serde_json::from_value(value.get("answers").cloned().unwrap_or_default())
                    .map_err(|e| format!("the answers for {call_id:?} must be a list: {e}"))?;
            let text = tackle_env::answer(&questions, &answers).map_err(|e| format!("{call_id:?}: {e}"))?;
            tackle_harness::Decision::Result { result: Box::new(tackle_core::ToolReturn::text(text)) }
        } else {
            serde_json::from_value(value).map_err(|e| format!("the decision for {call_id:?}: {e}"))?
        };
        out.insert(call_id, decision);
    }
    Ok(out)
}

async fn decide(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, Problem> {
    let owner = principal(&shared, &headers).await?;
    let request: Decisions = body_of(body)?;
    let (who, run_id) = (owner.clone(), id.clone());
    let run = blocking(&shared.store, move |s| s.run(&who, &run_id))
        .await
        .map_err(Problem::store)?
        .ok_or_else(|| Problem::not_found("run"))?;
    let not_waiting =
        || Problem::new(StatusCode::CONFLICT, "Not waiting", "the run is not waiting for decisions");
    if run.status != crate::RunStatus::Suspended {
        return Err(not_waiting());
    }
    // Checked now, exactly as the resume will check them, so that a mistake is answered here.
    let state: tackle_harness::RunState =
        run.state.as_deref().and_then(|s| serde_json::from_str(s).ok()).ok_or_else(not_waiting)?;
    let refused = |e: String| Problem::new(StatusCode::UNPROCESSABLE_ENTITY, "Decisions refused", e);
    let decisions = harness_decisions(&state, request.decisions).map_err(refused)?;
    let list = crate::worker::decision_list(decisions.clone());
    shared.engine.harness.check_decisions(&state, &list).map_err(|e| refused(e.to_string()))?;
    let text = serde_json::to_string(&decisions)
        .map_err(|e| Problem::new(StatusCode::UNPROCESSABLE_ENTITY, "Decisions refused", e.to_string()))?;
    let taken = blocking(&shared.store, move |s| s.submit_decisions(&owner, &id, &text))
        .await
        .map_err(Problem::store)?;
    if !taken {
        // Another client decided first.
        return Err(not_waiting());
    }
    shared.work_added.notify_one();
    Ok((StatusCode::ACCEPTED, axum::Json(json!({"id": run.id, "status": "queued"}))).into_response())
}

/// `POST /v1/runs/{id}/cancel`: stops the run (at once when this process runs it).
async fn cancel(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Problem> {
    let owner = principal(&shared, &headers).await?;
    let run_id = id.clone();
    let status = blocking(&shared.store, move |s| s.cancel(&owner, &run_id))
        .await
        .map_err(Problem::store)?
        .ok_or_else(|| Problem::not_found("run"))?;
    if status == crate::RunStatus::Running
        && let Some(token) = shared.running.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(&id)
    {
        token.cancel();
    }
    shared.changed(&id);
    Ok((StatusCode::ACCEPTED, axum::Json(json!({"id": id, "status": status}))).into_response())
}

/// `?limit=N` (and `?run=ID` for usage).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Listing {
    #[serde(default)]
    limit: Option<usize>,
    #[serde(default)]
    run: Option<String>,
}

/// The most items a listing gives.
const MAX_LISTED: usize = 200;

fn listing(query: Result<Query<Listing>, QueryRejection>) -> Result<Listing, Problem> {
    let Query(listing) =
        query.map_err(|e| Problem::new(StatusCode::BAD_REQUEST, "Bad query", e.body_text()))?;
    Ok(listing)
}

/// `GET /v1/sessions`: the user's conversations, the most recent first.
async fn sessions(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    query: Result<Query<Listing>, QueryRejection>,
) -> Result<Response, Problem> {
    let owner = principal(&shared, &headers).await?;
    let limit = listing(query)?.limit.unwrap_or(50).clamp(1, MAX_LISTED);
    let sessions =
        blocking(&shared.store, move |s| s.sessions(&owner, limit)).await.map_err(Problem::store)?;
    Ok(axum::Json(json!({"sessions": sessions})).into_response())
}

/// `GET /v1/sessions/{id}`: a conversation and its runs, in order.
async fn session(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Problem> {
    let owner = principal(&shared, &headers).await?;
    let found = blocking(&shared.store, move |s| s.session(&owner, &id)).await.map_err(Problem::store)?;
    let (session, runs) = found.ok_or_else(|| Problem::not_found("session"))?;
    let mut body = serde_json::to_value(&session).map_err(|e| Problem::invalid(e.to_string()))?;
    body["runs"] = serde_json::to_value(&runs).map_err(|e| Problem::invalid(e.to_string()))?;
    Ok(axum::Json(body).into_response())
}

/// `GET /v1/tools`: every tool, whether this user's runs are offered it and, if not, why.
async fn tools(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Result<Response, Problem> {
    let owner = principal(&shared, &headers).await?;
    let who = owner.clone();
    let tenant = blocking(&shared.store, move |s| s.tenant(&who)).await.map_err(Problem::store)?;
    let asked = Asked::default();
    let setup = policy::setup(
        &shared.engine,
        &owner,
        &tenant,
        &format!("tools-{}-{}", owner.org, owner.user),
        &asked,
    )
    .map_err(Problem::setup)?;
    let registry = shared.engine.harness.registry();
    let report = registry.availability(&setup.ctx);
    let tools: Vec<serde_json::Value> = report
        .tools
        .iter()
        .map(|line| {
            let description = registry.definition(&line.name).map(|d| d.description.clone()).unwrap_or_default();
            match &line.status {
                Ok(()) => json!({"name": line.name, "source": line.source, "description": description, "offered": true}),
                Err(why) => json!({"name": line.name, "source": line.source, "description": description,
                                   "offered": false, "reason": why.to_string()}),
            }
        })
        .collect();
    Ok(axum::Json(json!({"tools": tools})).into_response())
}

/// Millionths of a credit as credits.
fn credits(micros: i64) -> f64 {
    micros as f64 / 1_000_000.0
}

/// `GET /v1/me`: who the token is, their plan, balance, the models they may choose and
/// their preferences and settings.
async fn me(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Result<Response, Problem> {
    let owner = principal(&shared, &headers).await?;
    let who = owner.clone();
    let tenant = blocking(&shared.store, move |s| s.tenant(&who)).await.map_err(Problem::store)?;
    let (org, profile) = policy::read(&tenant)
        .map_err(|e| Problem::new(StatusCode::SERVICE_UNAVAILABLE, "Store damaged", e))?;
    let models: Vec<&str> = shared
        .engine
        .models
        .iter()
        .map(|m| m.name.as_str())
        .filter(|name| org.models.as_ref().is_none_or(|allowed| allowed.iter().any(|a| a == name)))
        .collect();
    Ok(axum::Json(json!({
        "org": owner.org,
        "user": owner.user,
        "plan": tenant.plan.as_ref().map(|p| json!({"name": p.name, "capabilities": p.capabilities})),
        "metered": tenant.balance_micros.is_some(),
        "balance": tenant.balance_micros.map(credits),
        "models": models,
        "profile": profile,
    }))
    .into_response())
}

/// `PUT /v1/me`: the user's preferences and setting values, replaced.
async fn set_me(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, Problem> {
    let owner = principal(&shared, &headers).await?;
    let profile: Profile = body_of(body)?;
    let who = owner.clone();
    let tenant = blocking(&shared.store, move |s| s.tenant(&who)).await.map_err(Problem::store)?;
    let (org, _) = policy::read(&tenant)
        .map_err(|e| Problem::new(StatusCode::SERVICE_UNAVAILABLE, "Store damaged", e))?;
    policy::check_profile(&shared.engine, &org, &profile).map_err(Problem::invalid)?;
    let text = serde_json::to_string(&profile).map_err(|e| Problem::invalid(e.to_string()))?;
    blocking(&shared.store, move |s| s.set_profile(&owner, &text)).await.map_err(Problem::store)?;
    Ok(axum::Json(json!({"profile": profile})).into_response())
}

/// `GET /v1/usage`: the balance and what each run cost (`?run=ID` for one).
async fn usage(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    query: Result<Query<Listing>, QueryRejection>,
) -> Result<Response, Problem> {
    let owner = principal(&shared, &headers).await?;
    let listing = listing(query)?;
    let limit = listing.limit.unwrap_or(50).clamp(1, MAX_LISTED);
    let (lines, balance) = blocking(&shared.store, move |s| {
        Ok((s.usage(&owner, listing.run.as_deref(), limit)?, s.balance(&owner)?))
    })
    .await
    .map_err(Problem::store)?;
    let mut runs = Vec::new();
    let (mut spent, mut granted) = (0i64, 0i64);
    for line in &lines {
        granted = granted.saturating_add(line.granted_micros);
        if line.run.is_empty() {
            continue;
        }
        let total = line.model_micros.saturating_add(line.tool_micros);
        spent = spent.saturating_add(total);
        runs.push(json!({
            "run": line.run,
            "model": credits(line.model_micros),
            "tools": credits(line.tool_micros),
            "total": credits(total),
        }));
    }
    Ok(axum::Json(json!({
        "balance": balance.map(credits),
        "spent": credits(spent),
        "granted": credits(granted),
        "runs": runs,
    }))
    .into_response())
}

async fn metrics(State(shared): State<Arc<Shared>>) -> Response {
    let mut response = shared.metrics.render().into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/openmetrics-text; version=1.0.0; charset=utf-8"),
    );
    response
}

async fn ready(State(shared): State<Arc<Shared>>) -> Result<&'static str, Problem> {
    blocking(&shared.store, |s| s.authenticate("readiness-probe")).await.map_err(Problem::store)?;
    Ok("ready")
}
