//! OpenAI-compatible hosts as data: where they live, how they authenticate, and which
//! parts of the Chat Completions API they accept.

use serde::Serialize;
use tackle_core::Secret;
use tackle_http::{HeaderMap, HeaderName, HttpClient};

/// How a host takes its API key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KeyHeader {
    /// `Authorization: Bearer <key>`.
    Bearer,
    /// `api-key: <key>` (Azure OpenAI).
    ApiKey,
    /// `x-api-key: <key>` (Anthropic).
    XApiKey,
}

impl KeyHeader {
    /// Headers carrying `key` this way, marked sensitive so that they never print.
    pub fn headers(self, key: Option<&Secret>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        let Some(key) = key else { return headers };
        let (name, value) = match self {
            KeyHeader::Bearer => ("authorization", HttpClient::bearer(key)),
            KeyHeader::ApiKey => ("api-key", HttpClient::secret_header(key)),
            KeyHeader::XApiKey => ("x-api-key", HttpClient::secret_header(key)),
        };
        if let Some(value) = value {
            headers.insert(HeaderName::from_static(name), value);
        }
        headers
    }
}

/// One OpenAI-compatible host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Preset {
    /// The name used on the command line and in settings.
    pub name: &'static str,
    /// The base URL; `/chat/completions` is appended. `{resource}` marks a part the user
    /// must fill in.
    pub base_url: &'static str,
    /// The environment variable the key is read from, when the host needs one.
    pub api_key_env: Option<&'static str>,
    /// Whether the host refuses requests without a key.
    pub requires_key: bool,
    /// How the key is sent.
    pub key_header: KeyHeader,
    /// The host accepts `parallel_tool_calls`.
    pub accepts_parallel_tool_calls: bool,
    /// The host enforces `strict` tool schemas.
    pub strict_schemas: bool,
    /// The host reports usage in streams when asked with `stream_options.include_usage`.
    pub stream_usage: bool,
    /// The host accepts `tool_choice: "required"`.
    pub tool_choice_required: bool,
}

const fn preset(name: &'static str, base_url: &'static str, api_key_env: Option<&'static str>) -> Preset {
    Preset {
        name,
        base_url,
        api_key_env,
        requires_key: api_key_env.is_some(),
        key_header: KeyHeader::Bearer,
        accepts_parallel_tool_calls: true,
        strict_schemas: false,
        stream_usage: true,
        tool_choice_required: true,
    }
}

/// Every known host.
pub const PRESETS: &[Preset] = &[
    Preset { strict_schemas: true, ..preset("openai", "https://api.openai.com/v1", Some("OPENAI_API_KEY")) },
    Preset {
        strict_schemas: true,
        key_header: KeyHeader::ApiKey,
        ..preset("azure", "https://{resource}.openai.azure.com/openai/v1", Some("AZURE_OPENAI_API_KEY"))
    },
    Preset {
        accepts_parallel_tool_calls: false,
        stream_usage: true,
        ..preset("ollama", "http://localhost:11434/v1", None)
    },
    Preset { requires_key: false, ..preset("vllm", "http://localhost:8000/v1", Some("VLLM_API_KEY")) },
    Preset { requires_key: false, ..preset("llamacpp", "http://localhost:8080/v1", Some("LLAMA_API_KEY")) },
    Preset {
        accepts_parallel_tool_calls: false,
        stream_usage: false,
        ..preset("lmstudio", "http://localhost:1234/v1", None)
    },
    preset("openrouter", "https://openrouter.ai/api/v1", Some("OPENROUTER_API_KEY")),
    preset("groq", "https://api.groq.com/openai/v1", Some("GROQ_API_KEY")),
    Preset { stream_usage: false, ..preset("mistral", "https://api.mistral.ai/v1", Some("MISTRAL_API_KEY")) },
    Preset {
        accepts_parallel_tool_calls: false,
        ..preset("deepseek", "https://api.deepseek.com/v1", Some("DEEPSEEK_API_KEY"))
    },
    preset("together", "https://api.together.xyz/v1", Some("TOGETHER_API_KEY")),
];

/// The preset called `name`.
pub fn preset_named(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_urls_plausible() {
        let mut names: Vec<_> = PRESETS.iter().map(|p| p.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), PRESETS.len());
        for p in PRESETS {
            assert!(p.base_url.starts_with("http"), "{}", p.name);
            assert!(!p.base_url.ends_with('/'), "{}", p.name);
            if p.requires_key {
                assert!(p.api_key_env.is_some(), "{}", p.name);
            }
        }
        assert_eq!(preset_named("Ollama").map(|p| p.requires_key), Some(false));
        assert!(preset_named("openai").is_some_and(|p| p.strict_schemas));
    }
}
