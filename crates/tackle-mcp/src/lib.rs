//! MCP for tackle: the tools of MCP servers as toolsets ([`McpServer`], [`McpToolset`]).
//!
//! A server is reached over stdio (a child process in its own process group, its stderr
//! kept for error messages and the log) or Streamable HTTP, in either protocol era: the
//! stateless `2026-07-28` first, the `2025-11-25` handshake as the fall-back, the era found
//! kept so that the next connection starts with it. [`RegistryServer`] turns it around: a
//! registry's tools served over MCP, on stdio or Streamable HTTP.
//!
//! ```no_run
//! use std::sync::Arc;
//! use tackle_mcp::{McpServer, McpToolset, RegistryServer, ServerConfig, serve_stdio};
//! use tackle_tools::{Executor, RunContext, ToolRegistry};
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! // A server's tools as a toolset, named `time_<tool>`.
//! let config = ServerConfig::stdio("time", "uvx", vec!["mcp-server-time".into()]);
//! let server = McpServer::connect(config).await?;
//! let registry = ToolRegistry::builder().toolset(McpToolset::load(server).await?).build()?;
//! // And the other way: a registry served over MCP on stdio, each call in a fresh context.
//! let run = Arc::new(|| RunContext::new("mcp"));
//! serve_stdio(RegistryServer::new(Arc::new(registry), Executor::new(), run)).await?;
//! # Ok(()) }
//! ```

mod client;
mod server;
mod tools;

pub use client::{Called, Era, McpError, McpServer, ProgressFn, ServerConfig, Transport};
pub use server::{HttpOptions, RegistryServer, RunFactory, http_router, serve_http, serve_stdio};
pub use tools::{McpToolset, Skipped, tool_name};
