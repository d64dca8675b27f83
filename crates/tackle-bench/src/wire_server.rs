//! `tackle-bench wire-server [--port P]`: a scripted server for the Responses, Anthropic
//! Messages, Gemini `generateContent` and Bedrock Converse APIs — and Chat Completions,
//! answered by the same code so that the adapters compare on one server — the counterpart of `../shared/bench/wire/server`
//! (Chat Completions, hand-tuned: the floor's), so that `tackle-bench wire --api
//! responses|anthropic` measures those adapters on the same workload. Stateless, loopback only: the model name `bench-RxK`
//! gives the workload (call n is `add(n, n+1)` when n is even, else `echo` of `%06d` and
//! 194 `x`); the round is the number of calls in the conversation divided by K, and before
//! answering it the previous round's K results are checked (ids `c{n}`, the right values;
//! a result may come JSON-quoted). A failed check answers HTTP 400 with the reason.
//! `"stream": true` answers server-sent events in each API's own shape, arguments in two
//! fragments. `bench-0x0` answers `done` at once, whatever tools are offered (for timing a
//! whole `tackle run`).

use std::fmt::Write as _;

use axum::Router;
use axum::body::Bytes;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};

fn call_spec(n: usize) -> (&'static str, String, Value) {
    if n.is_multiple_of(2) {
        ("add", format!("{{\"a\": {n}, \"b\": {}}}", n + 1), json!({"a": n, "b": n + 1}))
    } else {
        let text = format!("{n:06}{}", "x".repeat(194));
        ("echo", format!("{{\"text\": \"{text}\"}}"), json!({ "text": text }))
    }
}

fn expected(n: usize) -> String {
    if n.is_multiple_of(2) { (2 * n + 1).to_string() } else { format!("{n:06}{}", "x".repeat(194)) }
}

fn workload(model: &str) -> Option<(usize, usize)> {
    let spec = &model[model.rfind("bench-")? + 6..];
    let (r, k) = spec.split_once('x')?;
    Some((r.parse().ok()?, k.parse().ok()?))
}

/// Whether `got` is the result of call `n` (plain or JSON-quoted).
fn check_result(n: usize, got: &str) -> Result<(), String> {
    let want = expected(n);
    if got == want || serde_json::from_str::<String>(got).is_ok_and(|s| s == want) {
        Ok(())
    } else {
        Err(format!("the result of c{n} is {got:?}, expected {want:?}"))
    }
}

/// The round to answer, from the calls made so far and the results that came back.
fn round(calls: usize, results: &[(String, String)], r: usize, k: usize) -> Result<usize, String> {
    if !calls.is_multiple_of(k.max(1)) {
        return Err(format!("{calls} calls in the conversation, not a multiple of {k}"));
    }
    let round = calls / k.max(1);
    if round > r {
        return Err(format!("{round} rounds of calls, the script has {r}"));
    }
    if round > 0 {
        for n in (round - 1) * k..round * k {
            let id = format!("c{n}");
            let hits: Vec<&(String, String)> = results.iter().filter(|(i, _)| *i == id).collect();
            if hits.len() != 1 {
                return Err(format!("{} results for {id}", hits.len()));
            }
            check_result(n, &hits[0].1)?;
        }
    }
    Ok(round)
}

/// The request, and the workload its model names; `add` and `echo` must be offered (each
/// API names a tool where `name_of` finds it), except by `bench-0x0`.
fn parse(body: &[u8], name_of: fn(&Value) -> Option<&str>) -> Result<(Value, usize, usize), String> {
    let request: Value = serde_json::from_slice(body).map_err(|e| e.to_string())?;
    let model = request["model"].as_str().unwrap_or_default();
    let (r, k) = workload(model).ok_or_else(|| format!("unknown model {model:?}"))?;
    let tools = request.get("tools").and_then(Value::as_array);
    let names: Vec<&str> = tools.into_iter().flatten().filter_map(name_of).collect();
    check_tools(&names, r)?;
    Ok((request, r, k))
}

/// The items of every turn of `role` in `turns`, each turn's items under `items` (content
/// blocks, parts), in order.
fn items_of<'a>(turns: &'a [Value], role: &str, items: &str) -> Vec<&'a Value> {
    turns
        .iter()
        .filter(|t| t["role"] == role)
        .flat_map(|t| t[items].as_array().into_iter().flatten())
        .collect()
}

/// Text of a result's content: a string, or text parts.
fn text_of(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => {
            parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect::<Vec<_>>().join("")
        }
        _ => String::new(),
    }
}

