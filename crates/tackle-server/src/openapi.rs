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
                    "properties": {"prompt": {"type": "string", "minLength": 1}}},
                "RunAccepted": {"type": "object", "properties": {
                    "id": {"type": "string"}, "status": {"$ref": "#/components/schemas/Status"}, "events": {"type": "string"}}},
                "Status": {"type": "string", "enum": ["queued", "running", "suspended", "answered", "failed", "cancelled"]},
                "Run": {"type": "object", "properties": {
                    "id": {"type": "string"}, "status": {"$ref": "#/components/schemas/Status"},
                    "request": {"type": "object"}, "answer": {"type": "string"}, "error": {"type": "string"},
                    "created_ms": {"type": "integer"}, "updated_ms": {"type": "integer"}}},
                "Decisions": {"type": "object", "additionalProperties": false, "required": ["decisions"], "properties": {
                    "decisions": {"type": "object", "description": "By call id.", "additionalProperties": {"$ref": "#/components/schemas/Decision"}}}},
                "Decision": {"type": "object", "required": ["decision"], "properties": {
                    "decision": {"type": "string", "enum": ["approve", "approve_with_arguments", "deny", "result", "input"]},
                    "arguments": {"type": "object", "description": "approve_with_arguments: the edited arguments."},
                    "reason": {"type": "string", "description": "deny: why, shown to the model."},
                    "result": {"type": "object", "description": "result: a deferred call's result."},
                    "response": {"type": "object", "description": "input: the answer to the call's question."}}},
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
                                  problem_responses(&["401", "413", "422", "503"]))}},
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
            "/v1/tools": {"get": {
                "summary": "Every tool, whether this user's runs are offered it and, if not, why", "security": secured,
                "responses": with(json!({"200": {"description": "The tools", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Tools"}}}}}),
                                  problem_responses(&["401", "503"]))}},
            "/healthz": {"get": {"summary": "The process is up", "responses": {"200": {"description": "ok"}}}},
            "/readyz": {"get": {"summary": "The store answers", "responses": with(json!({"200": {"description": "ready"}}), problem_responses(&["503"]))}},
            "/metrics": {"get": {"summary": "Counters in the OpenMetrics text format", "responses": {"200": {"description": "The metrics"}}}},
            "/openapi.json": {"get": {"summary": "This document", "responses": {"200": {"description": "OpenAPI 3.1"}}}}
        }
    })
}
