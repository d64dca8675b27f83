//! tackle's own HTML extractor: a fast forgiving parser ([`dom`]), main-content
//! selection ([`readable`]), Markdown rendering ([`markdown`]) and metadata ([`meta`]).

pub(crate) mod dom;
mod edges;
pub(crate) mod hidden;
pub(crate) mod markdown;
pub(crate) mod meta;
pub(crate) mod readable;

use url::Url;

use crate::extract::StopFlag;
use dom::{Document, Tag};
use readable::Strictness;

/// The readable part of an HTML document.
pub(crate) struct Extracted {
    pub(crate) meta: meta::Metadata,
    pub(crate) markdown: String,
    /// Whether the Markdown starts with the page's title as a heading that the selected
    /// content did not hold.
    pub(crate) headline_added: bool,
    /// Text a reader does not see (comments, hidden elements), left out of the Markdown.
    pub(crate) hidden: Vec<hidden::HiddenText>,
}

/// Below this many characters, a strict attempt is retried without leaving out elements
/// by their names (a page may call its story something a sidebar would be called).
const RETRY_BELOW: usize = 250;

/// The most HTML read of one document; the rest is left out. Every pass of the extractor
/// is linear in the document (or in it times the capped nesting depth), so this bounds
/// the work a page can cause.
pub(crate) const MAX_HTML_BYTES: usize = 16 * 1024 * 1024;

/// Extracts the main content of `html`, read from `url`, as Markdown with its metadata;
/// `None` once `stop` is raised.
pub(crate) fn extract(html: &str, url: &Url, stop: &StopFlag) -> Option<Extracted> {
    let mut end = html.len().min(MAX_HTML_BYTES);
    while !html.is_char_boundary(end) {
        end -= 1;
    }
    let html = &html[..end];
    let doc = Document::parse_until(html, stop)?;
    let meta = meta::read(&doc);
    let base = meta.base.as_deref().and_then(|b| url.join(b).ok()).unwrap_or_else(|| url.clone());
    if stop.is_stopped() {
        return None;
    }
    let mut markdown = attempt(&doc, Strictness { by_name: true }, &base);
    if stop.is_stopped() {
        return None;
    }
    if markdown.chars().count() < RETRY_BELOW {
        let lenient = attempt(&doc, Strictness { by_name: false }, &base);
        if lenient.chars().count() > 2 * markdown.chars().count().max(1) {
            markdown = lenient;
        }
    }
    // The headline heads the Markdown when the selected content does not hold it.
    let mut headline_added = false;
    if let Some(title) = meta.title.as_deref().or(doc.title.as_deref())
        && !title.is_empty()
        && !markdown.starts_with("# ")
        && !opening(&markdown).contains(&title.to_lowercase())
    {
        // One line, whatever the title's own line breaks.
        let title = title.split_whitespace().collect::<Vec<_>>().join(" ");
        markdown =
            if markdown.is_empty() { format!("# {title}") } else { format!("# {title}\n\n{markdown}") };
        headline_added = true;
    }
    let hidden = hidden::collect(&doc);
    Some(Extracted { meta, markdown, headline_added, hidden })
}

/// The start of a text, in lower case, where a headline would be.
fn opening(markdown: &str) -> String {
    let end = markdown.char_indices().nth(400).map_or(markdown.len(), |(i, _)| i);
    markdown[..end].to_lowercase()
}

fn attempt(doc: &Document, strictness: Strictness, base: &Url) -> String {
    match readable::select(doc, strictness) {
        Some(selection) => {
            edges::trim(markdown::render(doc, Some(&selection.analysis), &selection.roots, base))
        }
        None => {
            // No prose anywhere: the body's text, as it is.
            let body = doc.find(Tag::Body).unwrap_or(Document::ROOT);
            markdown::render(doc, None, &[body], base)
        }
    }
}