fn sse(events: &[(&str, Value)]) -> String {
    let mut out = String::new();
    for (name, data) in events {
        let _ = write!(out, "event: {name}\ndata: {data}\n\n");
    }
    out
}

fn reply(body: Result<(bool, String), String>) -> Response {
    match body {
        Ok((true, events)) => ([(header::CONTENT_TYPE, "text/event-stream")], events).into_response(),
        Ok((false, json)) => ([(header::CONTENT_TYPE, "application/json")], json).into_response(),
        Err(reason) => (StatusCode::BAD_REQUEST, reason).into_response(),
    }
}

async fn responses(body: Bytes) -> Response {
    reply(answer_responses(&body))
}

async fn messages(body: Bytes) -> Response {
    reply(answer_messages(&body))
}

fn answer_responses(body: &[u8]) -> Result<(bool, String), String> {
    let (request, r, k) = parse(body, |t| t.get("name").and_then(Value::as_str))?;
    let model = request["model"].as_str().unwrap_or_default();
    let items = request["input"].as_array().ok_or("no input items")?;
    let calls = items.iter().filter(|i| i["type"] == "function_call").count();
    let results: Vec<(String, String)> = items
        .iter()
        .filter(|i| i["type"] == "function_call_output")
        .map(|i| (i["call_id"].as_str().unwrap_or_default().to_owned(), text_of(i.get("output"))))
        .collect();
    let rnd = round(calls, &results, r, k)?;
    let output: Vec<Value> = if rnd == r {
        vec![json!({"type": "message", "id": "msg_bench", "status": "completed", "role": "assistant",
                    "content": [{"type": "output_text", "text": "done", "annotations": []}]})]
    } else {
        (rnd * k..rnd * k + k)
            .map(|n| {
                let (name, arguments, _) = call_spec(n);
                json!({"type": "function_call", "id": format!("fc_{n}"), "call_id": format!("c{n}"),
                       "name": name, "arguments": arguments, "status": "completed"})
            })
            .collect()
    };
    let response = |output: &[Value], status: &str| {
        json!({"id": format!("resp_bench_{rnd}"), "object": "response", "created_at": 1_700_000_000,
               "status": status, "model": model, "output": output,
               "usage": {"input_tokens": 10, "output_tokens": 10, "total_tokens": 20}})
    };
    if request["stream"] != true {
        return Ok((false, response(&output, "completed").to_string()));
    }
    let mut events = vec![(
        "response.created",
        json!({"type": "response.created", "response": response(&[], "in_progress")}),
    )];
    for (index, item) in output.iter().enumerate() {
        if item["type"] == "function_call" {
            let arguments = item["arguments"].as_str().unwrap_or_default();
            let half = arguments.len() / 2;
            let mut opened = item.clone();
            opened["arguments"] = json!("");
            opened["status"] = json!("in_progress");
            events.push((
                "response.output_item.added",
                json!({"type": "response.output_item.added", "output_index": index, "item": opened}),
            ));
            for piece in [&arguments[..half], &arguments[half..]] {
                events.push(("response.function_call_arguments.delta", json!({"type": "response.function_call_arguments.delta", "output_index": index, "item_id": item["id"], "delta": piece})));
            }
            events.push(("response.function_call_arguments.done", json!({"type": "response.function_call_arguments.done", "output_index": index, "item_id": item["id"], "arguments": arguments})));
        } else {
            let mut opened = item.clone();
            opened["content"] = json!([]);
            events.push((
                "response.output_item.added",
                json!({"type": "response.output_item.added", "output_index": index, "item": opened}),
            ));
            events.push(("response.output_text.delta", json!({"type": "response.output_text.delta", "output_index": index, "content_index": 0, "item_id": item["id"], "delta": "done"})));
        }
        events.push((
            "response.output_item.done",
            json!({"type": "response.output_item.done", "output_index": index, "item": item}),
        ));
    }
    events.push((
        "response.completed",
        json!({"type": "response.completed", "response": response(&output, "completed")}),
    ));
    Ok((true, sse(&events)))
}

async fn chat(body: Bytes) -> Response {
    reply(answer_chat(&body))
}

