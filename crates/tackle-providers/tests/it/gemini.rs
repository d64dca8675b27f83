use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{Value, json};
use tackle_core::{
    AssistantPart, AssistantTurn, FinishReason, JsonSchema, Message, Model, ModelErrorKind, ModelEvent,
    ModelRequest, ModelSettings, Secret, ToolCall, ToolChoice, ToolDefinition, ToolReturnPart, ToolStatus,
};
use tackle_providers::Gemini;
use tackle_providers::gemini::{
    GoogleCredentials, MAX_DECLARATIONS, ThinkingConfig, decode_response, decode_stream,
};
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::{Script, settings, test_client, weather_tool};

const THINKING_PARALLEL: &str = include_str!("fixtures/gemini_thinking_parallel.sse");
const TEXT: &str = include_str!("fixtures/gemini_text.sse");
const KEY: &str = "AIzaSy-test-key-0123456789";

fn model(name: &str) -> Gemini {
    Gemini::with_key(name, Secret::new(KEY)).unwrap().client(test_client())
}

fn body(
    model: &Gemini,
    messages: &[Message],
    tools: &[Arc<ToolDefinition>],
    settings: &ModelSettings,
) -> Value {
    model.request_body(&ModelRequest::new("Be brief.", messages, tools, settings)).unwrap()
}

fn results(statuses: [(ToolStatus, &str); 2]) -> Message {
    Message::tool_returns(statuses.iter().enumerate().map(|(i, (status, content))| ToolReturnPart {
        call_id: format!("call_{}", i + 1),
        tool_name: "get_weather".into(),
        content: (*content).into(),
        status: *status,
        attachments: Vec::new(),
    }))
}

/// A turn from another provider: no signatures, ids of its own.
fn foreign_turn() -> AssistantTurn {
    AssistantTurn {
        parts: vec![
            AssistantPart::Text("Checking.".into()),
            AssistantPart::ToolCall(ToolCall::new("call_1", "get_weather", json!({"city": "Oslo"}))),
            AssistantPart::ToolCall(ToolCall::new("call_2", "get_weather", json!({"city": "Rome"}))),
        ],
        ..AssistantTurn::default()
    }
}

#[test]
fn request_shapes() {
    let plain = [Message::user("Hi there")];
    insta::assert_json_snapshot!(
        "gemini_plain_text",
        body(&model("gemini-2.5-flash"), &plain, &[], &settings())
    );

    let tools = [weather_tool(None)];
    let round = [
        Message::user("Weather in Oslo and Rome?"),
        Message::Assistant(foreign_turn()),
        results([
            (ToolStatus::Ok, "3 degrees"),
            (ToolStatus::Failed, "Tool execution failed: upstream timeout"),
        ]),
    ];
    let forced = settings()
        .tool_choice(ToolChoice::Tool("get_weather".into()))
        .temperature(0.2)
        .max_output_tokens(512);
    let thinking = model("gemini-2.5-flash").thinking_budget(1024);
    insta::assert_json_snapshot!("gemini_results_and_forced_tool", body(&thinking, &round, &tools, &forced));

    // A model before 2.5 gets the schema lowered to the OpenAPI subset.
    let required = settings().tool_choice(ToolChoice::Required);
    insta::assert_json_snapshot!(
        "gemini_lowered_schema",
        body(&model("gemini-2.0-flash"), &plain, &tools, &required)
    );
}

#[test]
fn a_turn_from_elsewhere_gets_the_documented_stand_in_signature() {
    let history = [Message::user("?"), Message::Assistant(foreign_turn())];
    let sent = body(&model("gemini-3-pro-preview"), &history, &[], &settings());
    let parts = &sent["contents"][1]["parts"];
    assert_eq!(parts[0], json!({"text": "Checking."}));
    assert_eq!(parts[1]["thoughtSignature"], "skip_thought_signature_validator");
    assert_eq!(parts[1]["functionCall"]["id"], "call_1");
    assert!(parts[2].get("thoughtSignature").is_none(), "only the first call of a turn carries one");
}

