//! AWS credentials and region, found where the AWS CLI and SDKs find them, and SigV4
//! signing with `aws-sigv4`.
//!
//! Credentials: `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` / `AWS_SESSION_TOKEN`, else
//! the profile named by `AWS_PROFILE` (default `default`) in the shared credentials file
//! (`AWS_SHARED_CREDENTIALS_FILE`, default `~/.aws/credentials`) and then in the config file
//! (`AWS_CONFIG_FILE`, default `~/.aws/config`, where sections read `[profile NAME]`).
//! Region: `AWS_REGION`, `AWS_DEFAULT_REGION`, else the profile's `region`. A Bedrock API
//! key in `AWS_BEARER_TOKEN_BEDROCK` is used in place of signing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use aws_sigv4::http_request::{SignableBody, SignableRequest, SigningSettings, sign};
use aws_sigv4::sign::v4;
use tackle_core::{ModelError, ModelErrorKind, Secret};
use tackle_http::{HeaderMap, HeaderName, HeaderValue};

use crate::endpoint::SetupError;

/// A long-term or temporary AWS key.
#[derive(Clone)]
pub struct AwsCredentials {
    access_key_id: String,
    secret_access_key: Secret,
    session_token: Option<Secret>,
}

impl std::fmt::Debug for AwsCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AwsCredentials")
            .field("access_key_id", &self.access_key_id)
            .field("session_token", &self.session_token.is_some())
            .finish_non_exhaustive()
    }
}

/// How Bedrock requests are authorised.
#[derive(Debug, Clone)]
pub enum BedrockAuth {
    /// Signed with SigV4.
    SigV4(AwsCredentials),
    /// A Bedrock API key, sent as a bearer token.
    ApiKey(Secret),
}

/// One profile's settings, from the shared files.
type Profile = HashMap<String, String>;

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

fn home() -> Option<PathBuf> {
    std::env::var_os(if cfg!(windows) { "USERPROFILE" } else { "HOME" }).map(PathBuf::from)
}

/// Reads the sections of an AWS shared file: `[name]`, or `[profile name]` where
/// `profile_prefix`; `key = value` lines; `#` and `;` comments; indented lines (nested
/// settings such as `s3 =` blocks) skipped.
pub(crate) fn parse_ini(text: &str, profile_prefix: bool) -> HashMap<String, Profile> {
    let mut sections: HashMap<String, Profile> = HashMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.starts_with([' ', '\t']) {
            continue;
        }
        let line = line.trim();
        if line.is_empty() || line.starts_with(['#', ';']) {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let name = name.trim();
            current = if !profile_prefix {
                Some(name.to_owned())
            } else if name == "default" {
                Some("default".to_owned())
            } else {
                name.strip_prefix("profile")
                    .filter(|n| n.starts_with([' ', '\t']))
                    .map(|n| n.trim().to_owned())
            };
            if let Some(name) = &current {
                sections.entry(name.clone()).or_default();
            }
            continue;
        }
        if let (Some(section), Some((key, value))) = (&current, line.split_once('=')) {
            let value = value.split(" #").next().unwrap_or_default().trim();
            sections
                .entry(section.clone())
                .or_default()
                .insert(key.trim().to_ascii_lowercase(), value.to_owned());
        }
    }
    sections
}

fn read_profile(path: &Path, profile_prefix: bool, profile: &str) -> Option<Profile> {
    let text = std::fs::read_to_string(path).ok()?;
    parse_ini(&text, profile_prefix).remove(profile)
}

/// The chosen profile's name.
fn profile_name() -> String {
    env("AWS_PROFILE").or_else(|| env("AWS_DEFAULT_PROFILE")).unwrap_or_else(|| "default".to_owned())
}

fn credentials_file() -> Option<PathBuf> {
    env("AWS_SHARED_CREDENTIALS_FILE")
        .map(PathBuf::from)
        .or_else(|| home().map(|h| h.join(".aws/credentials")))
}

fn config_file() -> Option<PathBuf> {
    env("AWS_CONFIG_FILE").map(PathBuf::from).or_else(|| home().map(|h| h.join(".aws/config")))
}

impl AwsCredentials {
    /// A key; `session_token` for temporary credentials.
    pub fn new(
        access_key_id: impl Into<String>,
        secret_access_key: Secret,
        session_token: Option<Secret>,
    ) -> Self {
        AwsCredentials { access_key_id: access_key_id.into(), secret_access_key, session_token }
    }

