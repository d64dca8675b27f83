//! Tool settings: values addressed as `<tool>.<field>`, resolved locked → user → default,
//! and secrets kept in a [`SecretStore`].

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, RwLock};

use tackle_core::{Secret, SettingField};

/// Where secret settings live (an OS keyring, a file store for headless hosts, memory in
/// tests). Keys are the tool's settings key and the field name.
pub trait SecretStore: Send + Sync {
    /// The secret for `tool`.`field`, if one is stored.
    fn get(&self, tool: &str, field: &str) -> Option<Secret>;
}

/// A secret store held in memory.
#[derive(Debug, Default)]
pub struct MemorySecretStore {
    values: RwLock<HashMap<String, Secret>>,
}

impl MemorySecretStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// Stores a secret.
    pub fn set(&self, tool: &str, field: &str, value: impl Into<Arc<str>>) {
        let mut values = self.values.write().unwrap_or_else(|poisoned| poisoned.into_inner());
        values.insert(format!("{tool}.{field}"), Secret::new(value));
    }
}

impl SecretStore for MemorySecretStore {
    fn get(&self, tool: &str, field: &str) -> Option<Secret> {
        let values = self.values.read().unwrap_or_else(|poisoned| poisoned.into_inner());
        values.get(&format!("{tool}.{field}")).cloned()
    }
}

/// Where a setting's value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SettingOrigin {
    /// Locked by the organisation; users cannot change it.
    Locked,
    /// Set by the user.
    User,
    /// The organisation's default.
    OrgDefault,
    /// The default in the tool's definition.
    ToolDefault,
    /// The secret store.
    SecretStore,
}

/// Setting values for every tool, in three layers, plus a secret store.
///
/// Plain values resolve locked → user → organisation default → the definition's default.
/// Secret fields come only from the secret store: never from these layers, which may be
/// written to files.
#[derive(Clone, Default)]
pub struct Settings {
    locked: HashMap<String, String>,
    user: HashMap<String, String>,
    defaults: HashMap<String, String>,
    secrets: Option<Arc<dyn SecretStore>>,
}

impl fmt::Debug for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Settings")
            .field("locked", &self.locked)
            .field("user", &self.user)
            .field("defaults", &self.defaults)
            .field("secrets", &self.secrets.as_ref().map(|_| "[store]"))
            .finish()
    }
}

fn key(tool: &str, field: &str) -> String {
    format!("{tool}.{field}")
}

impl Settings {
    /// No values at all.
    pub fn new() -> Self {
        Self::default()
    }

    /// Locks `<tool>.<field>` to `value`.
    pub fn lock(mut self, address: impl Into<String>, value: impl Into<String>) -> Self {
        self.locked.insert(address.into(), value.into());
        self
    }

    /// Sets the user's value for `<tool>.<field>`.
    pub fn user(mut self, address: impl Into<String>, value: impl Into<String>) -> Self {
        self.user.insert(address.into(), value.into());
        self
    }

    /// Sets the organisation's default for `<tool>.<field>`.
    pub fn default_value(mut self, address: impl Into<String>, value: impl Into<String>) -> Self {
        self.defaults.insert(address.into(), value.into());
        self
    }

    /// Uses `store` for secret fields.
    pub fn secrets(mut self, store: Arc<dyn SecretStore>) -> Self {
        self.secrets = Some(store);
        self
    }

    /// Every plain value of the three layers, with its layer (locked, user, default).
    pub fn values(&self) -> impl Iterator<Item = (SettingOrigin, &str, &str)> {
        fn layer(
            map: &HashMap<String, String>,
            origin: SettingOrigin,
        ) -> impl Iterator<Item = (SettingOrigin, &str, &str)> {
            map.iter().map(move |(address, value)| (origin, address.as_str(), value.as_str()))
        }
        layer(&self.locked, SettingOrigin::Locked)
            .chain(layer(&self.user, SettingOrigin::User))
            .chain(layer(&self.defaults, SettingOrigin::OrgDefault))
    }

    /// The store secret fields come from.
    pub fn secret_store(&self) -> Option<&Arc<dyn SecretStore>> {
        self.secrets.as_ref()
    }

    /// The plain value of `field` for `tool`, and where it came from. Secret fields are
    /// never resolved here.
    pub fn resolve<'a>(&'a self, tool: &str, field: &'a SettingField) -> Option<(&'a str, SettingOrigin)> {
        if field.secret {
            return None;
        }
        self.layered(tool, &field.name)
            .or_else(|| field.default.as_deref().map(|v| (v, SettingOrigin::ToolDefault)))
    }

    /// The value of `<tool>.<field>` from the locked, user and default layers, without a
    /// definition's default.
    pub fn layered(&self, tool: &str, field: &str) -> Option<(&str, SettingOrigin)> {
        let address = key(tool, field);
        let layers = [
            (&self.locked, SettingOrigin::Locked),
            (&self.user, SettingOrigin::User),
            (&self.defaults, SettingOrigin::OrgDefault),
        ];
        layers.into_iter().find_map(|(layer, origin)| layer.get(&address).map(|v| (v.as_str(), origin)))
    }

    /// The secret value of `field` for `tool`.
    pub fn secret(&self, tool: &str, field: &str) -> Option<Secret> {
        self.secrets.as_ref()?.get(tool, field)
    }

    /// Whether `field` has a usable value (blank values count as missing).
    pub fn is_set(&self, tool: &str, field: &SettingField) -> bool {
        if field.secret {
            self.secret(tool, &field.name).is_some_and(|s| !s.expose().trim().is_empty())
        } else {
            self.resolve(tool, field).is_some_and(|(v, _)| !v.trim().is_empty())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locked_beats_user_beats_default() {
        let field = SettingField::new("lang").default_value("en");
        let s = Settings::new();
        assert_eq!(s.resolve("search", &field), Some(("en", SettingOrigin::ToolDefault)));
        let s = s.default_value("search.lang", "de");
        assert_eq!(s.resolve("search", &field), Some(("de", SettingOrigin::OrgDefault)));
        let s = s.user("search.lang", "fr");
        assert_eq!(s.resolve("search", &field), Some(("fr", SettingOrigin::User)));
        let s = s.lock("search.lang", "it");
        assert_eq!(s.resolve("search", &field), Some(("it", SettingOrigin::Locked)));
        assert_eq!(s.resolve("other", &field), Some(("en", SettingOrigin::ToolDefault)));
    }

    #[test]
    fn secrets_only_come_from_the_store() {
        let field = SettingField::new("api_key").secret();
        let s = Settings::new().user("search.api_key", "plain-text-in-a-file");
        assert!(!s.is_set("search", &field));
        let store = Arc::new(MemorySecretStore::new());
        store.set("search", "api_key", "sk-123");
        let s = s.secrets(store);
        assert!(s.is_set("search", &field));
        let secret = s.secret("search", "api_key").unwrap();
        assert_eq!(secret.expose(), "sk-123");
        assert_eq!(format!("{secret:?} {secret}"), "Secret([redacted]) [redacted]");
        assert!(!format!("{s:?}").contains("sk-123"));
    }
}