#[test]
fn names_outside_the_rule_are_mapped_both_ways() {
    let tool = Arc::new(ToolDefinition::new(
        "3d_render",
        "Render a model.",
        JsonSchema::new(json!({"type": "object", "properties": {"file": {"type": "string"}}})).unwrap(),
    ));
    let forced = settings().tool_choice(ToolChoice::Tool("3d_render".into()));
    let sent = body(&model("gemini-2.5-flash"), &[Message::user("go")], std::slice::from_ref(&tool), &forced);
    assert_eq!(sent["tools"][0]["functionDeclarations"][0]["name"], "_3d_render");
    assert_eq!(sent["toolConfig"]["functionCallingConfig"]["allowedFunctionNames"], json!(["_3d_render"]));
}

#[test]
fn too_many_declarations_are_refused_before_sending() {
    let tools: Vec<_> = (0..=MAX_DECLARATIONS)
        .map(|i| {
            Arc::new(ToolDefinition::new(
                format!("tool_{i}"),
                "A tool.",
                JsonSchema::new(json!({"type": "object"})).unwrap(),
            ))
        })
        .collect();
    let settings = settings();
    let messages = [Message::user("go")];
    let err = model("gemini-2.5-flash")
        .request_body(&ModelRequest::new("", &messages, &tools, &settings))
        .unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::InvalidRequest);
    assert!(err.message.contains("at most 128"), "{}", err.message);
}

#[test]
fn the_documented_stream_decodes_and_replays_unchanged() {
    let (events, response) = decode_stream([THINKING_PARALLEL.as_bytes()]).unwrap();
    let turn = &response.turn;
    let AssistantPart::Thinking(thinking) = &turn.parts[0] else {
        panic!("thinking first: {:?}", turn.parts)
    };
    assert!(thinking.text.ends_with("both lookups can run at once."));
    assert_eq!(turn.joined_text(), "Let me look both up.");
    let calls: Vec<_> = turn.tool_calls().collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[1].arguments.as_object().unwrap()["location"], "Bogotá, Colombia");
    assert_eq!(
        calls[0].provider_data.as_ref().unwrap().data["thoughtSignature"],
        "CiEBjz1rX0ilumvPg6k0sMMUtISo"
    );
    assert_eq!(turn.finish_reason, Some(FinishReason::ToolCalls));
    assert_eq!(
        (turn.usage.input_tokens, turn.usage.output_tokens, turn.usage.reasoning_tokens),
        (61, 150, 120)
    );
    assert_eq!(turn.model_name.as_deref(), Some("gemini-3-flash"));
    assert!(events.iter().any(|e| matches!(e, ModelEvent::ThinkingDelta(t) if t.starts_with("both"))));

    // Replayed: the thought pieces joined into one part, the calls exactly as sent.
    let replayed = body(
        &model("gemini-3-flash"),
        &[Message::user("?"), Message::Assistant(turn.clone())],
        &[],
        &settings(),
    );
    let parts = replayed["contents"][1]["parts"].as_array().unwrap();
    assert_eq!(replayed["contents"][1]["role"], "model");
    assert_eq!(parts.len(), 4);
    assert_eq!(parts[0]["thought"], true);
    assert_eq!(
        parts[2],
        json!({"functionCall": {"name": "get_weather", "args": {"location": "Paris, France"}}, "thoughtSignature": "CiEBjz1rX0ilumvPg6k0sMMUtISo"})
    );

    let (_, plain) = decode_stream([TEXT.as_bytes()]).unwrap();
    assert_eq!(plain.turn.joined_text(), "The capital of France is Paris.");
    assert_eq!(plain.turn.finish_reason, Some(FinishReason::Stop));
}

