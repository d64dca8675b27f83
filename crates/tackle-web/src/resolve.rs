//! Name resolution, done by tackle itself so that every answer can be checked.

use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::Arc;

use crate::error::ResolveError;

/// Resolves host names. The system resolver is the default; tests inject their own.
pub trait Resolve: Send + Sync {
    /// The addresses of `host`.
    fn resolve<'a>(
        &'a self,
        host: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<IpAddr>, ResolveError>> + Send + 'a>>;
}

/// The operating system's resolver.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemResolver;

impl Resolve for SystemResolver {
    fn resolve<'a>(
        &'a self,
        host: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<IpAddr>, ResolveError>> + Send + 'a>> {
        Box::pin(async move {
            let addresses = tokio::net::lookup_host((host, 0))
                .await
                .map_err(|e| ResolveError::Lookup { host: host.to_owned(), source: Arc::new(e) })?;
            Ok(addresses.map(|a| a.ip()).collect())
        })
    }
}
