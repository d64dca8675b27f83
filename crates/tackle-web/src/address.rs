//! Which network addresses a fetch may reach.
//!
//! Every address is one of three classes: public; private (reachable only for an
//! allowlisted host and a trusted provider); never (loopback, link-local and cloud
//! metadata, multicast, broadcast, unspecified, reserved, IPv4 in IPv6 forms that hide
//! its real target, anything outside IPv6 global unicast). Public is decided by an
//! allowlist, not a list of refusals: an IPv4 address outside every IANA special-purpose
//! block ([`crate::iana`]); an IPv6 address inside `2000::/3` and outside every
//! special-purpose block, or under the NAT64 prefix with a public IPv4 address embedded.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use crate::iana::{IPV4_SPECIAL, IPV6_SPECIAL, Parsed, SpecialBlock};

/// Why an address is not public: what the block is, and the block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// What the block is for (`loopback`, `private use`, …).
    pub name: &'static str,
    /// The block (`127.0.0.0/8`).
    pub block: &'static str,
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.name, self.block)
    }
}

/// The class of an address, with the rule that put it there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressClass {
    /// Reachable for every policy.
    Public,
    /// A private or non-global address: only for allowlisted hosts.
    Private(Rule),
    /// Never reachable for a model-chosen target.
    Never(Rule),
}

impl AddressClass {
    fn worse(self, other: AddressClass) -> AddressClass {
        match (self, other) {
            (AddressClass::Never(r), _) | (_, AddressClass::Never(r)) => AddressClass::Never(r),
            (AddressClass::Private(r), _) | (_, AddressClass::Private(r)) => AddressClass::Private(r),
            _ => AddressClass::Public,
        }
    }
}

/// Special-purpose blocks that are never reachable for a model-chosen target (with the
/// rule named); every other special-purpose block is private.
fn never_rule(name: &str) -> bool {
    matches!(
        name,
        "this network"
            | "this host on this network"
            | "loopback"
            | "link local, where cloud metadata services answer"
            | "link-local unicast"
            | "multicast"
            | "reserved"
            | "limited broadcast"
            | "unspecified"
            | "IPv4-compatible (deprecated)"
            | "IPv4-mapped"
            | "IPv4-translated"
            | "discard-only"
            | "dummy IPv6 prefix"
    )
}

