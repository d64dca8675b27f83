//! Conversation history as messages made of parts.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::call::ToolCall;
use crate::error::ToolStatus;
use crate::model::FinishReason;
use crate::usage::Usage;

/// Data a provider needs back verbatim on a later request, namespaced by the provider
/// family that produced it (`"anthropic"`, `"openai_responses"`, ...).
///
/// Core code never looks inside; only the adapter of the same family reads it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProviderData {
    /// The provider family the data belongs to.
    pub provider: String,
    /// The data, exactly as the adapter stored it.
    pub data: Value,
}

impl ProviderData {
    /// Data for `provider`.
    pub fn new(provider: impl Into<String>, data: Value) -> Self {
        ProviderData { provider: provider.into(), data }
    }
}

/// One message of a conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Message {
    /// Instructions from the application.
    System {
        /// The instructions.
        text: String,
    },
    /// What the user said, and the results of the tools the model called.
    User {
        /// Text and tool results, in order.
        parts: Vec<UserPart>,
    },
    /// One turn of the model.
    Assistant(AssistantTurn),
}

impl Message {
    /// A system message.
    pub fn system(text: impl Into<String>) -> Self {
        Message::System { text: text.into() }
    }

    /// A user message with one text part.
    pub fn user(text: impl Into<String>) -> Self {
        Message::User { parts: vec![UserPart::Text(text.into())] }
    }

    /// A user message carrying tool results.
    pub fn tool_returns(returns: impl IntoIterator<Item = ToolReturnPart>) -> Self {
        Message::User { parts: returns.into_iter().map(UserPart::ToolReturn).collect() }
    }
}

/// A part of a user message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "content", rename_all = "snake_case")]
pub enum UserPart {
    /// Text the user wrote.
    Text(String),
    /// The result of one tool call, as the model is shown it.
    ToolReturn(ToolReturnPart),
}

/// The result of a tool call as it enters the conversation: only what the model may see.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolReturnPart {
    /// The id of the call this answers.
    pub call_id: String,
    /// The tool name the call used.
    pub tool_name: String,
    /// The text the model is shown.
    pub content: String,
    /// How the call ended; adapters with an error flag set it from this.
    pub status: ToolStatus,
    /// Images that come with the result, for the APIs that take them in a tool result
    /// (the text already describes each, for those that do not).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<crate::Attachment>,
}

impl ToolReturnPart {
    /// Whether the wire APIs that carry an error flag should set it.
    pub fn is_error(&self) -> bool {
        self.status.rule().is_error
    }
}

/// One turn of the model: text, reasoning and tool calls in the order it produced them.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct AssistantTurn {
    /// The parts, in order.
    pub parts: Vec<AssistantPart>,
    /// The model that produced the turn, as the provider named it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_name: Option<String>,
    /// Why the model stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<FinishReason>,
    /// Tokens the turn consumed.
    #[serde(default)]
    pub usage: Usage,
    /// Whole-turn provider data to replay (for example every output item of a round).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider_data: Option<ProviderData>,
}

impl AssistantTurn {
    /// A turn that only says `text`.
    pub fn text(text: impl Into<String>) -> Self {
        AssistantTurn { parts: vec![AssistantPart::Text(text.into())], ..AssistantTurn::default() }
    }

    /// The tool calls of the turn, in order.
    pub fn tool_calls(&self) -> impl Iterator<Item = &ToolCall> {
        self.parts.iter().filter_map(|part| match part {
            AssistantPart::ToolCall(call) => Some(call),
            _ => None,
        })
    }

    /// The turn's text parts joined together.
    pub fn joined_text(&self) -> String {
        self.parts
            .iter()
            .filter_map(|part| match part {
                AssistantPart::Text(text) => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }
}

/// A part of a model turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "content", rename_all = "snake_case")]
pub enum AssistantPart {
    /// Text for the user.
    Text(String),
    /// Reasoning the model showed (or hid) before answering.
    Thinking(Thinking),
    /// A call of a tool.
    ToolCall(ToolCall),
}

/// Reasoning a model produced, kept so that it can be replayed to the same provider.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Thinking {
    /// The readable reasoning text; empty when the provider hid it.
    pub text: String,
    /// Whether the provider redacted the reasoning (only opaque data remains).
    #[serde(default)]
    pub redacted: bool,
    /// Opaque provider data (signatures, encrypted content) that must be replayed verbatim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider_data: Option<ProviderData>,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_history_survives_serialisation() {
        let history = vec![
            Message::system("be brief"),
            Message::user("weather in Oslo?"),
            Message::Assistant(AssistantTurn {
                parts: vec![
                    AssistantPart::Thinking(Thinking {
                        text: "look it up".into(),
                        redacted: false,
                        provider_data: Some(ProviderData::new("anthropic", json!({"signature": "c2ln"}))),
                    }),
                    AssistantPart::ToolCall(ToolCall::from_raw("c1", "weather", "{\"city\":")),
                ],
                finish_reason: Some(FinishReason::ToolCalls),
                ..AssistantTurn::default()
            }),
            Message::tool_returns([ToolReturnPart {
                call_id: "c1".into(),
                tool_name: "weather".into(),
                content: "fix the arguments".into(),
                status: ToolStatus::InvalidArguments,
                attachments: Vec::new(),
            }]),
        ];
        let text = serde_json::to_string(&history).unwrap();
        let back: Vec<Message> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, history);
        let Message::Assistant(turn) = &back[2] else { panic!("assistant turn expected") };
        assert_eq!(turn.tool_calls().count(), 1);
    }

    #[test]
    fn error_flag_follows_the_status() {
        let mut part = ToolReturnPart {
            call_id: "c".into(),
            tool_name: "t".into(),
            content: String::new(),
            status: ToolStatus::Ok,
            attachments: Vec::new(),
        };
        assert!(!part.is_error());
        part.status = ToolStatus::Blocked;
        assert!(part.is_error());
        part.status = ToolStatus::Feedback;
        assert!(!part.is_error());
    }
}
