//! The API described as OpenAPI 3.1, served at `/openapi.json`. A test checks that every
//! route the router serves is described here.

use serde_json::{Value, json};

fn problem_responses(codes: &[&str]) -> Value {
    let mut responses = serde_json::Map::new();
    for code in codes {
        responses.insert(
            (*code).to_owned(),
            json!({"description": "A problem (RFC 9457)", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}),
        );
    }
    Value::Object(responses)
}

fn with(mut base: Value, extra: Value) -> Value {
    if let (Value::Object(base), Value::Object(extra)) = (&mut base, extra) {
        base.extend(extra);
    }
    base
}

/// The document.
pub(crate) fn document() -> Value {
    let id = json!([{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}]);
    let secured = json!([{"token": []}]);
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "tackle serve",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Tool-calling runs for many users: queue a prompt, follow its events, decide the calls it waits for."
        },
        "components": {
            "securitySchemes": {"token": {"type": "http", "scheme": "bearer", "description": "A token from `tackle serve token create`."}},
            "schemas": {
                "Problem": {"type": "object", "properties": {
                    "type": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "integer"}, "detail": {"type": "string"}}},
                "RunRequest": {"type": "object", "additionalProperties": false, "required": ["prompt"],
                    "properties": {
                        "prompt": {"type": "string", "minLength": 1},
                        "session": {"type": "string", "description": "The session to continue; absent: a new one. Its last run must be settled."},
                        "model": {"type": "string", "description": "The model, by the server's name, among those the organisation allows (GET /v1/me)."},
                        "tools": {"type": "array", "items": {"type": "string"}, "description": "The only tools the run may be offered; each must be offered to this user."},
                        "temporary": {"type": "boolean", "description": "Kept out of the history; tools that keep conversation state are not offered."}}},
                "RunAccepted": {"type": "object", "properties": {
                    "id": {"type": "string"}, "status": {"$ref": "#/components/schemas/Status"}, "events": {"type": "string"},
                    "session": {"type": ["string", "null"]}}},
                "Status": {"type": "string", "enum": ["queued", "running", "suspended", "answered", "failed", "cancelled"]},
                "Run": {"type": "object", "properties": {
                    "id": {"type": "string"}, "status": {"$ref": "#/components/schemas/Status"},
                    "request": {"type": "object"}, "answer": {"type": "string"}, "error": {"type": "string"},
                    "session": {"type": "string"}, "previous": {"type": "string", "description": "The run whose conversation this one continues."},
                    "created_ms": {"type": "integer"}, "updated_ms": {"type": "integer"}}},
                "Session": {"type": "object", "properties": {
                    "id": {"type": "string"}, "title": {"type": "string"}, "run_count": {"type": "integer"}, "last_run": {"type": "string"},
                    "created_ms": {"type": "integer"}, "updated_ms": {"type": "integer"},
                    "runs": {"type": "array", "items": {"$ref": "#/components/schemas/Run"}, "description": "GET /v1/sessions/{id} only: the runs in order."}}},
                "Profile": {"type": "object", "additionalProperties": false, "properties": {
                    "disabled_tools": {"type": "array", "items": {"type": "string"}},
                    "disabled_capabilities": {"type": "array", "items": {"type": "string"}},
                    "settings": {"type": "object", "additionalProperties": {"type": "string"}, "description": "By <tool>.<field>; locked and secret fields are refused."}}},
                "Me": {"type": "object", "properties": {
                    "org": {"type": "string"}, "user": {"type": "string"},
                    "plan": {"type": ["object", "null"], "properties": {"name": {"type": "string"}, "capabilities": {"type": "array", "items": {"type": "string"}}}},
                    "metered": {"type": "boolean"}, "balance": {"type": ["number", "null"], "description": "Credits, when metered."},
                    "models": {"type": "array", "items": {"type": "string"}}, "profile": {"$ref": "#/components/schemas/Profile"}}},
                "Usage": {"type": "object", "properties": {
                    "balance": {"type": ["number", "null"]},
                    "spent": {"type": "number", "description": "Over the runs listed."},
                    "granted": {"type": "number", "description": "Grants and allowances, when among the lines listed."},
                    "runs": {"type": "array", "items": {"type": "object", "properties": {
                        "run": {"type": "string"}, "model": {"type": "number"}, "tools": {"type": "number"}, "total": {"type": "number"}}}}}},
                "Decisions": {"type": "object", "additionalProperties": false, "required": ["decisions"], "properties": {
                    "decisions": {"type": "object", "description": "By call id.", "additionalProperties": {"$ref": "#/components/schemas/Decision"}}}},
                "Decision": {"type": "object", "required": ["decision"], "properties": {
                    "decision": {"type": "string", "enum": ["approve", "approve_with_arguments", "deny", "result", "input", "answers"]},
                    "arguments": {"type": "object", "description": "approve_with_arguments: the edited arguments."},
                    "reason": {"type": "string", "description": "deny: why, shown to the model."},
                    "result": {"type": "object", "description": "result: a deferred call's result."},
                    "response": {"type": "object", "description": "input: the answer to the call's question."},
                    "answers": {"type": "array", "description": "answers (an ask_user_question call): per question, the labels picked or the user's own words.",
                        "items": {"oneOf": [{"type": "array", "items": {"type": "string"}}, {"type": "string"}]}}}},
                "Tools": {"type": "object", "properties": {"tools": {"type": "array", "items": {"type": "object", "properties": {
                    "name": {"type": "string"}, "source": {"type": "string"}, "description": {"type": "string"},
                    "offered": {"type": "boolean"}, "reason": {"type": "string"}}}}}}
            }
        },
        "paths": {
            "/v1/runs": {"post": {
                "summary": "Queue a run", "security": secured,
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RunRequest"}}}},
                "responses": with(json!({"202": {"description": "Queued", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RunAccepted"}}}}}),
                                  problem_responses(&["401", "403", "404", "409", "413", "422", "503"]))}},
            "/v1/runs/{id}": {"get": {
                "summary": "A run", "security": secured, "parameters": id,
                "responses": with(json!({"200": {"description": "The run", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Run"}}}}}),
                                  problem_responses(&["401", "404"]))}},
            "/v1/runs/{id}/events": {"get": {
                "summary": "A run's events as server-sent events, each with its sequence number as id; Last-Event-ID resumes",
                "security": secured,
                "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
                               {"name": "Last-Event-ID", "in": "header", "required": false, "schema": {"type": "integer", "minimum": 0}}],
                "responses": with(json!({"200": {"description": "Events until the run is settled", "content": {"text/event-stream": {"schema": {"type": "string"}}}}}),
                                  problem_responses(&["400", "401", "404"]))}},
            "/v1/runs/{id}/decisions": {"post": {
                "summary": "Decide every call a suspended run waits for", "security": secured, "parameters": id,
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Decisions"}}}},
                "responses": with(json!({"202": {"description": "Queued again", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RunAccepted"}}}}}),
                                  problem_responses(&["401", "404", "409", "422"]))}},
            "/v1/runs/{id}/cancel": {"post": {
                "summary": "Cancel a run", "security": secured, "parameters": id,
                "responses": with(json!({"202": {"description": "Cancelled, or marked to stop", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RunAccepted"}}}}}),
                                  problem_responses(&["401", "404"]))}},
            "/v1/sessions": {"get": {
                "summary": "This user's sessions, the most recently used first", "security": secured,
                "parameters": [{"name": "limit", "in": "query", "required": false, "schema": {"type": "integer", "minimum": 1, "maximum": 200}}],
                "responses": with(json!({"200": {"description": "The sessions", "content": {"application/json": {"schema": {"type": "object", "properties": {
                    "sessions": {"type": "array", "items": {"$ref": "#/components/schemas/Session"}}}}}}}}),
                                  problem_responses(&["400", "401"]))}},
            "/v1/sessions/{id}": {"get": {
                "summary": "A session and its runs, in order", "security": secured, "parameters": id,
                "responses": with(json!({"200": {"description": "The session", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Session"}}}}}),
                                  problem_responses(&["401", "404"]))}},
            "/v1/tools": {"get": {
                "summary": "Every tool, whether this user's runs are offered it and, if not, why", "security": secured,
                "responses": with(json!({"200": {"description": "The tools", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Tools"}}}}}),
                                  problem_responses(&["401", "503"]))}},
            "/v1/me": {
                "get": {"summary": "Who the token is: plan, balance, the models they may choose, preferences and settings", "security": secured,
                    "responses": with(json!({"200": {"description": "The user", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Me"}}}}}),
                                      problem_responses(&["401", "503"]))},
                "put": {"summary": "Replaces the user's preferences and setting values", "security": secured,
                    "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Profile"}}}},
                    "responses": with(json!({"200": {"description": "Kept"}}), problem_responses(&["401", "413", "422", "503"]))}},
            "/v1/usage": {"get": {
                "summary": "The balance and the credits each run cost", "security": secured,
                "parameters": [{"name": "run", "in": "query", "required": false, "schema": {"type": "string"}},
                               {"name": "limit", "in": "query", "required": false, "schema": {"type": "integer", "minimum": 1, "maximum": 200}}],
                "responses": with(json!({"200": {"description": "Usage", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Usage"}}}}}),
                                  problem_responses(&["400", "401"]))}},
            "/healthz": {"get": {"summary": "The process is up", "responses": {"200": {"description": "ok"}}}},
            "/readyz": {"get": {"summary": "The store answers", "responses": with(json!({"200": {"description": "ready"}}), problem_responses(&["503"]))}},
            "/metrics": {"get": {"summary": "Counters in the OpenMetrics text format", "responses": {"200": {"description": "The metrics"}}}},
            "/openapi.json": {"get": {"summary": "This document", "responses": {"200": {"description": "OpenAPI 3.1"}}}}
        }
    })
}
