//! Google OAuth for Vertex AI: a token given directly, or one exchanged for a signed JWT
//! (a service account's key) or a refresh token (a user's application-default
//! credentials), kept until shortly before it expires.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::Deserialize;
use tackle_core::{ModelError, ModelErrorKind, Secret};
use tackle_http::{HeaderMap, HttpClient, HttpError};

use crate::endpoint::SetupError;

/// The scope Vertex AI needs.
pub const VERTEX_SCOPE: &str = "https://www.googleapis.com/auth/cloud-platform";

/// Google's token endpoint, where credentials files do not name another.
const TOKEN_URI: &str = "https://oauth2.googleapis.com/token";

/// A token is renewed this long before it expires.
const RENEW_BEFORE: Duration = Duration::from_secs(120);

/// The largest token response read.
const MAX_TOKEN_RESPONSE: usize = 64 * 1024;

/// Where Vertex AI tokens come from.
pub struct GoogleCredentials {
    source: Source,
    project_id: Option<String>,
    cached: tokio::sync::Mutex<Option<(Secret, Instant)>>,
}

enum Source {
    /// A token given as it is (`gcloud auth print-access-token`).
    Token(Secret),
    /// A service account: a JWT signed with its key, exchanged for a token.
    ServiceAccount {
        email: String,
        key: Arc<jsonwebtoken::EncodingKey>,
        key_id: Option<String>,
        token_uri: String,
        pem: Secret,
    },
    /// A user's application-default credentials: a refresh token, exchanged.
    AuthorizedUser { client_id: String, client_secret: Secret, refresh_token: Secret, token_uri: String },
}

impl std::fmt::Debug for GoogleCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match &self.source {
            Source::Token(_) => "token".to_owned(),
            Source::ServiceAccount { email, .. } => format!("service account {email}"),
            Source::AuthorizedUser { client_id, .. } => format!("authorized user of client {client_id}"),
        };
        f.debug_struct("GoogleCredentials")
            .field("kind", &kind)
            .field("project_id", &self.project_id)
            .finish()
    }
}

/// A credentials file, as `gcloud` and the Cloud console write them.
#[derive(Deserialize)]
struct File {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    project_id: Option<String>,
    #[serde(default)]
    quota_project_id: Option<String>,
    #[serde(default)]
    client_email: Option<String>,
    #[serde(default)]
    private_key: Option<String>,
    #[serde(default)]
    private_key_id: Option<String>,
    #[serde(default)]
    token_uri: Option<String>,
    #[serde(default)]
    client_id: Option<String>,
    #[serde(default)]
    client_secret: Option<String>,
    #[serde(default)]
    refresh_token: Option<String>,
}

#[derive(Deserialize)]
struct TokenResponse {
    access_token: String,
    #[serde(default)]
    expires_in: Option<u64>,
}

#[derive(serde::Serialize)]
struct Claims<'a> {
    iss: &'a str,
    scope: &'a str,
    aud: &'a str,
    iat: u64,
    exp: u64,
}

fn bad(message: impl Into<String>) -> SetupError {
    SetupError::Credentials(message.into())
}

fn auth_error(message: impl Into<String>) -> ModelError {
    ModelError::new(ModelErrorKind::Authentication, message)
}

impl GoogleCredentials {
    fn with(source: Source, project_id: Option<String>) -> Self {
        GoogleCredentials { source, project_id, cached: tokio::sync::Mutex::new(None) }
    }

    /// An access token given as it is; it is not renewed.
    pub fn access_token(token: Secret) -> Self {
        Self::with(Source::Token(token), None)
    }

