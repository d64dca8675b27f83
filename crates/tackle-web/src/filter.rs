//! The seam for filtering untrusted text lives in `tackle-tools` (the executor routes every
//! tool that returns untrusted content through it); the web tools use it for every field
//! they return.

pub use tackle_tools::untrusted::{
    FilterFuture, Filtered, GuardFilter, GuardPolicy, PassThrough, UntrustedFilter, UntrustedText,
};