#[test]
fn a_whole_response_decodes_through_the_same_code() {
    let whole = json!({
        "candidates": [{
            "content": {"role": "model", "parts": [
                {"functionCall": {"id": "fc-7", "name": "get_weather", "args": {"location": "Paris, France"}}, "thoughtSignature": "c2ln"}
            ]},
            "finishReason": "STOP", "index": 0
        }],
        "usageMetadata": {"promptTokenCount": 61, "candidatesTokenCount": 30, "totalTokenCount": 91},
        "modelVersion": "gemini-2.5-pro"
    });
    let (_, response) = decode_response(whole.to_string().as_bytes()).unwrap();
    let call = response.turn.tool_calls().next().unwrap();
    assert_eq!(call.id, "fc-7", "the API's id is kept");
    // And echoed with the result.
    let history = [
        Message::user("?"),
        Message::Assistant(response.turn.clone()),
        Message::tool_returns([ToolReturnPart {
            call_id: "fc-7".into(),
            tool_name: "get_weather".into(),
            content: "15 degrees".into(),
            status: ToolStatus::Ok,
            attachments: Vec::new(),
        }]),
    ];
    let sent = body(&model("gemini-2.5-pro"), &history, &[], &settings());
    assert_eq!(
        sent["contents"][2]["parts"][0],
        json!({"functionResponse": {"name": "get_weather", "id": "fc-7", "response": {"output": "15 degrees"}}})
    );
}

#[test]
fn finish_reasons_and_blocks() {
    let chunk = |candidate: Value| format!("data: {}\n\n", json!({"candidates": [candidate]}));
    let safety = chunk(json!({"content": {"parts": [{"text": "I can"}]}, "finishReason": "SAFETY"}));
    let (_, response) = decode_stream([safety.as_bytes()]).unwrap();
    assert_eq!(response.turn.finish_reason, Some(FinishReason::ContentFilter));

    let length = chunk(json!({"content": {"parts": [{"text": "Once upon"}]}, "finishReason": "MAX_TOKENS"}));
    assert_eq!(decode_stream([length.as_bytes()]).unwrap().1.turn.finish_reason, Some(FinishReason::Length));

    let malformed = chunk(
        json!({"finishReason": "MALFORMED_FUNCTION_CALL", "finishMessage": "Malformed function call: print(x"}),
    );
    let err = decode_stream([malformed.as_bytes()]).unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::InvalidResponse);
    assert!(err.message.contains("MALFORMED_FUNCTION_CALL"), "{}", err.message);

    let blocked = format!("data: {}\n\n", json!({"promptFeedback": {"blockReason": "PROHIBITED_CONTENT"}}));
    let err = decode_stream([blocked.as_bytes()]).unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::Refused);

    let mid_stream = format!(
        "{}data: {}\n\n",
        chunk(json!({"content": {"parts": [{"text": "Hi"}]}})),
        json!({"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}})
    );
    assert_eq!(decode_stream([mid_stream.as_bytes()]).unwrap_err().kind, ModelErrorKind::Overloaded);

    let cut = TEXT.rsplit_once("data:").unwrap().0;
    assert!(decode_stream([cut.as_bytes()]).unwrap_err().message.contains("cut off"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any split of the documented stream gives the same turn.
    #[test]
    fn any_split_gives_the_same_turn(cuts in prop::collection::vec(0usize..THINKING_PARALLEL.len(), 0..40)) {
        let bytes = THINKING_PARALLEL.as_bytes();
        let (_, split) = decode_stream(super::split_at(bytes, cuts)).unwrap();
        let (_, whole) = decode_stream([bytes]).unwrap();
        prop_assert_eq!(split.turn, whole.turn);
    }
}

fn sse(chunks: &[Value]) -> ResponseTemplate {
    let body: String = chunks.iter().map(|c| format!("data: {c}\r\n\r\n")).collect();
    ResponseTemplate::new(200).insert_header("content-type", "text/event-stream").set_body_string(body)
}

fn two_calls() -> ResponseTemplate {
    sse(&[
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "adding", "thought": true}]}}], "modelVersion": "gemini-3-flash"}),
        json!({"candidates": [{"content": {"role": "model", "parts": [
            {"functionCall": {"name": "add", "args": {"a": 2, "b": 40}}, "thoughtSignature": "U0lHLTE="},
            {"functionCall": {"name": "add", "args": {"a": "x", "b": 1}}}
        ]}, "finishReason": "STOP"}], "usageMetadata": {"promptTokenCount": 40, "candidatesTokenCount": 10, "thoughtsTokenCount": 5}}),
    ])
}