    /// Credentials from the text of a credentials file: a service account's key
    /// (`"type": "service_account"`) or a user's application-default credentials
    /// (`"type": "authorized_user"`).
    pub fn from_json(text: &str) -> Result<Self, SetupError> {
        let file: File = serde_json::from_str(text)
            .map_err(|e| bad(format!("the Google credentials are not a credentials file ({e})")))?;
        let token_uri = file.token_uri.filter(|u| !u.is_empty()).unwrap_or_else(|| TOKEN_URI.to_owned());
        let missing = |field: &str| bad(format!("the Google credentials of type {} lack {field}", file.kind));
        match file.kind.as_str() {
            "service_account" => {
                let email = file.client_email.clone().ok_or_else(|| missing("client_email"))?;
                let pem = file.private_key.clone().ok_or_else(|| missing("private_key"))?;
                let key = jsonwebtoken::EncodingKey::from_rsa_pem(pem.as_bytes())
                    .map_err(|_| bad("the service account's private_key is not an RSA key in PEM form"))?;
                let source = Source::ServiceAccount {
                    email,
                    key: Arc::new(key),
                    key_id: file.private_key_id.clone(),
                    token_uri,
                    pem: Secret::new(pem),
                };
                Ok(Self::with(source, file.project_id))
            }
            "authorized_user" => {
                let source = Source::AuthorizedUser {
                    client_id: file.client_id.clone().ok_or_else(|| missing("client_id"))?,
                    client_secret: Secret::new(
                        file.client_secret.clone().ok_or_else(|| missing("client_secret"))?,
                    ),
                    refresh_token: Secret::new(
                        file.refresh_token.clone().ok_or_else(|| missing("refresh_token"))?,
                    ),
                    token_uri,
                };
                Ok(Self::with(source, file.quota_project_id.or(file.project_id)))
            }
            other => Err(bad(format!(
                "Google credentials of type {other:?} are not supported (service_account and authorized_user are)"
            ))),
        }
    }

