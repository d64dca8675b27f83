//! The retrieval service: the one way tackle reads a web page.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use tackle_core::Secret;
use tackle_http::{HttpError, PinnedGet};
use url::{Host, Url};

use crate::error::ResolveError;
pub use crate::error::RetrieveError;
use crate::policy::{TargetPolicy, Verdict};
use crate::resolve::{Resolve, SystemResolver};

pub use tackle_extract::ContentKind;

/// A page that was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Retrieved {
    /// The URL the content came from, after redirects.
    pub final_url: Url,
    /// HTML or text.
    pub kind: ContentKind,
    /// The body, decoded from its charset.
    pub text: String,
    /// A private (allowlisted) address was involved: the conversation must from now on
    /// require a high-confidence provider.
    pub private_target: bool,
}

/// Reads pages: every URL and every redirect hop is checked against the target policy,
/// names are resolved here and every address is checked, and the connection goes only to
/// the checked addresses.
#[derive(Clone)]
pub struct Retriever {
    resolver: Arc<dyn Resolve>,
    max_bytes: u64,
    connect_timeout: Duration,
    timeout: Duration,
    max_redirects: usize,
    proxy: Option<String>,
    allow_loopback: bool,
}

impl std::fmt::Debug for Retriever {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Retriever")
            .field("max_bytes", &self.max_bytes)
            .field("timeout", &self.timeout)
            .field("max_redirects", &self.max_redirects)
            .field("allow_loopback", &self.allow_loopback)
            .finish_non_exhaustive()
    }
}

impl Default for Retriever {
    fn default() -> Self {
        Retriever::new()
    }
}

const USER_AGENT: &str = concat!("Mozilla/5.0 (compatible; tackle/", env!("CARGO_PKG_VERSION"), ")");
const ACCEPT: &str = "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1";

impl Retriever {
    /// The largest body read by default: 5 MiB, counted after decompression.
    pub const DEFAULT_MAX_BYTES: u64 = 5 * 1024 * 1024;
    /// Redirects followed at most.
    pub const MAX_REDIRECTS: usize = 10;

    /// A retriever with the system resolver, a 5 MiB cap, 10 s to connect and 30 s in all.
    pub fn new() -> Self {
        Retriever {
            resolver: Arc::new(SystemResolver),
            max_bytes: Self::DEFAULT_MAX_BYTES,
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(30),
            max_redirects: Self::MAX_REDIRECTS,
            proxy: None,
            allow_loopback: false,
        }
    }

    /// Uses another resolver.
    pub fn resolver(mut self, resolver: Arc<dyn Resolve>) -> Self {
        self.resolver = resolver;
        self
    }

    /// The largest body, counted after decompression.
    pub fn max_bytes(mut self, max: u64) -> Self {
        self.max_bytes = max;
        self
    }

    /// The time for the whole retrieval, redirects included.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Sends pinned requests through this proxy (none by default).
    pub fn proxy(mut self, proxy: impl Into<String>) -> Self {
        self.proxy = Some(proxy.into());
        self
    }

    /// Lets model-chosen targets reach loopback addresses. For tests that serve pages on
    /// 127.0.0.1, and for nothing else: it exists only with the `test-util` feature.
    #[cfg(feature = "test-util")]
    pub fn allow_loopback(mut self, allow: bool) -> Self {
        self.allow_loopback = allow;
        self
    }

