//! [`Secret`]: a credential that never prints.

use std::fmt;
use std::sync::Arc;

/// A secret value (an API key, a password). `Debug` and `Display` show `[redacted]`; the
/// value is only reachable through [`Secret::expose`]. Cheap to clone.
///
/// ```
/// use tackle_core::Secret;
/// let key = Secret::new("sk-live-123");
/// assert_eq!(format!("{key} {key:?}"), "[redacted] Secret([redacted])");
/// assert_eq!(key.expose(), "sk-live-123");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(Arc<str>);

impl Secret {
    /// Wraps a secret value.
    pub fn new(value: impl Into<Arc<str>>) -> Self {
        Secret(value.into())
    }

    /// Reads a secret from the environment; unset or blank counts as absent.
    pub fn from_env(name: &str) -> Option<Self> {
        std::env::var(name).ok().filter(|v| !v.trim().is_empty()).map(Secret::new)
    }

    /// The value. Call this only where the value is used, never to log it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Replaces every occurrence of this secret in `text` with `[redacted]`. An empty
    /// secret matches nothing. Returns whether anything was replaced.
    ///
    /// ```
    /// use tackle_core::Secret;
    /// let mut text = String::from("bad key sk-live-123 (sk-live-123)");
    /// assert!(Secret::new("sk-live-123").scrub(&mut text));
    /// assert_eq!(text, "bad key [redacted] ([redacted])");
    /// ```
    pub fn scrub(&self, text: &mut String) -> bool {
        let value = self.expose();
        if value.is_empty() || !text.contains(value) {
            return false;
        }
        *text = text.replace(value, "[redacted]");
        true
    }

    /// [`Secret::scrub`] for each of `secrets`, longest first (so a secret that contains
    /// another is replaced whole). Returns whether anything was replaced.
    pub fn scrub_all<'s>(secrets: impl IntoIterator<Item = &'s Secret>, text: &mut String) -> bool {
        let mut secrets: Vec<&Secret> = secrets.into_iter().collect();
        secrets.sort_by_key(|s| std::cmp::Reverse(s.expose().len()));
        secrets.into_iter().fold(false, |any, secret| secret.scrub(text) | any)
    }
}

/// A secret read from a settings file stays a `Secret` from the moment it is parsed. There is
/// no `Serialize`: a secret is never written back out by accident.
impl<'de> serde::Deserialize<'de> for Secret {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Secret::new)
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret([redacted])")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}