/// The most specific special-purpose block holding an address, by a containment test.
fn special(table: &'static [SpecialBlock], inside: impl Fn(Parsed) -> bool) -> Option<&'static SpecialBlock> {
    table.iter().filter(|b| inside(b.parsed())).max_by_key(|b| b.parsed().bits)
}

fn class_of(block: &'static SpecialBlock) -> AddressClass {
    let rule = Rule { name: block.name, block: block.cidr };
    if never_rule(block.name) { AddressClass::Never(rule) } else { AddressClass::Private(rule) }
}

/// Classifies an IPv4 address: public only outside every IANA special-purpose block.
pub fn classify_v4(ip: Ipv4Addr) -> AddressClass {
    match special(IPV4_SPECIAL, |b| b.contains_v4(ip)) {
        Some(block) => class_of(block),
        None => AddressClass::Public,
    }
}

/// Classifies an IPv6 address: public only inside global unicast (`2000::/3`) and outside
/// every IANA special-purpose block. The NAT64 well-known prefix is judged by the IPv4
/// address it embeds; 6to4 and Teredo are never public, and never better than the IPv4
/// addresses they embed.
pub fn classify_v6(ip: Ipv6Addr) -> AddressClass {
    use AddressClass::{Never, Private, Public};
    let bits = u128::from(ip);
    let block = special(IPV6_SPECIAL, |b| b.contains_v6(ip));
    match block.map(|b| b.cidr) {
        Some("64:ff9b::/96") => return classify_v4(Ipv4Addr::from((bits & 0xffff_ffff) as u32)),
        Some("2002::/16") => {
            let embedded = Ipv4Addr::from(((bits >> 80) & 0xffff_ffff) as u32);
            return classify_v4(embedded).worse(Private(Rule { name: "6to4", block: "2002::/16" }));
        }
        Some("2001::/32") => {
            // Teredo: the server address in bits 32..64, the client's inverted in the last 32.
            let server = Ipv4Addr::from(((bits >> 64) & 0xffff_ffff) as u32);
            let client = Ipv4Addr::from(!((bits & 0xffff_ffff) as u32));
            let teredo = Private(Rule { name: "Teredo", block: "2001::/32" });
            return classify_v4(server).worse(classify_v4(client)).worse(teredo);
        }
        _ => {}
    }
    if let Some(block) = block {
        return class_of(block);
    }
    if bits >> 125 != 0b001 {
        return Never(Rule { name: "outside global unicast", block: "2000::/3" });
    }
    Public
}

/// Classifies any address.
pub fn classify(ip: IpAddr) -> AddressClass {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

/// Whether `host` is `localhost` or a name under it.
pub fn is_localhost_name(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    host == "localhost" || host.ends_with(".localhost")
}

/// Host names that always point inside: `localhost`, `*.localhost`, `*.local`,
/// `*.internal` (with or without a trailing dot).
pub fn local_name_rule(host: &str) -> Option<&'static str> {
    if is_localhost_name(host) {
        return Some("the name localhost");
    }
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    if host.ends_with(".local") || host == "local" {
        Some("a .local name")
    } else if host.ends_with(".internal") || host == "internal" {
        Some("an .internal name")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v4(s: &str) -> AddressClass {
        classify(s.parse().unwrap())
    }

    #[test]
    fn the_table() {
        let never = [
            "0.0.0.0",
            "127.0.0.1",
            "127.255.255.254",
            "169.254.169.254",
            "224.0.0.1",
            "239.255.255.250",
            "255.255.255.255",
            "240.0.0.1",
            "::",
            "::1",
            "fe80::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:8.8.8.8",
            "::127.0.0.1",
            "64:ff9b::7f00:1",
            "64:ff9b::a9fe:a9fe",
            "2002:7f00:1::",
            "2002:a9fe:a9fe::1",
            "2001:0:4136:e378:8000:63bf:80ff:fffe",
            "::ffff:0:7f00:1",
            "::ffff:0:808:808",
            "4000::1",
            "1::1",
            "e000::1",
            "100:0:0:1::1",
            "100::1",
        ];
        for address in never {
            assert!(matches!(v4(address), AddressClass::Never(_)), "{address}: {:?}", v4(address));
        }
        let private = [
            "10.0.0.1",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "100.64.0.1",
            "100.127.255.255",
            "192.0.0.8",
            "192.0.2.1",
            "198.51.100.7",
            "203.0.113.9",
            "198.18.0.1",
            "198.19.255.255",
            "192.88.99.1",
            "fc00::1",
            "fd12:3456::1",
            "fec0::1",
            "2001:db8::1",
            "64:ff9b:1::a00:1",
            "64:ff9b::a00:1",
            "2002:c0a8:101::1",
            "2001:2::1",
            "2001:10::1",
            "2002:808:808::1",
            "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
            "3fff::1",
            "5f00::1",
            "2620:4f:8000::1",
            "192.0.0.9",
            "192.31.196.1",
        ];
        for address in private {
            assert!(matches!(v4(address), AddressClass::Private(_)), "{address}: {:?}", v4(address));
        }
        let public = [
            "8.8.8.8",
            "1.1.1.1",
            "172.32.0.1",
            "100.128.0.1",
            "192.169.0.1",
            "2606:4700::1111",
            "64:ff9b::808:808",
            "2a00:1450:4001::200e",
        ];
        for address in public {
            assert_eq!(v4(address), AddressClass::Public, "{address}");
        }
    }

    #[test]
    fn local_names() {
        for name in [
            "localhost",
            "LOCALHOST.",
            "api.localhost",
            "printer.local",
            "db.internal",
            "metadata.google.internal",
        ] {
            assert!(local_name_rule(name).is_some(), "{name}");
        }
        for name in ["example.com", "localhost.example.com", "internal.example.org"] {
            assert!(local_name_rule(name).is_none(), "{name}");
        }
    }
}

#[cfg(test)]
mod registry {
    use proptest::prelude::*;

    use super::*;
    use crate::iana::{IPV4_SPECIAL, IPV6_SPECIAL};

    #[test]
    fn every_entry_is_well_formed() {
        for block in IPV4_SPECIAL.iter().chain(IPV6_SPECIAL) {
            let (net, bits) = block.cidr.split_once('/').unwrap();
            let bits: u32 = bits.parse().unwrap();
            let ip: IpAddr = net.parse().unwrap();
            let width = if ip.is_ipv4() { 32 } else { 128 };
            assert!(bits <= width, "{}", block.cidr);
            let parsed = block.parsed();
            let host_bits = if bits == width { 0 } else { (1u128 << (width - bits)) - 1 };
            assert_eq!(parsed.net & host_bits, 0, "{} has host bits set", block.cidr);
            assert!(block.rfc.starts_with("RFC"), "{}", block.cidr);
        }
    }

    /// An address inside `block`, its host bits from `noise`.
    fn inside(block: &SpecialBlock, noise: u128) -> IpAddr {
        let parsed = block.parsed();
        if block.cidr.contains(':') {
            let host = if parsed.bits == 128 { 0 } else { noise & ((1u128 << (128 - parsed.bits)) - 1) };
            IpAddr::V6(Ipv6Addr::from(parsed.net | host))
        } else {
            let host =
                if parsed.bits == 32 { 0 } else { (noise as u32) & ((1u32 << (32 - parsed.bits)) - 1) };
            IpAddr::V4(Ipv4Addr::from(parsed.net as u32 | host))
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

        /// Inside any IANA special-purpose block, no address is public — but for the NAT64
        /// well-known prefix, which is as public as the IPv4 address it embeds.
        #[test]
        fn special_purpose_addresses_are_never_public(index in 0..IPV4_SPECIAL.len() + IPV6_SPECIAL.len(), noise in any::<u128>()) {
            let block = IPV4_SPECIAL.iter().chain(IPV6_SPECIAL).nth(index).unwrap();
            let ip = inside(block, noise);
            let class = classify(ip);
            if block.cidr == "64:ff9b::/96" {
                let IpAddr::V6(v6) = ip else { unreachable!() };
                let embedded = Ipv4Addr::from((u128::from(v6) & 0xffff_ffff) as u32);
                prop_assert_eq!(class, classify_v4(embedded), "{} in {}", ip, block.cidr);
            } else {
                prop_assert_ne!(class, AddressClass::Public, "{} in {} ({})", ip, block.cidr, block.name);
            }
        }

        /// Outside global unicast, no IPv6 address is public (whatever it embeds), except
        /// under the NAT64 prefix.
        #[test]
        fn only_global_unicast_is_public(bits in any::<u128>()) {
            let ip = Ipv6Addr::from(bits);
            let nat64 = bits >> 32 == 0x0064_ff9b_0000_0000_0000_0000;
            if bits >> 125 != 0b001 && !nat64 {
                prop_assert_ne!(classify_v6(ip), AddressClass::Public, "{}", ip);
            }
        }

        /// Every IPv4 address that the tunnelling forms embed is judged no better than
        /// the embedded address itself.
        #[test]
        fn embedded_addresses_are_judged_by_what_they_embed(v4 in any::<u32>(), high in any::<u32>()) {
            let inner = classify_v4(Ipv4Addr::from(v4));
            let nat64 = Ipv6Addr::from((0x0064_ff9b_u128 << 96) | u128::from(v4));
            let six_to_four = Ipv6Addr::from((0x2002_u128 << 112) | (u128::from(v4) << 80));
            let mapped = Ipv6Addr::from((0xffff_u128 << 32) | u128::from(v4));
            let translated = Ipv6Addr::from((0xffff_u128 << 48) | u128::from(v4));
            let teredo = Ipv6Addr::from((0x2001_0000_u128 << 96) | (u128::from(high) << 64) | u128::from(!v4));
            prop_assert_eq!(classify_v6(nat64), inner);
            prop_assert_ne!(classify_v6(six_to_four), AddressClass::Public);
            prop_assert!(matches!(classify_v6(mapped), AddressClass::Never(_)));
            prop_assert!(matches!(classify_v6(translated), AddressClass::Never(_)));
            prop_assert_ne!(classify_v6(teredo), AddressClass::Public);
            if matches!(inner, AddressClass::Never(_)) {
                prop_assert!(matches!(classify_v6(six_to_four), AddressClass::Never(_)));
                prop_assert!(matches!(classify_v6(teredo), AddressClass::Never(_)));
            }
        }
    }
}