#[tokio::test]
async fn a_full_harness_round_trip_over_http() {
    let server = MockServer::start().await;
    let answer = sse(&[
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "It is 42."}]}, "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 90, "candidatesTokenCount": 5, "cachedContentTokenCount": 20}}),
    ]);
    Mock::given(method("POST"))
        .and(path("/v1beta/models/gemini-3-flash:streamGenerateContent"))
        .and(header("x-goog-api-key", KEY))
        .respond_with(Script::new(vec![two_calls(), answer]))
        .expect(2)
        .mount(&server)
        .await;

    super::deltas_only_when_wanted(two_calls(), |url| {
        model("gemini-3-flash").base_url(&format!("{url}beta")).unwrap()
    })
    .await;
    let model = model("gemini-3-flash").base_url(&format!("{}/v1beta", server.uri())).unwrap();
    let answer = super::add_round_trip(&model).await;
    assert_eq!(answer.text, "It is 42.");
    assert_eq!(answer.usage.input_tokens, 40 + 90);
    assert_eq!(answer.usage.reasoning_tokens, 5);

    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests[0].url.query(), Some("alt=sse"));
    let second: Value = serde_json::from_slice(&requests[1].body).unwrap();
    assert_eq!(second["systemInstruction"], json!({"parts": [{"text": "Be brief."}]}));
    let contents = second["contents"].as_array().unwrap();
    assert_eq!(contents.len(), 3);
    // The model's turn exactly as received, signature in place.
    assert_eq!(contents[1]["parts"][1]["thoughtSignature"], "U0lHLTE=");
    assert_eq!(contents[1]["parts"][0], json!({"text": "adding", "thought": true}));
    // Both results in ONE user turn, in call order, the failed one as an error.
    assert_eq!(contents[2]["role"], "user");
    let results = contents[2]["parts"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert_eq!(results[0], json!({"functionResponse": {"name": "add", "response": {"output": "42"}}}));
    assert!(results[1]["functionResponse"]["response"]["error"].is_string(), "{}", results[1]);
}

async fn outcome(
    server: &MockServer,
    responses: Vec<ResponseTemplate>,
) -> Result<(), tackle_core::ModelError> {
    server.reset().await;
    Mock::given(method("POST")).respond_with(Script::new(responses)).mount(server).await;
    let model = model("gemini-2.5-flash").base_url(&format!("{}/v1beta", server.uri())).unwrap();
    let messages = [Message::user("hi")];
    let settings = settings();
    use futures_util::StreamExt;
    let mut stream = model.stream(ModelRequest::new("", &messages, &[], &settings));
    while let Some(event) = stream.next().await {
        event?;
    }
    Ok(())
}

#[tokio::test]
async fn errors_are_mapped_and_the_key_never_shows() {
    let server = MockServer::start().await;
    let status = |code: u16, status: &str, message: &str| {
        ResponseTemplate::new(code)
            .set_body_json(json!({"error": {"code": code, "message": message, "status": status}}))
    };
    let busy = || status(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).");
    let err = outcome(&server, vec![busy(), busy(), busy()]).await.unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::RateLimited);
    assert_eq!(server.received_requests().await.unwrap().len(), 3, "retried twice");

    let ok =
        sse(&[json!({"candidates": [{"content": {"parts": [{"text": "ok"}]}, "finishReason": "STOP"}]})]);
    outcome(&server, vec![busy(), ok]).await.unwrap();

    let err = outcome(&server, vec![status(500, "INTERNAL", "An internal error has occurred."); 3])
        .await
        .unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::Server);

    let too_long = "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).";
    let err = outcome(&server, vec![status(400, "INVALID_ARGUMENT", too_long)]).await.unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::ContextTooLong);

    let bad_key = ResponseTemplate::new(400).set_body_json(json!({"error": {
        "code": 400, "message": format!("API key not valid: {KEY}. Please pass a valid API key."), "status": "INVALID_ARGUMENT",
        "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID", "domain": "googleapis.com"}]
    }}));
    let err = outcome(&server, vec![bad_key]).await.unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::Authentication);
    assert!(!err.message.contains(KEY), "{}", err.message);
    assert!(!format!("{err:?}").contains(KEY));
}

