//! Main-content extraction: the readable part of a web page as Markdown, with its
//! metadata and the text a reader does not see. No I/O, no tool or model types: a page's
//! text in, a [`Page`] out.
//!
//! - A fast forgiving HTML parser (`html::dom`): one pass over the bytes, tags closed the
//!   way browsers close them, nesting capped, entities decoded.
//! - Main-content selection (`html::readable`): boilerplate marked by tag, role, class and
//!   id, blocks scored readability-style by their text and link density.
//! - Markdown rendering (`html::markdown`): headings, lists, tables, code, links and images
//!   made absolute.
//! - Metadata (`html::meta`): title, description, author, date, site name from `<meta>`,
//!   Open Graph and JSON-LD.
//! - Hidden text (`html::hidden`): comments, `display:none`, `aria-hidden`, off-screen and
//!   tiny text, kept apart for a prompt-injection filter.
//!
//! ```
//! use tackle_extract::{ContentKind, extract};
//! let url = url::Url::parse("https://news.example/story").unwrap();
//! let html = "<html><head><title>Rain</title></head><body><nav><a href='/'>Home</a></nav>\
//!     <article><p>It rained all day in the valley, and the river rose above its banks by evening.</p></article></body></html>";
//! let page = extract(html, ContentKind::Html, &url);
//! assert!(page.markdown.contains("It rained all day"));
//! assert!(!page.markdown.contains("Home"));
//! assert_eq!(page.title.as_deref(), Some("Rain"));
//! ```

mod extract;
mod html;

pub use extract::{HiddenText, Page, StopFlag, extract, extract_until, to_text, truncate};

/// What kind of document was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContentKind {
    /// HTML or XHTML.
    Html,
    /// Plain text.
    Text,
    /// JSON (only for a retriever's JSON reads).
    Json,
}
