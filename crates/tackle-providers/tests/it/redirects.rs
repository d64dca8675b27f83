//! Model APIs do not redirect: a redirect to another origin is refused before any key can
//! follow it, whatever header the key travels in.

use futures_util::StreamExt;
use serde_json::json;
use tackle_core::{Message, Model, ModelErrorKind, ModelRequest, Secret};
use tackle_providers::{Anthropic, OpenAiChat, OpenAiResponses, preset_named};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::{settings, sse_response, test_client};

const KEY: &str = "sk-redirect-canary-5f1c";

/// The three key headers: `x-api-key` (Anthropic), `api-key` (Azure), `Authorization`.
fn models(base: &str) -> Vec<Box<dyn Model>> {
    let key = || Some(Secret::new(KEY));
    vec![
        Box::new(
            Anthropic::with_key("m", Secret::new(KEY)).unwrap().client(test_client()).base_url(base).unwrap(),
        ),
        Box::new(
            OpenAiChat::with_key(preset_named("azure").unwrap(), "m", key())
                .unwrap()
                .client(test_client())
                .base_url(base)
                .unwrap(),
        ),
        Box::new(
            OpenAiChat::with_key(preset_named("openai").unwrap(), "m", key())
                .unwrap()
                .client(test_client())
                .base_url(base)
                .unwrap(),
        ),
        Box::new(
            OpenAiResponses::with_key(preset_named("openai").unwrap(), "m", key())
                .unwrap()
                .client(test_client())
                .base_url(base)
                .unwrap(),
        ),
    ]
}

async fn first_error(model: &dyn Model) -> tackle_core::ModelError {
    let messages = [Message::user("hi")];
    let settings = settings();
    let request = ModelRequest::new("", &messages, &[], &settings);
    let mut stream = model.stream(request);
    while let Some(event) = stream.next().await {
        if let Err(error) = event {
            return error;
        }
    }
    panic!("{} answered through a redirect", model.name());
}

#[tokio::test]
async fn a_redirect_to_another_host_and_port_is_refused_and_no_key_leaves() {
    let elsewhere = MockServer::start().await;
    Mock::given(method("POST")).respond_with(ResponseTemplate::new(200)).mount(&elsewhere).await;
    // Another port, and another host name for the same machine.
    let target = elsewhere.uri().replace("127.0.0.1", "localhost");
    for status in [307, 308, 302, 301] {
        let origin = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(
                ResponseTemplate::new(status).insert_header("location", format!("{target}/v1/steal?x={KEY}")),
            )
            .mount(&origin)
            .await;
        for model in models(&format!("{}/v1", origin.uri())) {
            let error = first_error(model.as_ref()).await;
            assert_eq!(error.kind, ModelErrorKind::InvalidRequest, "{}: {error}", model.name());
            assert!(error.message.contains(&format!("{status} with a redirect to {target}")), "{error}");
            assert!(error.message.contains("check the base URL"), "{error}");
            assert!(!error.message.contains(KEY), "{error}");
        }
        // Not retried: one request per model.
        assert_eq!(origin.received_requests().await.unwrap().len(), 4);
    }
    assert!(elsewhere.received_requests().await.unwrap().is_empty(), "a request followed the redirect");
}

#[tokio::test]
async fn a_redirect_within_the_same_origin_is_followed() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/old/chat/completions"))
        .respond_with(ResponseTemplate::new(307).insert_header("location", "/v1/chat/completions"))
        .mount(&server)
        .await;
    let body = [
        json!({"choices": [{"index": 0, "delta": {"content": "ok"}}]}),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
    ]
    .iter()
    .map(|v| format!("data: {v}\n\n"))
    .collect::<String>()
        + "data: [DONE]\n\n";
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(sse_response(body))
        .expect(1)
        .mount(&server)
        .await;
    let model = OpenAiChat::with_key(preset_named("openai").unwrap(), "m", Some(Secret::new(KEY)))
        .unwrap()
        .client(test_client())
        .base_url(&format!("{}/old", server.uri()))
        .unwrap();
    let answer = super::add_round_trip(&model).await;
    assert_eq!(answer.text, "ok");
}

#[tokio::test]
async fn a_stream_line_without_end_fails_clearly_instead_of_growing() {
    let server = MockServer::start().await;
    // One `data:` line of 17 MiB: longer than any line the decoder keeps.
    let body =
        format!("data: {{\"choices\": [{{\"delta\": {{\"content\": \"{}\"}}}}]}}", "x".repeat(17 << 20));
    Mock::given(method("POST")).respond_with(sse_response(body)).mount(&server).await;
    let model = OpenAiChat::with_key(preset_named("openai").unwrap(), "m", Some(Secret::new(KEY)))
        .unwrap()
        .client(test_client())
        .base_url(&format!("{}/v1", server.uri()))
        .unwrap();
    let error = first_error(&model).await;
    assert_eq!(error.kind, ModelErrorKind::InvalidResponse, "{error}");
    assert!(error.message.contains("a line of the streamed response is longer than"), "{error}");
}