#[tokio::test]
async fn vertex_exchanges_a_signed_jwt_once_and_reuses_the_token() {
    let server = MockServer::start().await;
    let key_pem = include_str!("fixtures/test-service-account-key.pem");
    let public_pem = include_str!("fixtures/test-service-account-key.pub.pem");
    let credentials = json!({
        "type": "service_account", "project_id": "proj-from-file", "private_key_id": "kid-1",
        "private_key": key_pem, "client_email": "runner@proj-from-file.iam.gserviceaccount.com",
        "token_uri": format!("{}/token", server.uri())
    });
    Mock::given(method("POST"))
        .and(path("/token"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"access_token": "ya29.test-token", "expires_in": 3599, "token_type": "Bearer"}),
        ))
        .expect(1)
        .mount(&server)
        .await;
    let text =
        || sse(&[json!({"candidates": [{"content": {"parts": [{"text": "ok"}]}, "finishReason": "STOP"}]})]);
    Mock::given(method("POST"))
        .and(path("/v1/projects/proj-from-file/locations/us-central1/publishers/google/models/gemini-2.5-pro:streamGenerateContent"))
        .and(header("authorization", "Bearer ya29.test-token"))
        .respond_with(Script::new(vec![text(), text()]))
        .expect(2)
        .mount(&server)
        .await;

    let credentials = GoogleCredentials::from_json(&credentials.to_string()).unwrap();
    assert!(!format!("{credentials:?}").contains("PRIVATE KEY"));
    let project = credentials.project_id().unwrap().to_owned();
    let model = Gemini::vertex("gemini-2.5-pro", project, "us-central1", credentials)
        .unwrap()
        .client(test_client())
        .base_url(&format!("{}/v1", server.uri()))
        .unwrap();
    for _ in 0..2 {
        let settings = settings();
        let messages = [Message::user("hi")];
        use futures_util::StreamExt;
        let events: Vec<_> = model.stream(ModelRequest::new("", &messages, &[], &settings)).collect().await;
        assert!(matches!(events.last(), Some(Ok(ModelEvent::Completed(_)))), "{events:?}");
    }

    // The assertion is an RS256 JWT the service account's public key verifies.
    let requests = server.received_requests().await.unwrap();
    let form: Vec<(String, String)> = url_pairs(&requests[0].body);
    assert_eq!(form[0], ("grant_type".into(), "urn:ietf:params:oauth:grant-type:jwt-bearer".into()));
    let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::RS256);
    validation.set_audience(&[format!("{}/token", server.uri())]);
    let decoded = jsonwebtoken::decode::<Value>(
        &form[1].1,
        &jsonwebtoken::DecodingKey::from_rsa_pem(public_pem.as_bytes()).unwrap(),
        &validation,
    )
    .unwrap();
    assert_eq!(decoded.header.kid.as_deref(), Some("kid-1"));
    assert_eq!(decoded.claims["iss"], "runner@proj-from-file.iam.gserviceaccount.com");
    assert_eq!(decoded.claims["scope"], "https://www.googleapis.com/auth/cloud-platform");
}

