//! Target policies: who chose the URL decides which hosts it may reach.

use std::net::IpAddr;

use crate::address::{AddressClass, classify, local_name_rule};

/// A host pattern of an allowlist: `wiki.example.org`, or `*.example.org` for any
/// subdomain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostPattern(String);

impl HostPattern {
    /// Parses a pattern; a scheme, path, port or empty name is refused.
    pub fn new(pattern: &str) -> Result<Self, String> {
        let p = pattern.trim().trim_end_matches('.').to_ascii_lowercase();
        let name = p.strip_prefix("*.").unwrap_or(&p);
        let valid = !name.is_empty()
            && name.split('.').all(|label| {
                !label.is_empty() && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            });
        if !valid {
            return Err(format!("{pattern:?} is not a host name or *.suffix pattern"));
        }
        Ok(HostPattern(p))
    }

    /// Whether `host` matches.
    pub fn matches(&self, host: &str) -> bool {
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        match self.0.strip_prefix("*.") {
            Some(suffix) => host.ends_with(&format!(".{suffix}")),
            None => host == self.0,
        }
    }
}

/// Which targets a fetch may reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetPolicy {
    /// The model chose the URL: public addresses only.
    PublicOnly,
    /// The model chose the URL, and some private hosts are allowed — only when the
    /// provider is trusted (high confidence or trusted by configuration).
    Allowlisted {
        /// The hosts.
        hosts: Vec<HostPattern>,
        /// Whether the current provider may see private content.
        provider_trusted: bool,
    },
    /// The user typed the address: no target restriction.
    UserChosen,
}

/// The policy's verdict on one hop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Go ahead; `private` says that a private address is involved.
    Allowed { private: bool },
    /// Refused, naming the rule.
    Refused(String),
}

impl TargetPolicy {
    fn allowlisted(&self, host: &str) -> Option<bool> {
        match self {
            TargetPolicy::Allowlisted { hosts, provider_trusted } => {
                hosts.iter().any(|p| p.matches(host)).then_some(*provider_trusted)
            }
            _ => None,
        }
    }

    /// Judges a host name before it is resolved.
    pub(crate) fn check_name(&self, host: &str) -> Option<String> {
        if matches!(self, TargetPolicy::UserChosen) || self.allowlisted(host).is_some() {
            return None;
        }
        local_name_rule(host).map(|rule| format!("{host} is refused: {rule} points inside the local network"))
    }

    /// Judges every address a host resolved to; all must pass.
    pub(crate) fn check_addresses(&self, host: &str, addresses: &[IpAddr], allow_loopback: bool) -> Verdict {
        if matches!(self, TargetPolicy::UserChosen) {
            let private = addresses.iter().any(|a| classify(*a) != AddressClass::Public);
            return Verdict::Allowed { private };
        }
        let mut private = false;
        let refuse = |address: &IpAddr, rule: crate::address::Rule| {
            if host == address.to_string() {
                Verdict::Refused(format!("{address} is {rule}"))
            } else {
                Verdict::Refused(format!("{host} resolves to {address}: {rule}"))
            }
        };
        for address in addresses {
            match classify(*address) {
                AddressClass::Public => {}
                AddressClass::Never(_) if allow_loopback && address.is_loopback() => {}
                AddressClass::Never(rule) => return refuse(address, rule),
                AddressClass::Private(rule) => match self.allowlisted(host) {
                    Some(true) => private = true,
                    Some(false) => {
                        return Verdict::Refused(format!(
                            "{host} is a private host ({address}); reading it needs a provider with high confidence"
                        ));
                    }
                    None => return refuse(address, rule),
                },
            }
        }
        Verdict::Allowed { private }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns() {
        let exact = HostPattern::new("Wiki.Example.org.").unwrap();
        assert!(exact.matches("wiki.example.org"));
        assert!(!exact.matches("x.wiki.example.org"));
        let wild = HostPattern::new("*.corp.example").unwrap();
        assert!(wild.matches("git.corp.example"));
        assert!(!wild.matches("corp.example"));
        for bad in ["", "https://x.org", "x.org/path", "x.org:8080", "*.", "a..b"] {
            assert!(HostPattern::new(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn verdicts() {
        let private: Vec<IpAddr> = vec!["10.1.2.3".parse().unwrap()];
        let public: Vec<IpAddr> = vec!["93.184.215.14".parse().unwrap()];
        let mixed: Vec<IpAddr> = vec!["93.184.215.14".parse().unwrap(), "127.0.0.1".parse().unwrap()];
        assert_eq!(
            TargetPolicy::PublicOnly.check_addresses("x", &public, false),
            Verdict::Allowed { private: false }
        );
        assert!(matches!(
            TargetPolicy::PublicOnly.check_addresses("x", &private, false),
            Verdict::Refused(_)
        ));
        assert!(matches!(TargetPolicy::PublicOnly.check_addresses("x", &mixed, false), Verdict::Refused(_)));
        let allow = |trusted| TargetPolicy::Allowlisted {
            hosts: vec![HostPattern::new("wiki.corp").unwrap()],
            provider_trusted: trusted,
        };
        assert_eq!(
            allow(true).check_addresses("wiki.corp", &private, false),
            Verdict::Allowed { private: true }
        );
        let Verdict::Refused(why) = allow(false).check_addresses("wiki.corp", &private, false) else {
            panic!()
        };
        assert!(why.contains("high confidence"), "{why}");
        assert!(matches!(allow(true).check_addresses("other.corp", &private, false), Verdict::Refused(_)));
        // Never-addresses stay refused even for allowlisted hosts.
        let metadata: Vec<IpAddr> = vec!["169.254.169.254".parse().unwrap()];
        assert!(matches!(allow(true).check_addresses("wiki.corp", &metadata, false), Verdict::Refused(_)));
        assert_eq!(
            TargetPolicy::UserChosen.check_addresses("x", &private, false),
            Verdict::Allowed { private: true }
        );
        assert!(TargetPolicy::PublicOnly.check_name("printer.local").is_some());
        assert!(TargetPolicy::UserChosen.check_name("localhost").is_none());
    }
}