    /// Checks a URL's form: http or https, a valid host, no user info.
    fn check_url(url: &Url) -> Result<(), RetrieveError> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(RetrieveError::blocked(format!(
                "the scheme {:?} is not allowed (only http and https)",
                url.scheme()
            )));
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(RetrieveError::blocked("URLs with user names or passwords are not allowed"));
        }
        match url.host() {
            None => Err(RetrieveError::invalid_url(url.as_str(), "it has no host")),
            Some(Host::Domain(name)) => match host_name_problem(name) {
                Some(problem) => Err(RetrieveError::invalid_url(&display_url(url), problem)),
                None => Ok(()),
            },
            Some(_) => Ok(()),
        }
    }

    /// Resolves (or reads) the host's addresses and checks them against the policy.
    async fn addresses(
        &self,
        url: &Url,
        policy: &TargetPolicy,
    ) -> Result<(Vec<IpAddr>, bool), RetrieveError> {
        let (host_text, addresses) = match url.host() {
            Some(Host::Ipv4(ip)) => (ip.to_string(), vec![IpAddr::V4(ip)]),
            Some(Host::Ipv6(ip)) => (ip.to_string(), vec![IpAddr::V6(ip)]),
            Some(Host::Domain(name)) => {
                if let Some(rule) = policy.check_name(name)
                    && !(self.allow_loopback && crate::address::is_localhost_name(name))
                {
                    return Err(RetrieveError::blocked(rule));
                }
                let addresses = self.resolver.resolve(name).await?;
                if addresses.is_empty() {
                    return Err(ResolveError::NoAddresses { host: name.to_owned() }.into());
                }
                (name.to_owned(), addresses)
            }
            None => return Err(RetrieveError::invalid_url(url.as_str(), "it has no host")),
        };
        match policy.check_addresses(&host_text, &addresses, self.allow_loopback) {
            Verdict::Allowed { private } => Ok((addresses, private)),
            Verdict::Refused(rule) => Err(RetrieveError::blocked(rule)),
        }
    }

    /// Reads the page at `url` (HTML or text) under `policy`.
    pub async fn retrieve(&self, url: &str, policy: &TargetPolicy) -> Result<Retrieved, RetrieveError> {
        self.retrieve_as(url, policy, kind_of, None).await
    }

    /// Reads a JSON document (a search service's answer) at `url` under `policy`.
    pub async fn retrieve_json(
        &self,
        url: &str,
        policy: &TargetPolicy,
    ) -> Result<serde_json::Value, RetrieveError> {
        self.retrieve_json_with(url, policy, None).await
    }

    /// [`Retriever::retrieve_json`] sending `bearer` as `Authorization: Bearer …` — to the
    /// URL's own origin only: a redirect to another origin goes on without it.
    pub async fn retrieve_json_with(
        &self,
        url: &str,
        policy: &TargetPolicy,
        bearer: Option<&Secret>,
    ) -> Result<serde_json::Value, RetrieveError> {
        let retrieved = self.retrieve_as(url, policy, json_kind, bearer).await?;
        serde_json::from_str(&retrieved.text)
            .map_err(|e| RetrieveError::Malformed(format!("the answer is not valid JSON: {e}")))
    }

    async fn retrieve_as(
        &self,
        url: &str,
        policy: &TargetPolicy,
        accept: fn(Option<&str>) -> Result<ContentKind, String>,
        bearer: Option<&Secret>,
    ) -> Result<Retrieved, RetrieveError> {
        let url = Url::parse(url.trim()).map_err(|e| RetrieveError::invalid_url(url, e.to_string()))?;
        match tokio::time::timeout(self.timeout, self.follow(url, policy, accept, bearer)).await {
            Ok(outcome) => outcome,
            Err(_) => Err(RetrieveError::TimedOut { after: self.timeout }),
        }
    }

    async fn follow(
        &self,
        mut url: Url,
        policy: &TargetPolicy,
        accept: fn(Option<&str>) -> Result<ContentKind, String>,
        bearer: Option<&Secret>,
    ) -> Result<Retrieved, RetrieveError> {
        let mut private_target = false;
        let origin = url.origin();
        for _ in 0..=self.max_redirects {
            Self::check_url(&url)?;
            let (addresses, private) = self.addresses(&url, policy).await?;
            private_target |= private;
            let port = url.port_or_known_default().unwrap_or(80);
            let pinned: Vec<SocketAddr> = match url.host() {
                Some(Host::Domain(_)) => addresses.iter().map(|ip| SocketAddr::new(*ip, port)).collect(),
                _ => Vec::new(),
            };
            let request = PinnedGet {
                url: &url,
                addrs: &pinned,
                connect_timeout: self.connect_timeout,
                timeout: self.timeout,
                max_bytes: self.max_bytes,
                proxy: self.proxy.as_deref(),
                accept: ACCEPT,
                user_agent: USER_AGENT,
                bearer: bearer.filter(|_| url.origin() == origin),
            };
            let hop =
                request.send(|content_type| accept(content_type).map(|_| ())).await.map_err(|e| match e {
                    HttpError::Unacceptable(message) => RetrieveError::Unsupported(message),
                    HttpError::TooLarge { limit } => RetrieveError::TooLarge { limit },
                    source => RetrieveError::Http { url: display_url(&url), source },
                })?;
            if (300..400).contains(&hop.status) {
                let location = hop.location.ok_or_else(|| {
                    RetrieveError::Redirect(format!(
                        "the server answered HTTP {} without a Location",
                        hop.status
                    ))
                })?;
                url = url.join(&location).map_err(|e| {
                    let shown: String = location.chars().take(200).collect();
                    RetrieveError::Redirect(format!("a redirect to {shown:?} is not a valid URL: {e}"))
                })?;
                continue;
            }
            if !(200..300).contains(&hop.status) {
                return Err(RetrieveError::Status { status: hop.status, url: display_url(&url) });
            }
            let kind = accept(hop.content_type.as_deref()).map_err(RetrieveError::Unsupported)?;
            let text = decode(&hop.body, hop.content_type.as_deref(), kind);
            url.set_fragment(None);
            return Ok(Retrieved { final_url: url, kind, text, private_target });
        }
        Err(RetrieveError::Redirect(format!("more than {} redirects", self.max_redirects)))
    }
}