#[tokio::test]
async fn a_refused_token_exchange_is_an_authentication_error_without_secrets() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/token"))
        .respond_with(
            ResponseTemplate::new(400)
                .set_body_json(json!({"error": "invalid_grant", "error_description": "Bad Request"})),
        )
        .mount(&server)
        .await;
    let credentials = json!({
        "type": "authorized_user", "client_id": "client-1.apps.googleusercontent.com",
        "client_secret": "d-FL95Q19q7MQmFpd7hHD0Ty", "refresh_token": "1//0refresh-secret", "quota_project_id": "q-proj",
        "token_uri": format!("{}/token", server.uri())
    });
    let credentials = GoogleCredentials::from_json(&credentials.to_string()).unwrap();
    assert_eq!(credentials.project_id(), Some("q-proj"));
    let model = Gemini::vertex("gemini-2.5-pro", "q-proj", "global", credentials)
        .unwrap()
        .client(test_client())
        .base_url(&format!("{}/v1", server.uri()))
        .unwrap();
    let settings = settings();
    let messages = [Message::user("hi")];
    use futures_util::StreamExt;
    let err =
        model.stream(ModelRequest::new("", &messages, &[], &settings)).next().await.unwrap().unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::Authentication);
    assert!(err.message.contains("invalid_grant"), "{}", err.message);
    for secret in ["d-FL95Q19q7MQmFpd7hHD0Ty", "1//0refresh-secret"] {
        assert!(!err.message.contains(secret), "{}", err.message);
    }
}

#[test]
fn bad_credentials_files_are_clear_errors() {
    let missing =
        GoogleCredentials::from_json(r#"{"type": "service_account", "client_email": "a@b"}"#).unwrap_err();
    assert!(missing.to_string().contains("private_key"), "{missing}");
    let not_rsa = GoogleCredentials::from_json(
        r#"{"type": "service_account", "client_email": "a@b", "private_key": "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"}"#,
    )
    .unwrap_err();
    assert!(not_rsa.to_string().contains("RSA"), "{not_rsa}");
    assert!(!not_rsa.to_string().contains("AAAA"));
    let external = GoogleCredentials::from_json(r#"{"type": "external_account"}"#).unwrap_err();
    assert!(external.to_string().contains("external_account"));
}

#[test]
fn thinking_settings_are_sent() {
    let level = model("gemini-3-pro-preview").thinking_level("low");
    let sent = body(&level, &[Message::user("?")], &[], &settings());
    assert_eq!(
        sent["generationConfig"]["thinkingConfig"],
        json!({"thinkingLevel": "low", "includeThoughts": true})
    );
    let mut config = ThinkingConfig::default();
    config.thinking_budget = Some(0);
    let off = model("gemini-2.5-flash").thinking(config);
    let sent = body(&off, &[Message::user("?")], &[], &settings());
    assert_eq!(sent["generationConfig"]["thinkingConfig"], json!({"thinkingBudget": 0}));
}

#[test]
fn stored_turn_with_edited_calls_is_rebuilt_with_signatures() {
    let (_, response) = decode_stream([THINKING_PARALLEL.as_bytes()]).unwrap();
    let mut turn = response.turn;
    // The application drops the second call: the stored parts no longer match.
    let mut seen = 0;
    turn.parts.retain(|p| {
        !matches!(p, AssistantPart::ToolCall(_)) || {
            seen += 1;
            seen == 1
        }
    });
    let sent =
        body(&model("gemini-3-flash"), &[Message::user("?"), Message::Assistant(turn)], &[], &settings());
    let parts = sent["contents"][1]["parts"].as_array().unwrap();
    let calls: Vec<_> = parts.iter().filter(|p| p.get("functionCall").is_some()).collect();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0]["thoughtSignature"], "CiEBjz1rX0ilumvPg6k0sMMUtISo");
    assert!(calls[0]["functionCall"].get("id").is_none(), "made-up ids are never sent");
}

fn url_pairs(body: &[u8]) -> Vec<(String, String)> {
    url::form_urlencoded::parse(body).into_owned().collect()
}
