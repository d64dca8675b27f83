//! Policy vocabulary: how far a provider is trusted, and where a tool may be offered.

use std::fmt;

use serde::{Deserialize, Serialize};

/// How far a model provider is trusted with the data of a conversation.
///
/// Levels are ordered: a provider meets a requirement when its level is at least the
/// required one. As a requirement, [`Confidence::None`] asks for nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// No provider is known; as a requirement, none is needed.
    #[default]
    None,
    /// The provider is known not to be trustworthy.
    Untrusted,
    /// Nothing is known about the provider (hubs that route to unknown hosts).
    Unknown,
    /// Very little trust.
    VeryLow,
    /// Low trust.
    Low,
    /// Moderate trust (for example a provider that does not train on the data).
    Moderate,
    /// Medium trust (for example a provider bound by data-protection law).
    Medium,
    /// Full trust (for example a self-hosted model).
    High,
}

impl Confidence {
    /// Every level, from lowest to highest.
    pub const ALL: [Confidence; 8] = [
        Confidence::None,
        Confidence::Untrusted,
        Confidence::Unknown,
        Confidence::VeryLow,
        Confidence::Low,
        Confidence::Moderate,
        Confidence::Medium,
        Confidence::High,
    ];

    /// Whether a provider at this level may be used where `required` is asked for.
    pub fn satisfies(self, required: Confidence) -> bool {
        self >= required
    }

    /// The name used in settings files and messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::None => "none",
            Confidence::Untrusted => "untrusted",
            Confidence::Unknown => "unknown",
            Confidence::VeryLow => "very_low",
            Confidence::Low => "low",
            Confidence::Moderate => "moderate",
            Confidence::Medium => "medium",
            Confidence::High => "high",
        }
    }
}

impl fmt::Display for Confidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A place in a host application where tools can be offered: `chat`, `coding_assistant`, ...
///
/// Hosts choose their own components; a registry can be told which ones exist so that
/// definitions naming an unknown component are refused.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Component(String);

impl Component {
    /// The component of an ordinary chat.
    pub const CHAT: &'static str = "chat";

    /// A component with this name.
    pub fn new(name: impl Into<String>) -> Self {
        Component(name.into())
    }

    /// The chat component.
    pub fn chat() -> Self {
        Component::new(Self::CHAT)
    }

    /// The component's name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for Component {
    fn from(name: &str) -> Self {
        Component::new(name)
    }
}

/// Where a tool may be offered: an allow list and a deny list of components.
///
/// An empty allow list allows every component; a non-empty one allows only its entries.
/// The deny list is applied last and always wins.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Visibility {
    /// Components the tool is limited to; empty means all.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub allowed: Vec<Component>,
    /// Components the tool is never offered in.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub denied: Vec<Component>,
}

impl Visibility {
    /// Visible everywhere.
    pub fn everywhere() -> Self {
        Visibility::default()
    }

    /// Whether a tool with this visibility may be offered in `component`.
    pub fn is_visible_in(&self, component: &Component) -> bool {
        if self.denied.contains(component) {
            return false;
        }
        self.allowed.is_empty() || self.allowed.contains(component)
    }

    /// Whether nothing restricts the tool.
    pub fn is_unrestricted(&self) -> bool {
        self.allowed.is_empty() && self.denied.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confidence_is_ordered() {
        assert!(Confidence::High.satisfies(Confidence::Medium));
        assert!(Confidence::Low.satisfies(Confidence::None));
        assert!(!Confidence::Unknown.satisfies(Confidence::VeryLow));
        for pair in Confidence::ALL.windows(2) {
            assert!(pair[0] < pair[1]);
        }
    }

    #[test]
    fn confidence_round_trips_through_its_name() {
        for level in Confidence::ALL {
            let json = serde_json::to_string(&level).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", level.as_str()));
            let back: Confidence = serde_json::from_str(&json).unwrap_or(Confidence::None);
            assert_eq!(back, level);
        }
    }

    #[test]
    fn deny_wins_over_allow() {
        let v = Visibility { allowed: vec!["chat".into()], denied: vec!["chat".into()] };
        assert!(!v.is_visible_in(&Component::chat()));
        let v = Visibility { allowed: vec![], denied: vec!["legal".into()] };
        assert!(v.is_visible_in(&Component::chat()));
        assert!(!v.is_visible_in(&"legal".into()));
        let v = Visibility { allowed: vec!["writer".into()], denied: vec![] };
        assert!(!v.is_visible_in(&Component::chat()));
        assert!(v.is_visible_in(&"writer".into()));
    }
}
