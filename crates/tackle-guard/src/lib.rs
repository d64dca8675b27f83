//! The prompt-injection filter for untrusted content (pages, MCP results, files).
//!
//! Built in layers: [`normalize()`] undoes the tricks that hide text from a pattern or a
//! reader — compatibility forms, look-alike letters, invisible characters, tag-character
//! smuggling, bidi controls — while keeping a map back to the original, so that whatever a
//! later layer finds is marked in the text exactly where it stands; [`find_carriers`]
//! decodes text hidden in base64, hex, percent-encoding, character references, JSON
//! escapes, quoted-printable and RFC 2047 words; [`detect()`] counts the signals of
//! instruction-shaped text unit by unit (eight languages); [`Guard`] is the batch API —
//! texts with their sources in, the same texts out with suspicious spans replaced by a
//! marker that names the reasons, and a [`Report`] grouped by source — around a [`Scorer`].
//! [`Lexical`] reads a unit's words (a linear model over hashed word n-grams) for the plain
//! requests no lexicon lists; [`Trees`], the trained scorer, weighs the detectors' signals
//! and takes the words' verdict where it is the stronger.
//!
//! The one decision that shaped this crate: every layer works on the normalised text but
//! reports ranges of the original, so benign text passes byte for byte and a marker
//! replaces exactly the suspicious span.

pub mod carriers;
pub mod detect;
pub mod guard;
pub mod lexical;
pub mod normalize;
pub mod scorer;
mod weights;

pub use carriers::{Carrier, Decoded, find_carriers};
pub use detect::{SIGNALS, Signal, Unit, detect};
pub use guard::{
    Borderline, Candidate, Classifier, Features, Finding, Guard, Input, Report, Scorer, SourceReport,
    Strictness, Thresholds, candidates, candidates_with, marker,
};
pub use lexical::Lexical;
pub use normalize::{Normalized, normalize, respell};
pub use scorer::Trees;
