//! MCP for tackle: the tools of MCP servers as toolsets ([`McpServer`], [`McpToolset`]).
//!
//! A server is reached over stdio (a child process in its own process group, its stderr
//! kept for error messages and the log) or Streamable HTTP, in either protocol era: the
//! stateless `2026-07-28` first, the `2025-11-25` handshake as the fall-back, the era found
//! kept so that the next connection starts with it.

mod client;
mod server;
mod tools;

pub use client::{Called, Era, McpError, McpServer, ProgressFn, ServerConfig, Transport};
pub use server::{HttpOptions, RegistryServer, RunFactory, http_router, serve_http, serve_stdio};
pub use tools::{McpToolset, Skipped, tool_name};