    /// The key in the environment variables, if they hold one.
    pub fn from_env() -> Option<Self> {
        let id = env("AWS_ACCESS_KEY_ID")?;
        let secret = Secret::new(env("AWS_SECRET_ACCESS_KEY")?);
        Some(Self::new(id, secret, env("AWS_SESSION_TOKEN").map(Secret::new)))
    }

    /// The key of `profile` in the shared credentials file, else in the config file.
    pub fn from_profile(profile: &str) -> Result<Self, SetupError> {
        let found = [credentials_file().map(|p| (p, false)), config_file().map(|p| (p, true))]
            .into_iter()
            .flatten()
            .filter_map(|(path, prefixed)| read_profile(&path, prefixed, profile))
            .find(|p| {
                p.contains_key("aws_access_key_id")
                    || p.contains_key("sso_session")
                    || p.contains_key("credential_process")
                    || p.contains_key("role_arn")
                    || p.contains_key("sso_start_url")
            });
        let Some(settings) = found else {
            return Err(SetupError::MissingKey { preset: "bedrock", env: "AWS_ACCESS_KEY_ID" });
        };
        let (Some(id), Some(secret)) =
            (settings.get("aws_access_key_id"), settings.get("aws_secret_access_key"))
        else {
            return Err(SetupError::Credentials(format!(
                "the AWS profile {profile:?} gets its credentials from SSO, a role or a process, which tackle does not run; \
                 export them with `aws configure export-credentials --profile {profile} --format env` first"
            )));
        };
        Ok(Self::new(
            id,
            Secret::new(secret.as_str()),
            settings.get("aws_session_token").map(|t| Secret::new(t.as_str())),
        ))
    }

    /// The key from the environment, else from the chosen profile.
    pub fn load() -> Result<Self, SetupError> {
        match Self::from_env() {
            Some(credentials) => Ok(credentials),
            None => Self::from_profile(&profile_name()),
        }
    }

    /// Everything in the key that must never be shown.
    pub(crate) fn secrets(&self) -> Vec<Secret> {
        let mut secrets = vec![self.secret_access_key.clone(), Secret::new(self.access_key_id.as_str())];
        secrets.extend(self.session_token.clone());
        secrets
    }

    /// The SigV4 headers for a POST of `body` (JSON) to `url`, signed at `time`.
    pub(crate) fn sign(
        &self,
        region: &str,
        url: &str,
        body: &[u8],
        time: SystemTime,
    ) -> Result<HeaderMap, ModelError> {
        let failed = |e: &dyn std::fmt::Display| {
            ModelError::new(ModelErrorKind::InvalidRequest, format!("the request could not be signed: {e}"))
        };
        // The signer wants a host; a URL without one is refused here, not by a panic there.
        let parsed = url::Url::parse(url).map_err(|e| failed(&e))?;
        if parsed.host_str().is_none_or(str::is_empty) {
            return Err(failed(&"the URL has no host"));
        }
        let identity = aws_credential_types::Credentials::new(
            &self.access_key_id,
            self.secret_access_key.expose(),
            self.session_token.as_ref().map(|t| t.expose().to_owned()),
            None,
            "tackle",
        )
        .into();
        let params = v4::SigningParams::builder()
            .identity(&identity)
            .region(region)
            .name("bedrock")
            .time(time)
            .settings(SigningSettings::default())
            .build()
            .map_err(|e| failed(&e))?
            .into();
        let request = SignableRequest::new(
            "POST",
            url,
            [("content-type", "application/json")].into_iter(),
            SignableBody::Bytes(body),
        )
        .map_err(|e| failed(&e))?;
        let (instructions, _signature) = sign(request, &params).map_err(|e| failed(&e))?.into_parts();
        let mut headers = HeaderMap::new();
        for (name, value) in instructions.headers() {
            let name = HeaderName::from_bytes(name.as_bytes()).map_err(|e| failed(&e))?;
            let mut value = HeaderValue::from_str(value).map_err(|e| failed(&e))?;
            if name == "authorization" || name == "x-amz-security-token" {
                value.set_sensitive(true);
            }
            headers.insert(name, value);
        }
        Ok(headers)
    }
}

impl BedrockAuth {
    /// A Bedrock API key from `AWS_BEARER_TOKEN_BEDROCK`, else AWS credentials as the CLI
    /// finds them.
    pub fn load() -> Result<Self, SetupError> {
        if let Some(key) = env("AWS_BEARER_TOKEN_BEDROCK") {
            return Ok(BedrockAuth::ApiKey(Secret::new(key)));
        }
        AwsCredentials::load().map(BedrockAuth::SigV4)
    }

