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
