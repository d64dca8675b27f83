//! Name resolution, done by tackle itself so that every answer can be checked.

use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;

/// Resolves host names. The system resolver is the default; tests inject their own.
pub trait Resolve: Send + Sync {
    /// The addresses of `host`.
    fn resolve<'a>(
        &'a self,
        host: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<IpAddr>, String>> + Send + 'a>>;
}

/// The operating system's resolver.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemResolver;

impl Resolve for SystemResolver {
    fn resolve<'a>(
        &'a self,
        host: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<IpAddr>, String>> + Send + 'a>> {
        Box::pin(async move {
            let addresses = tokio::net::lookup_host((host, 0))
                .await
                .map_err(|e| format!("cannot resolve {host}: {e}"))?;
            Ok(addresses.map(|a| a.ip()).collect())
        })
    }
}