    /// Credentials from a credentials file.
    pub fn from_file(path: &Path) -> Result<Self, SetupError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| bad(format!("cannot read the Google credentials file {}: {e}", path.display())))?;
        Self::from_json(&text)
    }

    /// Credentials as Google's client libraries find them: the file named by
    /// `GOOGLE_APPLICATION_CREDENTIALS`, else `gcloud`'s application-default credentials.
    pub fn from_env() -> Result<Self, SetupError> {
        if let Some(path) = std::env::var_os("GOOGLE_APPLICATION_CREDENTIALS").filter(|p| !p.is_empty()) {
            return Self::from_file(Path::new(&path));
        }
        let default = application_default_file();
        match default {
            Some(path) if path.is_file() => Self::from_file(&path),
            _ => Err(SetupError::MissingKey { preset: "vertex", env: "GOOGLE_APPLICATION_CREDENTIALS" }),
        }
    }

    /// The project the credentials belong to, when they say.
    pub fn project_id(&self) -> Option<&str> {
        self.project_id.as_deref()
    }

    /// Everything in the credentials that must never be shown.
    pub(crate) fn secrets(&self) -> Vec<Secret> {
        let mut secrets = match &self.source {
            Source::Token(token) => vec![token.clone()],
            Source::ServiceAccount { pem, .. } => vec![pem.clone()],
            Source::AuthorizedUser { client_secret, refresh_token, .. } => {
                vec![client_secret.clone(), refresh_token.clone()]
            }
        };
        if let Ok(cached) = self.cached.try_lock()
            && let Some((token, _)) = cached.as_ref()
        {
            secrets.push(token.clone());
        }
        secrets
    }

    /// A token that is good for a while yet, exchanged anew when needed. Concurrent rounds
    /// share one exchange.
    pub(crate) async fn token(&self, client: &HttpClient) -> Result<Secret, ModelError> {
        if let Source::Token(token) = &self.source {
            return Ok(token.clone());
        }
        let mut cached = self.cached.lock().await;
        if let Some((token, until)) = cached.as_ref()
            && Instant::now() < *until
        {
            return Ok(token.clone());
        }
        let (token_uri, pairs, secret): (&str, Vec<(&str, String)>, Secret) = match &self.source {
            Source::Token(token) => return Ok(token.clone()),
            Source::ServiceAccount { email, key, key_id, token_uri, .. } => {
                let now = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
                let claims =
                    Claims { iss: email, scope: VERTEX_SCOPE, aud: token_uri, iat: now, exp: now + 3600 };
                let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::RS256);
                header.kid = key_id.clone();
                let assertion = jsonwebtoken::encode(&header, &claims, key).map_err(|e| {
                    auth_error(format!("the service account's token request could not be signed ({e})"))
                })?;
                let secret = Secret::new(assertion.as_str());
                let pairs = vec![
                    ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer".to_owned()),
                    ("assertion", assertion),
                ];
                (token_uri, pairs, secret)
            }
            Source::AuthorizedUser { client_id, client_secret, refresh_token, token_uri } => {
                let pairs = vec![
                    ("grant_type", "refresh_token".to_owned()),
                    ("client_id", client_id.clone()),
                    ("client_secret", client_secret.expose().to_owned()),
                    ("refresh_token", refresh_token.expose().to_owned()),
                ];
                (token_uri, pairs, refresh_token.clone())
            }
        };
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let (token, lifetime) = self.exchange(client, token_uri, &pairs, secret).await?;
        let until = Instant::now() + lifetime.saturating_sub(RENEW_BEFORE);
        *cached = Some((token.clone(), until));
        Ok(token)
    }

    async fn exchange(
        &self,
        client: &HttpClient,
        token_uri: &str,
        pairs: &[(&str, &str)],
        sent_secret: Secret,
    ) -> Result<(Secret, Duration), ModelError> {
        let mut secrets = self.secrets();
        secrets.push(sent_secret);
        let scrubbed = |mut text: String| {
            Secret::scrub_all(&secrets, &mut text);
            text
        };
        let sent = client.post_form(token_uri, &HeaderMap::new(), pairs).await.map_err(|error| {
            let kind = match &error {
                HttpError::Status { status: 400 | 401 | 403, .. } => ModelErrorKind::Authentication,
                HttpError::Status { status, .. } => crate::drive::kind_for_status(*status),
                _ => ModelErrorKind::Transport,
            };
            let detail = match &error {
                HttpError::Status { status, body, .. } => {
                    let reason = serde_json::from_str::<serde_json::Value>(body).ok().and_then(|v| {
                        let error =
                            v.get("error").and_then(serde_json::Value::as_str).unwrap_or_default().to_owned();
                        let description = v
                            .get("error_description")
                            .and_then(serde_json::Value::as_str)
                            .unwrap_or_default();
                        (!error.is_empty()).then(|| format!("{error} {description}").trim().to_owned())
                    });
                    format!("HTTP {status}{}", reason.map(|r| format!(": {r}")).unwrap_or_default())
                }
                other => other.to_string(),
            };
            ModelError::new(
                kind,
                scrubbed(format!("the Google token exchange at {token_uri} failed: {detail}")),
            )
        })?;
        let body = sent
            .read_all(MAX_TOKEN_RESPONSE)
            .await
            .map_err(|e| ModelError::new(ModelErrorKind::Transport, scrubbed(e.to_string())))?;
        let response: TokenResponse = serde_json::from_slice(&body).map_err(|_| {
            auth_error(format!("the Google token exchange at {token_uri} answered without a token"))
        })?;
        let lifetime = Duration::from_secs(response.expires_in.unwrap_or(3600).min(24 * 3600));
        Ok((Secret::new(response.access_token), lifetime))
    }
}

/// Where `gcloud auth application-default login` writes its credentials.
fn application_default_file() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("CLOUDSDK_CONFIG").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir).join("application_default_credentials.json"));
    }
    if cfg!(windows) {
        std::env::var_os("APPDATA")
            .map(|d| PathBuf::from(d).join("gcloud/application_default_credentials.json"))
    } else {
        std::env::var_os("HOME")
            .map(|d| PathBuf::from(d).join(".config/gcloud/application_default_credentials.json"))
    }
}
