//! Integration tests for the retrieval service, against servers on 127.0.0.1 only.
#![allow(clippy::unwrap_used, missing_docs, unreachable_pub)]

mod retrieval;
mod tools;