    pub(crate) fn secrets(&self) -> Vec<Secret> {
        match self {
            BedrockAuth::SigV4(credentials) => credentials.secrets(),
            BedrockAuth::ApiKey(key) => vec![key.clone()],
        }
    }
}

/// The region: `AWS_REGION`, `AWS_DEFAULT_REGION`, else the chosen profile's.
pub fn region_from_env() -> Option<String> {
    env("AWS_REGION").or_else(|| env("AWS_DEFAULT_REGION")).or_else(|| {
        let profile = profile_name();
        config_file()
            .and_then(|path| read_profile(&path, true, &profile))
            .and_then(|p| p.get("region").cloned())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_files_are_read_like_the_cli_reads_them() {
        let config = "\
[default]
region = eu-west-1
# a comment
[profile work]
region = us-east-2 # trailing comment
aws_access_key_id = AKIAWORK
s3 =
  max_concurrent_requests = 20
[work]
region = ignored-without-prefix
";
        let sections = parse_ini(config, true);
        assert_eq!(sections["default"]["region"], "eu-west-1");
        assert_eq!(sections["work"]["region"], "us-east-2");
        assert_eq!(sections["work"]["aws_access_key_id"], "AKIAWORK");
        assert!(!sections["work"].contains_key("max_concurrent_requests"));
        let credentials =
            parse_ini("[work]\naws_access_key_id=AKIA1\naws_secret_access_key = s3cr3t\n", false);
        assert_eq!(credentials["work"]["aws_secret_access_key"], "s3cr3t");
    }

    /// The example of the SigV4 documentation's test suite, reproduced: the same key,
    /// time, region and request give the documented signature.
    #[test]
    fn signatures_match_an_independent_signer() {
        let credentials =
            AwsCredentials::new("AKIDEXAMPLE", Secret::new("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"), None);
        let time = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_440_938_160); // 20150830T123600Z
        let url = "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse";
        let headers = credentials.sign("us-east-1", url, b"{}", time).unwrap();
        assert_eq!(headers["x-amz-date"], "20150830T123600Z");
        let authorization = headers["authorization"].to_str().unwrap();
        assert!(authorization.starts_with(
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/bedrock/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature="
        ), "{authorization}");
        assert!(headers["authorization"].is_sensitive());
        let signature = authorization.rsplit('=').next().unwrap();
        assert_eq!(signature, reference_signature(url, "us-east-1", b"{}", "20150830T123600Z"));
        // A URL without a host is an error, not a panic.
        assert!(credentials.sign("us-east-1", "unix:/tmp/socket", b"{}", time).is_err());
    }

    /// SigV4 written out from the specification with sha2/hmac primitives, as a check on
    /// the crate's output for Bedrock's double-encoded paths.
    fn reference_signature(url: &str, region: &str, body: &[u8], amz_date: &str) -> String {
        use sha2_ref::{hex, hmac, sha256};
        let parsed = url::Url::parse(url).unwrap();
        // Non-S3 services encode the path twice: `%3A` becomes `%253A`.
        let canonical_uri = parsed.path().replace('%', "%25");
        let host = parsed.host_str().unwrap();
        let canonical = format!(
            "POST\n{canonical_uri}\n\ncontent-type:application/json\nhost:{host}\nx-amz-date:{amz_date}\n\ncontent-type;host;x-amz-date\n{}",
            hex(&sha256(body))
        );
        let date = &amz_date[..8];
        let scope = format!("{date}/{region}/bedrock/aws4_request");
        let to_sign =
            format!("AWS4-HMAC-SHA256\n{amz_date}\n{scope}\n{}", hex(&sha256(canonical.as_bytes())));
        let mut key = hmac(b"AWS4wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", date.as_bytes());
        for part in [region, "bedrock", "aws4_request"] {
            key = hmac(&key, part.as_bytes());
        }
        hex(&hmac(&key, to_sign.as_bytes()))
    }

    mod sha2_ref {
        pub(super) fn sha256(data: &[u8]) -> Vec<u8> {
            aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, data).as_ref().to_vec()
        }

        pub(super) fn hmac(key: &[u8], data: &[u8]) -> Vec<u8> {
            let key = aws_lc_rs::hmac::Key::new(aws_lc_rs::hmac::HMAC_SHA256, key);
            aws_lc_rs::hmac::sign(&key, data).as_ref().to_vec()
        }

        pub(super) fn hex(bytes: &[u8]) -> String {
            bytes.iter().map(|b| format!("{b:02x}")).collect()
        }
    }
}