/// What is wrong with a host name, if anything: DNS names are at most 253 characters in
/// labels of 1 to 63 letters, digits, hyphens (not at either end) and underscores.
/// (The URL parser has already turned international names into their ASCII form.)
fn host_name_problem(name: &str) -> Option<String> {
    let name = name.strip_suffix('.').unwrap_or(name);
    if name.is_empty() || name.len() > 253 {
        return Some("the host name is empty or longer than 253 characters".into());
    }
    for label in name.split('.') {
        let valid = !label.is_empty()
            && label.len() <= 63
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !valid {
            let shown: String = label.chars().take(64).collect();
            return Some(format!("{shown:?} is not a valid part of a host name"));
        }
    }
    None
}

/// A URL for messages: without query and fragment, which may carry tokens.
fn display_url(url: &Url) -> String {
    let mut shown = url.clone();
    shown.set_query(None);
    shown.set_fragment(None);
    shown.to_string()
}

/// Accepts only JSON.
fn json_kind(content_type: Option<&str>) -> Result<ContentKind, String> {
    let mime =
        content_type.unwrap_or_default().split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    if mime == "application/json" || mime.ends_with("+json") {
        Ok(ContentKind::Json)
    } else if mime.is_empty() {
        Err("expected JSON, got no content type".into())
    } else {
        Err(format!("expected JSON, got {mime}"))
    }
}

/// The kind of document a content type announces; other types are refused.
pub fn kind_of(content_type: Option<&str>) -> Result<ContentKind, String> {
    let Some(content_type) = content_type else { return Ok(ContentKind::Html) };
    let mime = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    match mime.as_str() {
        "" | "text/html" | "application/xhtml+xml" => Ok(ContentKind::Html),
        "text/plain" | "text/markdown" => Ok(ContentKind::Text),
        other => Err(format!("the page is {other}, which cannot be read here (only HTML and plain text)")),
    }
}

/// Decodes a body: the charset from the header, else a byte-order mark, else UTF-8 when the
/// body is valid UTF-8 beyond ASCII (a page saved or served again as UTF-8 often keeps the
/// `<meta>` of its first encoding, and text in a legacy encoding is almost never valid
/// UTF-8 by chance), else (for HTML) a `<meta>` declaration near the start (browsers honour
/// one found late in the head too: archived pages carry a long preamble), else UTF-8 when
/// the body is valid UTF-8, else the encoding Firefox's detector (chardetng) guesses from
/// the bytes.
pub fn decode(body: &[u8], content_type: Option<&str>, kind: ContentKind) -> String {
    let from_header = content_type.and_then(|ct| {
        ct.split(';').skip(1).find_map(|param| {
            let (key, value) = param.split_once('=')?;
            if !key.trim().eq_ignore_ascii_case("charset") {
                return None;
            }
            encoding_rs::Encoding::for_label(value.trim().trim_matches('"').as_bytes())
        })
    });
    let utf8 = std::str::from_utf8(body).is_ok();
    // A body that is UTF-8 beyond ASCII is read as UTF-8 whatever its `<meta>` says.
    let declaration_counts = kind == ContentKind::Html && (body.is_ascii() || !utf8);
    let encoding = from_header
        .or_else(|| declaration_counts.then(|| meta_charset(body)).flatten())
        .unwrap_or_else(|| if utf8 { encoding_rs::UTF_8 } else { guess_encoding(body) });
    let (text, _, _) = encoding.decode(body);
    text.into_owned()
}

/// How far into a page a `<meta>` charset is looked for.
const META_CHARSET_WITHIN: usize = 64 * 1024;
/// How much of an undeclared body the detector reads.
const DETECT_WITHIN: usize = 256 * 1024;

