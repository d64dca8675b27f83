//! Integration tests for the provider adapters: request shapes, recorded responses, and
//! full rounds against a local HTTP server (never the internet: the client's loopback
//! guard is on).
#![allow(clippy::unwrap_used, missing_docs, unreachable_pub)]

mod anthropic;
mod openai_chat;
mod openai_responses;

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tackle_core::{JsonSchema, ModelSettings, ToolDefinition};
use tackle_http::{HttpClient, RetryConfig};

pub fn test_client() -> HttpClient {
    HttpClient::new()
        .unwrap()
        .loopback_only(true)
        .retry(RetryConfig {
            max_retries: 2,
            initial_backoff: Duration::from_millis(10),
            max_backoff: Duration::from_millis(50),
            max_retry_after: Duration::from_secs(5),
        })
        .first_byte_timeout(Duration::from_millis(500))
}

pub fn weather_tool(strict: Option<bool>) -> Arc<ToolDefinition> {
    let mut def = ToolDefinition::new(
        "get_weather",
        "Get the current weather for a city.",
        JsonSchema::new(json!({
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "The city."},
                "unit": {"type": "string", "enum": ["c", "f"]},
                "when": {
                    "type": "object",
                    "properties": {"day": {"type": "string", "format": "date"}, "hour": {"type": "integer"}},
                    "required": ["day"]
                }
            },
            "required": ["city"]
        }))
        .unwrap(),
    );
    def.strict = strict;
    Arc::new(def)
}

pub fn settings() -> ModelSettings {
    ModelSettings::default()
}
