//! Secrets: provider keys and tools' secret settings, in the OS keyring (the default) or,
//! on headless machines without one, in an explicit file store.
//!
//! Names are free-form: `OPENAI_API_KEY` (read for providers whose key lives in that
//! environment variable when the variable is unset), a name given as `api_key_secret`, or
//! `<tool>.<field>` for a tool's secret setting. Values are never printed.
//!
//! The file store is `secrets.toml` in the data dir, readable by the owner only (mode 0600
//! on Unix). It is plain text on disk: choose it only where no keyring exists, with
//! `secrets = "file"` in the settings file or `TACKLE_SECRETS=file`.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Read as _};
use std::path::PathBuf;
use std::process::ExitCode;

use tackle_core::Secret;
use tackle_tools::SecretStore;

use crate::config::Config;
use crate::failure::Failure;
use crate::sessions::data_dir;

/// The keyring service name.
const SERVICE: &str = "tackle";

/// Where secrets are kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Backend {
    /// The OS keyring (Keychain, Credential Manager, Secret Service).
    Keyring,
    /// A file only the owner may read.
    File(PathBuf),
}

impl Backend {
    /// The backend the settings choose: `TACKLE_SECRETS`, else `secrets` in the file, else
    /// the keyring.
    pub(crate) fn chosen(config: &Config) -> Result<Backend, Failure> {
        let choice =
            std::env::var("TACKLE_SECRETS").ok().filter(|v| !v.is_empty()).or(config.file.secrets.clone());
        match choice.as_deref() {
            None | Some("keyring") => Ok(Backend::Keyring),
            Some("file") => Ok(Backend::File(data_dir()?.join("secrets.toml"))),
            Some(other) => {
                Err(Failure::usage(format!("unknown secret store {other:?}"))
                    .hint("use \"keyring\" or \"file\""))
            }
        }
    }

    fn describe(&self) -> String {
        match self {
            Backend::Keyring => "the OS keyring".to_owned(),
            Backend::File(path) => format!("the file store {}", path.display()),
        }
    }

    /// The secret called `name`; `None` when not stored or the store is unavailable.
    pub(crate) fn get(&self, name: &str) -> Option<Secret> {
        match self {
            Backend::Keyring => {
                let entry = keyring::Entry::new(SERVICE, name).ok()?;
                entry.get_password().ok().map(Secret::new)
            }
            Backend::File(path) => read_file(path).ok()?.remove(name).map(Secret::new),
        }
    }

    fn set(&self, name: &str, value: &str) -> Result<(), Failure> {
        match self {
            Backend::Keyring => keyring::Entry::new(SERVICE, name)
                .and_then(|entry| entry.set_password(value))
                .map_err(keyring_failure),
            Backend::File(path) => {
                let mut values = read_file(path)?;
                values.insert(name.to_owned(), value.to_owned());
                write_file(path, &values)
            }
        }
    }

    /// Deletes `name`; `false` when it was not there.
    fn delete(&self, name: &str) -> Result<bool, Failure> {
        match self {
            Backend::Keyring => {
                let entry = keyring::Entry::new(SERVICE, name).map_err(keyring_failure)?;
                match entry.delete_credential() {
                    Ok(()) => Ok(true),
                    Err(keyring::Error::NoEntry) => Ok(false),
                    Err(error) => Err(keyring_failure(error)),
                }
            }
            Backend::File(path) => {
                let mut values = read_file(path)?;
                let found = values.remove(name).is_some();
                if found {
                    write_file(path, &values)?;
                }
                Ok(found)
            }
        }
    }
}

fn keyring_failure(error: keyring::Error) -> Failure {
    Failure::run(format!("the OS keyring is not usable here: {error}"))
        .hint("on a machine without a keyring, use the file store: `secrets = \"file\"` in the settings file, or TACKLE_SECRETS=file")
}

fn read_file(path: &PathBuf) -> Result<BTreeMap<String, String>, Failure> {
    match fs_err::read_to_string(path) {
        Ok(text) => toml::from_str(&text)
            .map_err(|e| Failure::run(format!("the secret file {} is not valid: {e}", path.display()))),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(BTreeMap::new()),
        Err(error) => Err(Failure::run(error.to_string())),
    }
}

