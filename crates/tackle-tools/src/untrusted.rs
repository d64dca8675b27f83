//! The seam for filtering untrusted text (prompt-injection defence) before it reaches a
//! model. The executor passes the results of every tool whose definition says
//! `returns_untrusted_content` through it (unless the tool filtered them itself, as the web
//! tools do field by field); [`PassThrough`] is the default until a filter is configured.

use std::future::Future;
use std::pin::Pin;

/// One piece of outside text bound for the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UntrustedText {
    /// Where it came from (a page's URL, a tool's name), so that a report can be grouped by
    /// source.
    pub source: String,
    /// Which field it is (`content`, `title`, `snippet`, ...).
    pub field: &'static str,
    /// The text.
    pub text: String,
}

/// What a filter gives back: the texts in the same order, and a warning when it could not
/// do its work (the texts are then unchanged).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filtered {
    /// The texts.
    pub texts: Vec<UntrustedText>,
    /// Why the filter could not run, for the user.
    pub warning: Option<String>,
}

/// The future a filter returns.
pub type FilterFuture<'a> = Pin<Box<dyn Future<Output = Filtered> + Send + 'a>>;

/// Filters untrusted text. Called once per tool call with every field that will reach the
/// model, after truncation. A filter never rejects content: it returns the texts in the
/// same order (possibly with parts redacted), and when it cannot run it returns them
/// unchanged (fail-open) and says so in the warning.
pub trait UntrustedFilter: Send + Sync {
    /// Filters a batch.
    fn filter<'a>(&'a self, batch: Vec<UntrustedText>) -> FilterFuture<'a>;
}

/// Lets everything through unchanged.
#[derive(Debug, Clone, Copy, Default)]
pub struct PassThrough;

impl UntrustedFilter for PassThrough {
    fn filter<'a>(&'a self, batch: Vec<UntrustedText>) -> FilterFuture<'a> {
        Box::pin(std::future::ready(Filtered { texts: batch, warning: None }))
    }
}