/// The first `<meta>` near the start of a page whose `charset=` names an encoding (only a
/// `<meta>` declares the page's encoding: a script's `charset` is about the script). A page
/// cannot declare UTF-16 in its own ASCII markup: such a declaration means UTF-8, as in
/// browsers.
fn meta_charset(body: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    let head = &body[..body.len().min(META_CHARSET_WITHIN)];
    let mut from = 0;
    while let Some(at) = find_ascii_case_insensitive(&head[from..], b"<meta") {
        let start = from + at + b"<meta".len();
        let end = head[start..].iter().position(|&c| c == b'>').map_or(head.len(), |i| start + i);
        from = end.max(start);
        let tag = &head[start..end];
        let Some(at) = find_ascii_case_insensitive(tag, b"charset") else { continue };
        let rest = tag[at + b"charset".len()..].trim_ascii_start();
        let Some(rest) = rest.strip_prefix(b"=") else { continue };
        let rest = rest.trim_ascii_start();
        let rest = rest.strip_prefix(b"\"").or_else(|| rest.strip_prefix(b"'")).unwrap_or(rest);
        let end = rest
            .iter()
            .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b':' | b'.')))
            .unwrap_or(rest.len());
        if let Some(encoding) = encoding_rs::Encoding::for_label(&rest[..end]) {
            return Some(if encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE {
                encoding_rs::UTF_8
            } else {
                encoding
            });
        }
    }
    None
}

fn find_ascii_case_insensitive(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle))
}

/// The legacy encoding an undeclared body that is not UTF-8 is most likely in.
fn guess_encoding(body: &[u8]) -> &'static encoding_rs::Encoding {
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    // Only the whole body is fed as the last chunk: a prefix may end inside a character.
    detector.feed(&body[..body.len().min(DETECT_WITHIN)], body.len() <= DETECT_WITHIN);
    detector.guess(None, chardetng::Utf8Detection::Deny)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types() {
        assert_eq!(kind_of(Some("text/html; charset=utf-8")), Ok(ContentKind::Html));
        assert_eq!(kind_of(Some("application/xhtml+xml")), Ok(ContentKind::Html));
        assert_eq!(kind_of(Some("text/plain")), Ok(ContentKind::Text));
        assert_eq!(kind_of(None), Ok(ContentKind::Html));
        assert!(kind_of(Some("application/pdf")).unwrap_err().contains("application/pdf"));
        assert!(kind_of(Some("image/svg+xml")).is_err());
    }

    #[test]
    fn charsets() {
        let latin1 = b"caf\xe9";
        assert_eq!(decode(latin1, Some("text/plain; charset=ISO-8859-1"), ContentKind::Text), "café");
        let html = b"<html><head><meta charset=\"windows-1252\"></head><body>\x93hi\x94</body></html>";
        assert!(decode(html, Some("text/html"), ContentKind::Html).contains("\u{201c}hi\u{201d}"));
        let http_equiv =
            b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=koi8-r\">\xf0\xd2\xc9";
        assert!(decode(http_equiv, None, ContentKind::Html).ends_with("При"));
        assert_eq!(decode("ünï".as_bytes(), None, ContentKind::Text), "ünï");
        // A page served as UTF-8 that still declares its first encoding.
        let resaved = "<meta charset=\"gb2312\"><p>谷歌在2014年收购</p>";
        assert!(decode(resaved.as_bytes(), None, ContentKind::Html).contains("谷歌在2014年收购"));
        // The same text in GB2312 is read as its declaration says.
        let (gbk, _, _) = encoding_rs::GBK.encode("<meta charset=\"gb2312\"><p>谷歌在2014年收购</p>");
        assert!(decode(&gbk, None, ContentKind::Html).contains("谷歌在2014年收购"));
        // A declaration after a long preamble (an archive's toolbar), after an empty one.
        let preamble = format!(
            "<script src=/a.js charset=\"utf-8\"></script><meta charset=><script>{}</script>",
            "x".repeat(3000)
        );
        let page = format!(
            "{preamble}<meta http-equiv=Content-Type content=\"text/html; charset=gb2312\"><p>一个约定，信守15年，感人至深</p>"
        );
        let (late, _, _) = encoding_rs::GBK.encode(&page);
        assert!(decode(&late, Some("text/html"), ContentKind::Html).contains("信守15年"));
        // No declaration at all: the detector reads the bytes.
        let (german, _, _) = encoding_rs::WINDOWS_1252.encode(
            "<p>Der Streit zwischen dem Vorstand und mehreren Aufsichtsräten verschärft sich weiter, hieß es.</p>",
        );
        assert!(
            decode(&german, None, ContentKind::Html).contains("Aufsichtsräten verschärft sich weiter, hieß")
        );
        let (chinese, _, _) = encoding_rs::GBK
            .encode("<p>如今，向河北农大果树班毕业生群体学习的热潮正在全省各地深入开展。</p>");
        assert!(decode(&chinese, None, ContentKind::Html).contains("河北农大果树班毕业生"));
        // A page cannot declare UTF-16 in its own markup.
        assert_eq!(
            decode("<meta charset=utf-16><p>ü</p>".as_bytes(), None, ContentKind::Html),
            "<meta charset=utf-16><p>ü</p>"
        );
    }
}
