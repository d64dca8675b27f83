//! [`SecretString`]: a credential that never prints.

use std::fmt;

/// A secret such as an API key. `Debug` and `Display` show `[redacted]`; the value is only
/// reachable through [`SecretString::expose`].
#[derive(Clone, PartialEq, Eq)]
pub struct SecretString(String);

impl SecretString {
    /// Wraps a secret.
    pub fn new(value: impl Into<String>) -> Self {
        SecretString(value.into())
    }

    /// The value, for the one place that sends it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Reads a secret from the environment; blank values count as absent.
    pub fn from_env(name: &str) -> Option<Self> {
        std::env::var(name).ok().filter(|v| !v.trim().is_empty()).map(SecretString)
    }
}

impl fmt::Debug for SecretString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecretString([redacted])")
    }
}

impl fmt::Display for SecretString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_prints() {
        let key = SecretString::new("sk-live-123");
        assert_eq!(format!("{key} {key:?}"), "[redacted] SecretString([redacted])");
        assert_eq!(key.expose(), "sk-live-123");
    }
}