fn write_file(path: &PathBuf, values: &BTreeMap<String, String>) -> Result<(), Failure> {
    if let Some(dir) = path.parent() {
        fs_err::create_dir_all(dir).map_err(|e| Failure::run(e.to_string()))?;
    }
    let text = toml::to_string(values).map_err(|e| Failure::run(format!("cannot write secrets: {e}")))?;
    // Written beside, restricted, then moved over: never readable by others, never half written.
    let temporary = path.with_extension("toml.tmp");
    {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options
            .open(&temporary)
            .map_err(|e| Failure::run(format!("cannot write {}: {e}", temporary.display())))?;
        std::io::Write::write_all(&mut file, text.as_bytes())
            .map_err(|e| Failure::run(format!("cannot write {}: {e}", temporary.display())))?;
    }
    fs_err::rename(&temporary, path).map_err(|e| Failure::run(e.to_string()))
}

/// Tools' secret settings, named `<tool>.<field>`.
pub(crate) struct ToolSecrets(pub(crate) Backend);

impl SecretStore for ToolSecrets {
    fn get(&self, tool: &str, field: &str) -> Option<Secret> {
        self.0.get(&format!("{tool}.{field}"))
    }
}

fn check_name(name: &str) -> Result<(), Failure> {
    let valid = !name.is_empty()
        && name.len() <= 128
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if valid {
        Ok(())
    } else {
        Err(Failure::usage(format!("{name:?} is not a secret name"))
            .hint("use letters, digits, `_`, `-` and `.`"))
    }
}

/// Reads the value: hidden from a terminal, else the first line of standard input.
pub(crate) fn read_value(name: &str) -> Result<String, Failure> {
    let value = if std::io::stdin().is_terminal() {
        rpassword::prompt_password(format!("value for {name} (not shown): "))
            .map_err(|e| Failure::run(format!("cannot read the value: {e}")))?
    } else {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| Failure::run(format!("cannot read the value: {e}")))?;
        text.lines().next().unwrap_or("").to_owned()
    };
    let value = value.trim().to_owned();
    if value.is_empty() {
        return Err(Failure::usage("the value is empty; nothing stored"));
    }
    Ok(value)
}

/// `tackle secret set NAME`.
pub(crate) fn set(name: &str, config: &Config) -> Result<ExitCode, Failure> {
    check_name(name)?;
    let backend = Backend::chosen(config)?;
    let value = read_value(name)?;
    backend.set(name, &value)?;
    crate::eprint_line(&format!("stored {name} in {}", backend.describe()));
    Ok(ExitCode::SUCCESS)
}

/// `tackle secret delete NAME`.
pub(crate) fn delete(name: &str, config: &Config) -> Result<ExitCode, Failure> {
    check_name(name)?;
    let backend = Backend::chosen(config)?;
    if backend.delete(name)? {
        crate::eprint_line(&format!("deleted {name} from {}", backend.describe()));
        Ok(ExitCode::SUCCESS)
    } else {
        Err(Failure::usage(format!("no secret {name} in {}", backend.describe())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_store_keeps_values_private() {
        let dir = tempfile::tempdir().unwrap();
        let backend = Backend::File(dir.path().join("secrets.toml"));
        backend.set("OPENAI_API_KEY", "sk-one").unwrap();
        backend.set("web_search.token", "t-two").unwrap();
        assert_eq!(backend.get("OPENAI_API_KEY").map(|s| s.expose().to_owned()).as_deref(), Some("sk-one"));
        assert_eq!(
            ToolSecrets(backend.clone()).get("web_search", "token").map(|s| s.expose().to_owned()).as_deref(),
            Some("t-two")
        );
        assert!(backend.delete("OPENAI_API_KEY").unwrap());
        assert!(!backend.delete("OPENAI_API_KEY").unwrap());
        assert!(backend.get("OPENAI_API_KEY").is_none());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join("secrets.toml")).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn names_are_checked() {
        assert!(check_name("OPENAI_API_KEY").is_ok());
        assert!(check_name("web_search.token").is_ok());
        assert!(check_name("a b").is_err());
        assert!(check_name("").is_err());
    }
}
