//! The chat page at `/`: plain HTML, CSS and two ES modules, built into the binary (no
//! build step, nothing fetched from elsewhere), served with a content security policy that
//! lets the page talk to this server only.

use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use sha2::Digest;

/// One file of the page.
struct Asset {
    name: &'static str,
    content_type: &'static str,
    body: &'static str,
}

const ASSETS: [Asset; 4] = [
    Asset {
        name: "index.html",
        content_type: "text/html; charset=utf-8",
        body: include_str!("../web/index.html"),
    },
    Asset {
        name: "app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/app.js"),
    },
    Asset {
        name: "api.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/api.js"),
    },
    Asset { name: "app.css", content_type: "text/css; charset=utf-8", body: include_str!("../web/app.css") },
];

/// Scripts, styles and requests from this origin only; no frames, plugins or forms sent
/// elsewhere. Links to sources open in a new tab, which the policy does not restrict.
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; \
                      img-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/// `GET /`: the page.
pub(crate) async fn index(headers: HeaderMap) -> Response {
    serve(&ASSETS[0], &headers)
}

/// `GET /{file}`: the page's scripts and styles; anything else is not found.
pub(crate) async fn asset(Path(file): Path<String>, headers: HeaderMap) -> Response {
    match ASSETS[1..].iter().find(|asset| asset.name == file) {
        Some(asset) => serve(asset, &headers),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

fn serve(asset: &Asset, headers: &HeaderMap) -> Response {
    // Revalidated on every load (a new binary may bring a new page), answered with 304
    // while it is the same.
    let digest = sha2::Sha256::digest(asset.body.as_bytes());
    let etag = format!("\"{}\"", digest[..12].iter().map(|b| format!("{b:02x}")).collect::<String>());
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|t| t.trim() == etag));
    let mut response =
        if fresh { StatusCode::NOT_MODIFIED.into_response() } else { asset.body.into_response() };
    let set = response.headers_mut();
    set.insert(header::CONTENT_TYPE, HeaderValue::from_static(asset.content_type));
    set.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    set.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(POLICY));
    set.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    set.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    if let Ok(value) = HeaderValue::from_str(&etag) {
        set.insert(header::ETAG, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_names_only_its_own_files() {
        let page = ASSETS[0].body;
        for asset in &ASSETS[1..] {
            assert!(
                page.contains(&format!("/{}", asset.name))
                    || ASSETS[1].body.contains(&format!("./{}", asset.name)),
                "{} is not used",
                asset.name
            );
        }
        // Nothing from elsewhere: no absolute URL in any file but the ones the code checks.
        for asset in &ASSETS {
            assert!(!asset.body.contains("//cdn") && !asset.body.contains("https://"), "{}", asset.name);
        }
    }
}