/// Chat Completions too, answered by the same code as the other two, so that the three
/// adapters can be compared on one server (the shared server stays the floor's).
fn answer_chat(body: &[u8]) -> Result<(bool, String), String> {
    let (request, r, k) = parse(body, |t| t.pointer("/function/name").and_then(Value::as_str))?;
    let model = request["model"].as_str().unwrap_or_default();
    let messages = request["messages"].as_array().ok_or("no messages")?;
    let calls = messages
        .iter()
        .filter(|m| m["role"] == "assistant")
        .map(|m| m["tool_calls"].as_array().map_or(0, Vec::len))
        .sum();
    let results: Vec<(String, String)> = messages
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| (m["tool_call_id"].as_str().unwrap_or_default().to_owned(), text_of(m.get("content"))))
        .collect();
    let rnd = round(calls, &results, r, k)?;
    let tool_calls: Vec<Value> = if rnd == r {
        Vec::new()
    } else {
        (rnd * k..rnd * k + k)
            .map(|n| {
                let (name, arguments, _) = call_spec(n);
                json!({"id": format!("c{n}"), "type": "function", "function": {"name": name, "arguments": arguments}})
            })
            .collect()
    };
    let finish = if rnd == r { "stop" } else { "tool_calls" };
    let head = |object: &str| json!({"id": format!("chatcmpl-bench-{rnd}"), "object": object, "created": 1_700_000_000, "model": model});
    if request["stream"] != true {
        let mut reply = head("chat.completion");
        let message = if rnd == r {
            json!({"role": "assistant", "content": "done"})
        } else {
            json!({"role": "assistant", "content": null, "tool_calls": tool_calls})
        };
        reply["choices"] = json!([{"index": 0, "message": message, "finish_reason": finish}]);
        reply["usage"] = json!({"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20});
        return Ok((false, reply.to_string()));
    }
    let chunk = |delta: Value, finish: Option<&str>| {
        let mut chunk = head("chat.completion.chunk");
        chunk["choices"] = json!([{"index": 0, "delta": delta, "finish_reason": finish}]);
        chunk
    };
    let mut out = Vec::new();
    if rnd == r {
        out.push(chunk(json!({"role": "assistant", "content": "done"}), None));
    }
    for (index, call) in tool_calls.iter().enumerate() {
        let arguments = call["function"]["arguments"].as_str().unwrap_or_default();
        let half = arguments.len() / 2;
        out.push(chunk(json!({"tool_calls": [{"index": index, "id": call["id"], "type": "function",
                                               "function": {"name": call["function"]["name"], "arguments": &arguments[..half]}}]}), None));
        out.push(chunk(
            json!({"tool_calls": [{"index": index, "function": {"arguments": &arguments[half..]}}]}),
            None,
        ));
    }
    out.push(chunk(json!({}), Some(finish)));
    let mut text = String::new();
    for c in out {
        let _ = write!(text, "data: {c}\n\n");
    }
    text.push_str("data: [DONE]\n\n");
    Ok((true, text))
}

fn answer_messages(body: &[u8]) -> Result<(bool, String), String> {
    let (request, r, k) = parse(body, |t| t.get("name").and_then(Value::as_str))?;
    let model = request["model"].as_str().unwrap_or_default();
    let messages = request["messages"].as_array().ok_or("no messages")?;
    let blocks = |role: &str| items_of(messages, role, "content");
    let calls = blocks("assistant").into_iter().filter(|b| b["type"] == "tool_use").count();
    let results: Vec<(String, String)> = blocks("user")
        .into_iter()
        .filter(|b| b["type"] == "tool_result")
        .map(|b| (b["tool_use_id"].as_str().unwrap_or_default().to_owned(), text_of(b.get("content"))))
        .collect();
    let rnd = round(calls, &results, r, k)?;
    let content: Vec<Value> = if rnd == r {
        vec![json!({"type": "text", "text": "done"})]
    } else {
        (rnd * k..rnd * k + k)
            .map(|n| {
                let (name, _, input) = call_spec(n);
                json!({"type": "tool_use", "id": format!("c{n}"), "name": name, "input": input})
            })
            .collect()
    };
    let stop = if rnd == r { "end_turn" } else { "tool_use" };
    let message = |content: &[Value], stop: Option<&str>| {
        json!({"id": format!("msg_bench_{rnd}"), "type": "message", "role": "assistant", "model": model,
               "content": content, "stop_reason": stop, "stop_sequence": null,
               "usage": {"input_tokens": 10, "output_tokens": 10}})
    };
    if request["stream"] != true {
        return Ok((false, message(&content, Some(stop)).to_string()));
    }
    let mut events = vec![("message_start", json!({"type": "message_start", "message": message(&[], None)}))];
    for (index, block) in content.iter().enumerate() {
        if block["type"] == "tool_use" {
            let mut opened = block.clone();
            opened["input"] = json!({});
            events.push((
                "content_block_start",
                json!({"type": "content_block_start", "index": index, "content_block": opened}),
            ));
            let input = block["input"].to_string();
            let half = input.len() / 2;
            for piece in [&input[..half], &input[half..]] {
                events.push(("content_block_delta", json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": piece}})));
            }
        } else {
            events.push(("content_block_start", json!({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}})));
            events.push(("content_block_delta", json!({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": "done"}})));
        }
        events.push(("content_block_stop", json!({"type": "content_block_stop", "index": index})));
    }
    events.push(("message_delta", json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null}, "usage": {"output_tokens": 10}})));
    events.push(("message_stop", json!({"type": "message_stop"})));
    Ok((true, sse(&events)))
}

/// Checks that `add` and `echo` are declared (`bench-0x0` offers none).
fn check_tools(names: &[&str], r: usize) -> Result<(), String> {
    if r > 0 {
        for want in ["add", "echo"] {
            if !names.contains(&want) {
                return Err(format!("tool {want:?} is not declared"));
            }
        }
    }
    Ok(())
}

async fn gemini(axum::extract::Path(action): axum::extract::Path<String>, body: Bytes) -> Response {
    reply(answer_gemini(&action, &body))
}

/// Gemini: the model and the streaming choice come in the path (`{model}:streamGenerateContent`
/// or `{model}:generateContent`); calls carry ids, results come back by id.
fn answer_gemini(action: &str, body: &[u8]) -> Result<(bool, String), String> {
    let (model, method) = action.split_once(':').ok_or("no method in the path")?;
    let (r, k) = workload(model).ok_or_else(|| format!("unknown model {model:?}"))?;
    let request: Value = serde_json::from_slice(body).map_err(|e| e.to_string())?;
    let names: Vec<&str> = request["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|t| t["functionDeclarations"].as_array().into_iter().flatten())
        .filter_map(|d| d["name"].as_str())
        .collect();
    check_tools(&names, r)?;
    let contents = request["contents"].as_array().ok_or("no contents")?;
    let parts = |role: &str| items_of(contents, role, "parts");
    let calls = parts("model").into_iter().filter(|p| p.get("functionCall").is_some()).count();
    let results: Vec<(String, String)> = parts("user")
        .into_iter()
        .filter_map(|p| p.get("functionResponse"))
        .map(|f| (f["id"].as_str().unwrap_or_default().to_owned(), text_of(f["response"].get("output"))))
        .collect();
    let rnd = round(calls, &results, r, k)?;
    let reply_parts: Vec<Value> = if rnd == r {
        vec![json!({"text": "done"})]
    } else {
        (rnd * k..rnd * k + k)
            .map(|n| {
                let (name, _, args) = call_spec(n);
                json!({"functionCall": {"id": format!("c{n}"), "name": name, "args": args}})
            })
            .collect()
    };
    let chunk = json!({"candidates": [{"content": {"role": "model", "parts": reply_parts}, "finishReason": "STOP", "index": 0}],
                       "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 10, "totalTokenCount": 20},
                       "modelVersion": model, "responseId": format!("bench-{rnd}")});
    if method == "streamGenerateContent" {
        Ok((true, format!("data: {chunk}\r\n\r\n")))
    } else {
        Ok((false, chunk.to_string()))
    }
}

async fn bedrock(
    axum::extract::Path((model, method)): axum::extract::Path<(String, String)>,
    body: Bytes,
) -> Response {
    match answer_bedrock(&model, &method, &body) {
        Ok((true, frames)) => {
            ([(header::CONTENT_TYPE, "application/vnd.amazon.eventstream")], frames).into_response()
        }
        Ok((false, json)) => ([(header::CONTENT_TYPE, "application/json")], json).into_response(),
        Err(reason) => (StatusCode::BAD_REQUEST, reason).into_response(),
    }
}

/// Bedrock Converse: the model in the path, `converse-stream` framed as AWS event-stream
/// messages (each call's input in two fragments), `converse` as one JSON body.
fn answer_bedrock(model: &str, method: &str, body: &[u8]) -> Result<(bool, Vec<u8>), String> {
    let (r, k) = workload(model).ok_or_else(|| format!("unknown model {model:?}"))?;
    let request: Value = serde_json::from_slice(body).map_err(|e| e.to_string())?;
    let names: Vec<&str> = request
        .pointer("/toolConfig/tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| t.pointer("/toolSpec/name").and_then(Value::as_str))
        .collect();
    check_tools(&names, r)?;
    let messages = request["messages"].as_array().ok_or("no messages")?;
    let blocks = |role: &str| items_of(messages, role, "content");
    let calls = blocks("assistant").into_iter().filter(|b| b.get("toolUse").is_some()).count();
    let results: Vec<(String, String)> = blocks("user")
        .into_iter()
        .filter_map(|b| b.get("toolResult"))
        .map(|t| (t["toolUseId"].as_str().unwrap_or_default().to_owned(), text_of(t.get("content"))))
        .collect();
    let rnd = round(calls, &results, r, k)?;
    let content: Vec<Value> = if rnd == r {
        vec![json!({"text": "done"})]
    } else {
        (rnd * k..rnd * k + k)
            .map(|n| {
                let (name, _, input) = call_spec(n);
                json!({"toolUse": {"toolUseId": format!("c{n}"), "name": name, "input": input}})
            })
            .collect()
    };
    let stop = if rnd == r { "end_turn" } else { "tool_use" };
    let usage = json!({"inputTokens": 10, "outputTokens": 10, "totalTokens": 20});
    if method != "converse-stream" {
        let whole = json!({"output": {"message": {"role": "assistant", "content": content}}, "stopReason": stop, "usage": usage, "metrics": {"latencyMs": 1}});
        return Ok((false, whole.to_string().into_bytes()));
    }
    let mut events = vec![("messageStart", json!({"role": "assistant"}))];
    for (index, block) in content.iter().enumerate() {
        if let Some(tool) = block.get("toolUse") {
            events.push(("contentBlockStart", json!({"contentBlockIndex": index, "start": {"toolUse": {"toolUseId": tool["toolUseId"], "name": tool["name"]}}})));
            let input = tool["input"].to_string();
            let half = input.len() / 2;
            for piece in [&input[..half], &input[half..]] {
                events.push((
                    "contentBlockDelta",
                    json!({"contentBlockIndex": index, "delta": {"toolUse": {"input": piece}}}),
                ));
            }
        } else {
            events
                .push(("contentBlockDelta", json!({"contentBlockIndex": index, "delta": {"text": "done"}})));
        }
        events.push(("contentBlockStop", json!({"contentBlockIndex": index})));
    }
    events.push(("messageStop", json!({"stopReason": stop})));
    events.push(("metadata", json!({"usage": usage, "metrics": {"latencyMs": 1}})));
    Ok((
        true,
        events
            .iter()
            .flat_map(|(kind, payload)| tackle_providers::eventstream::encode_event(kind, payload))
            .collect(),
    ))
}

/// Serves the APIs on 127.0.0.1:`port` (`/v1/chat/completions`, `/v1/responses`,
/// `/v1/messages`, `/v1/models/{model}:…GenerateContent`, `/v1/model/{model}/converse…`)
/// until killed.
pub(crate) fn serve(port: u16) -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let app = Router::new()
            .route("/v1/chat/completions", post(chat))
            .route("/v1/responses", post(responses))
            .route("/v1/messages", post(messages))
            .route("/v1/models/{action}", post(gemini))
            .route("/v1/model/{model}/{method}", post(bedrock));
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
        eprintln!(
            "scripted Chat, Responses, Messages, Gemini and Bedrock server on http://127.0.0.1:{port}/v1"
        );
        axum::serve(listener, app).await?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_are_counted_and_results_checked() {
        assert_eq!(round(0, &[], 2, 2), Ok(0));
        let ok = vec![
            ("c0".to_owned(), "1".to_owned()),
            ("c1".to_owned(), format!("{:06}{}", 1, "x".repeat(194))),
        ];
        assert_eq!(round(2, &ok, 2, 2), Ok(1));
        let quoted = vec![ok[0].clone(), ("c1".to_owned(), serde_json::to_string(&ok[1].1).unwrap())];
        assert_eq!(round(2, &quoted, 2, 2), Ok(1));
        let wrong = vec![("c0".to_owned(), "2".to_owned()), ok[1].clone()];
        assert!(round(2, &wrong, 2, 2).unwrap_err().contains("c0"));
        assert!(round(2, &ok[..1], 2, 2).unwrap_err().contains("c1"));
        assert!(round(3, &ok, 2, 2).is_err());
    }
}
