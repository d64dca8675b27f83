//! Search backends. SearXNG (its JSON API) first; others implement [`SearchBackend`].

use std::future::Future;
use std::pin::Pin;

use serde_json::Value;
use url::Url;

use crate::error::SearchError;
use crate::policy::TargetPolicy;
use crate::retrieve::Retriever;

/// One search request.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchQuery {
    /// The query text.
    pub query: String,
    /// A language code (`en`, `de-CH`), or none for the backend's default.
    pub language: Option<String>,
    /// `day`, `week`, `month` or `year`, or none.
    pub time_range: Option<String>,
}

/// One ranked hit.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchHit {
    /// The result's URL.
    pub url: String,
    /// Its title.
    pub title: String,
    /// The engine's snippet.
    pub snippet: String,
}

impl SearchQuery {
    /// A query for `text`, in the backend's default language, over any time.
    pub fn new(text: impl Into<String>) -> Self {
        SearchQuery { query: text.into(), language: None, time_range: None }
    }
}

impl SearchHit {
    /// A hit at `url` with its `title` and the engine's `snippet`.
    pub fn new(url: impl Into<String>, title: impl Into<String>, snippet: impl Into<String>) -> Self {
        SearchHit { url: url.into(), title: title.into(), snippet: snippet.into() }
    }
}

/// A search service.
pub trait SearchBackend: Send + Sync {
    /// Ranked hits for `query`.
    fn search<'a>(
        &'a self,
        query: &'a SearchQuery,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<SearchHit>, SearchError>> + Send + 'a>>;
}

/// A SearXNG instance, through its JSON API (`/search?format=json`).
#[derive(Debug, Clone)]
pub struct SearxNg {
    base: Url,
    retriever: Retriever,
    token: Option<tackle_core::Secret>,
}

impl SearxNg {
    /// The largest answer read: 1 MiB.
    pub const MAX_RESPONSE_BYTES: u64 = 1024 * 1024;

    /// The instance at `base` (for example `http://localhost:8888`). The user configured
    /// it, so it may be a local address.
    pub fn new(base: &str, retriever: Retriever) -> Result<Self, SearchError> {
        let base = Url::parse(base.trim())
            .map_err(|e| SearchError::Config(format!("the SearXNG URL {base:?} is not valid: {e}")))?;
        if !matches!(base.scheme(), "http" | "https") {
            return Err(SearchError::Config(format!(
                "the SearXNG URL must be http or https, not {}",
                base.scheme()
            )));
        }
        Ok(SearxNg { base, retriever: retriever.max_bytes(Self::MAX_RESPONSE_BYTES), token: None })
    }

    /// Sends `token` as `Authorization: Bearer …` to the instance (for one behind an
    /// authenticating proxy); never to another origin a redirect points at.
    pub fn token(mut self, token: Option<tackle_core::Secret>) -> Self {
        self.token = token;
        self
    }

    fn url(&self, query: &SearchQuery) -> Url {
        let mut url = self.base.clone();
        let path = format!("{}/search", url.path().trim_end_matches('/'));
        url.set_path(&path);
        {
            let mut pairs = url.query_pairs_mut();
            pairs.append_pair("q", &query.query).append_pair("format", "json");
            if let Some(language) = &query.language {
                pairs.append_pair("language", language);
            }
            if let Some(range) = &query.time_range {
                pairs.append_pair("time_range", range);
            }
        }
        url
    }
}

impl SearchBackend for SearxNg {
    fn search<'a>(
        &'a self,
        query: &'a SearchQuery,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<SearchHit>, SearchError>> + Send + 'a>> {
        Box::pin(async move {
            let url = self.url(query);
            let body = self
                .retriever
                .retrieve_json_with(url.as_str(), &TargetPolicy::UserChosen, self.token.as_ref())
                .await?;
            let results = body
                .get("results")
                .and_then(Value::as_array)
                .ok_or_else(|| SearchError::Malformed("it has no results list".into()))?;
            Ok(results
                .iter()
                .filter_map(|r| {
                    let url = r.get("url").and_then(Value::as_str)?.to_owned();
                    let text = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or_default().to_owned();
                    Some(SearchHit { url, title: text("title"), snippet: text("content") })
                })
                .collect())
        })
    }
}

/// The form of a URL used to spot duplicates: scheme and host in lower case, no trailing
/// dot, no default port, no fragment; path and query kept.
///
/// ```
/// use tackle_web::dedup_key;
/// assert_eq!(dedup_key("HTTPS://Example.com.:443/a?q=1#top"), dedup_key("https://example.com/a?q=1"));
/// assert_ne!(dedup_key("https://example.com/a?q=1"), dedup_key("https://example.com/a?q=2"));
/// ```
pub fn dedup_key(url: &str) -> Option<String> {
    // The URL parser already lower-cases scheme and host and drops default ports.
    let mut parsed = Url::parse(url.trim()).ok()?;
    parsed.set_fragment(None);
    let host = parsed.host_str()?.trim_end_matches('.').to_owned();
    parsed.set_host(Some(&host)).ok()?;
    Some(parsed.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equivalent_urls_share_a_key() {
        let a = dedup_key("HTTPS://Example.COM./a?b=1#top").unwrap();
        let b = dedup_key("https://example.com:443/a?b=1").unwrap();
        assert_eq!(a, b);
        assert_ne!(dedup_key("https://example.com/a?b=2"), Some(a.clone()));
        assert_ne!(dedup_key("http://example.com/a?b=1"), Some(a));
        assert!(dedup_key("not a url").is_none());
    }

    #[test]
    fn searxng_query_urls() {
        let backend = SearxNg::new("http://localhost:8888/searx/", Retriever::new()).unwrap();
        let url = backend.url(&SearchQuery {
            query: "rust & tools".into(),
            language: Some("de".into()),
            time_range: Some("month".into()),
        });
        assert_eq!(
            url.as_str(),
            "http://localhost:8888/searx/search?q=rust+%26+tools&format=json&language=de&time_range=month"
        );
        assert!(SearxNg::new("ftp://x", Retriever::new()).is_err());
    }
}
