//! Organisation secrets, sealed at rest: AES-256-GCM with a key the server gets from its
//! environment (`TACKLE_SERVER_KEY`, 64 hex digits) or a file (`TACKLE_SERVER_KEY_FILE`).
//! Each sealed value is bound to its organisation and address, so a value copied to
//! another row does not open.

use std::sync::Arc;

use aws_lc_rs::aead::{AES_256_GCM, Aad, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use tackle_core::Secret;

use crate::StoreError;

/// The variable that holds the key, as 64 hex digits.
pub const KEY_VAR: &str = "TACKLE_SERVER_KEY";
/// The variable that names a file holding the key.
pub const KEY_FILE_VAR: &str = "TACKLE_SERVER_KEY_FILE";

/// The key that seals and opens organisation secrets.
#[derive(Clone)]
pub struct SecretKey(Arc<LessSafeKey>);

impl std::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretKey(*****)")
    }
}

impl SecretKey {
    /// A key from 64 hex digits (32 bytes); surrounding white space is ignored.
    pub fn from_hex(text: &str) -> Result<Self, StoreError> {
        let text = text.trim();
        let bad = || StoreError::Invalid("the server key must be 64 hex digits (32 bytes)".into());
        if text.len() != 64 || !text.is_ascii() {
            return Err(bad());
        }
        let bytes = (0..32)
            .map(|i| u8::from_str_radix(&text[2 * i..2 * i + 2], 16))
            .collect::<Result<Vec<u8>, _>>()
            .map_err(|_| bad())?;
        let key = UnboundKey::new(&AES_256_GCM, &bytes).map_err(|_| bad())?;
        Ok(SecretKey(Arc::new(LessSafeKey::new(key))))
    }

    /// A new random key, as 64 hex digits (for `tackle serve key create`).
    pub fn generate() -> Result<String, StoreError> {
        crate::store::random_hex(32)
    }

    /// The key from `TACKLE_SERVER_KEY`, else from the file `TACKLE_SERVER_KEY_FILE`
    /// names; `None` when neither is set.
    pub fn from_env() -> Result<Option<Self>, StoreError> {
        if let Some(value) = std::env::var_os(KEY_VAR) {
            let value =
                value.into_string().map_err(|_| StoreError::Invalid(format!("{KEY_VAR} is not text")))?;
            return Self::from_hex(&value).map(Some);
        }
        if let Some(path) = std::env::var_os(KEY_FILE_VAR) {
            let text = std::fs::read_to_string(&path).map_err(|e| {
                StoreError::Invalid(format!(
                    "the key file {} ({KEY_FILE_VAR}) cannot be read: {e}",
                    std::path::Path::new(&path).display()
                ))
            })?;
            return Self::from_hex(&text).map(Some);
        }
        Ok(None)
    }

    fn aad(org: &str, address: &str) -> Vec<u8> {
        let mut aad = Vec::with_capacity(org.len() + address.len() + 1);
        aad.extend_from_slice(org.as_bytes());
        aad.push(0);
        aad.extend_from_slice(address.as_bytes());
        aad
    }

    /// Seals `value` for `org`'s `address`: a random nonce, then the ciphertext and tag.
    pub fn seal(&self, org: &str, address: &str, value: &str) -> Result<Vec<u8>, StoreError> {
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce).map_err(|e| StoreError::Database(format!("no randomness: {e}")))?;
        let mut sealed = value.as_bytes().to_vec();
        self.0
            .seal_in_place_append_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(Self::aad(org, address)),
                &mut sealed,
            )
            .map_err(|_| StoreError::Invalid("the secret could not be sealed".into()))?;
        let mut out = nonce.to_vec();
        out.append(&mut sealed);
        Ok(out)
    }

    /// Opens what [`SecretKey::seal`] sealed for the same organisation and address.
    pub fn open(&self, org: &str, address: &str, sealed: &[u8]) -> Result<Secret, StoreError> {
        let refused = || {
            StoreError::Invalid(format!(
                "the secret {address} of {org} does not open with this server key (sealed with another key, or damaged)"
            ))
        };
        if sealed.len() < NONCE_LEN {
            return Err(refused());
        }
        let (nonce, body) = sealed.split_at(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| refused())?;
        let mut body = body.to_vec();
        let plain = self
            .0
            .open_in_place(nonce, Aad::from(Self::aad(org, address)), &mut body)
            .map_err(|_| refused())?;
        let text = std::str::from_utf8(plain).map_err(|_| refused())?;
        Ok(Secret::new(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_values_open_only_where_they_were_sealed() {
        let key = SecretKey::from_hex(&SecretKey::generate().unwrap()).unwrap();
        let sealed = key.seal("acme", "web_search.api_key", "sk-live-123").unwrap();
        assert!(!sealed.windows(11).any(|w| w == b"sk-live-123"), "never kept in clear");
        assert_eq!(key.open("acme", "web_search.api_key", &sealed).unwrap().expose(), "sk-live-123");
        // Bound to its row: another organisation or address does not open it.
        assert!(key.open("other", "web_search.api_key", &sealed).is_err());
        assert!(key.open("acme", "mail.password", &sealed).is_err());
        // Another key does not open it; the message names no value.
        let other = SecretKey::from_hex(&SecretKey::generate().unwrap()).unwrap();
        let error = other.open("acme", "web_search.api_key", &sealed).unwrap_err().to_string();
        assert!(error.contains("does not open") && !error.contains("sk-live"), "{error}");
        assert!(key.open("acme", "web_search.api_key", &sealed[..5]).is_err());
        assert!(SecretKey::from_hex("abc").is_err());
        assert!(SecretKey::from_hex(&"zz".repeat(32)).is_err());
        assert_eq!(format!("{key:?}"), "SecretKey(*****)");
    }
}
