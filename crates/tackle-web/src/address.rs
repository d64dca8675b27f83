//! Which network addresses a fetch may reach.
//!
//! Every address is one of three classes: public; private (reachable only for an
//! allowlisted host and a trusted provider); never (loopback, link-local and cloud
//! metadata, multicast, broadcast, unspecified, reserved, IPv4 tunnelled in IPv6 forms
//! that hide its real target). IPv6 forms that embed an IPv4 address (NAT64, 6to4,
//! Teredo) are judged by the embedded address.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The class of an address, with the rule that put it there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressClass {
    /// Reachable for every policy.
    Public,
    /// A private or non-global address: only for allowlisted hosts.
    Private(&'static str),
    /// Never reachable for a model-chosen target.
    Never(&'static str),
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

fn in_v4(ip: Ipv4Addr, net: [u8; 4], bits: u32) -> bool {
    let mask = if bits == 0 { 0 } else { u32::MAX << (32 - bits) };
    (u32::from(ip) & mask) == (u32::from(Ipv4Addr::from(net)) & mask)
}

fn in_v6(ip: Ipv6Addr, net: [u16; 8], bits: u32) -> bool {
    let mask = if bits == 0 { 0 } else { u128::MAX << (128 - bits) };
    (u128::from(ip) & mask) == (u128::from(Ipv6Addr::from(net)) & mask)
}

/// Classifies an IPv4 address.
pub fn classify_v4(ip: Ipv4Addr) -> AddressClass {
    use AddressClass::{Never, Private, Public};
    const NEVER: &[([u8; 4], u32, &str)] = &[
        ([0, 0, 0, 0], 8, "unspecified (0.0.0.0/8)"),
        ([127, 0, 0, 0], 8, "loopback (127.0.0.0/8)"),
        ([169, 254, 0, 0], 16, "link-local and cloud metadata (169.254.0.0/16)"),
        ([224, 0, 0, 0], 4, "multicast (224.0.0.0/4)"),
        ([255, 255, 255, 255], 32, "broadcast"),
        ([240, 0, 0, 0], 4, "reserved (240.0.0.0/4)"),
    ];
    const PRIVATE: &[([u8; 4], u32, &str)] = &[
        ([10, 0, 0, 0], 8, "private (10.0.0.0/8)"),
        ([172, 16, 0, 0], 12, "private (172.16.0.0/12)"),
        ([192, 168, 0, 0], 16, "private (192.168.0.0/16)"),
        ([100, 64, 0, 0], 10, "shared address space (100.64.0.0/10)"),
        ([192, 0, 0, 0], 24, "IETF protocol assignments (192.0.0.0/24)"),
        ([192, 0, 2, 0], 24, "documentation (192.0.2.0/24)"),
        ([198, 51, 100, 0], 24, "documentation (198.51.100.0/24)"),
        ([203, 0, 113, 0], 24, "documentation (203.0.113.0/24)"),
        ([198, 18, 0, 0], 15, "benchmarking (198.18.0.0/15)"),
        ([192, 88, 99, 0], 24, "6to4 relay anycast (192.88.99.0/24)"),
    ];
    if let Some((_, _, rule)) = NEVER.iter().find(|(net, bits, _)| in_v4(ip, *net, *bits)) {
        return Never(rule);
    }
    if let Some((_, _, rule)) = PRIVATE.iter().find(|(net, bits, _)| in_v4(ip, *net, *bits)) {
        return Private(rule);
    }
    Public
}

/// Classifies an IPv6 address, judging embedded IPv4 addresses by what they embed.
pub fn classify_v6(ip: Ipv6Addr) -> AddressClass {
    use AddressClass::{Never, Private, Public};
    let bits = u128::from(ip);
    let low32 = Ipv4Addr::from((bits & 0xffff_ffff) as u32);
    if ip.is_unspecified() {
        return Never("unspecified (::)");
    }
    if ip.is_loopback() {
        return Never("loopback (::1)");
    }
    if in_v6(ip, [0, 0, 0, 0, 0, 0xffff, 0, 0], 96) {
        return Never("IPv4-mapped IPv6 (::ffff:0:0/96)");
    }
    if in_v6(ip, [0; 8], 96) {
        return Never("IPv4-compatible IPv6 (::/96)");
    }
    if in_v6(ip, [0xfe80, 0, 0, 0, 0, 0, 0, 0], 10) {
        return Never("link-local (fe80::/10)");
    }
    if in_v6(ip, [0xff00, 0, 0, 0, 0, 0, 0, 0], 8) {
        return Never("multicast (ff00::/8)");
    }
    if in_v6(ip, [0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48) {
        return Private("local-use NAT64 (64:ff9b:1::/48)");
    }
    if in_v6(ip, [0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96) {
        return classify_v4(low32).worse(Public);
    }
    if in_v6(ip, [0x2002, 0, 0, 0, 0, 0, 0, 0], 16) {
        let embedded = Ipv4Addr::from(((bits >> 80) & 0xffff_ffff) as u32);
        return classify_v4(embedded);
    }
    if in_v6(ip, [0x2001, 0, 0, 0, 0, 0, 0, 0], 32) {
        // Teredo: the server address in bits 32..64, the client's inverted in the last 32.
        let server = Ipv4Addr::from(((bits >> 64) & 0xffff_ffff) as u32);
        let client = Ipv4Addr::from(!((bits & 0xffff_ffff) as u32));
        return classify_v4(server).worse(classify_v4(client));
    }
    const PRIVATE: &[([u16; 8], u32, &str)] = &[
        ([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7, "unique local (fc00::/7)"),
        ([0xfec0, 0, 0, 0, 0, 0, 0, 0], 10, "site-local (fec0::/10)"),
        ([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32, "documentation (2001:db8::/32)"),
        ([0x100, 0, 0, 0, 0, 0, 0, 0], 64, "discard-only (100::/64)"),
        ([0x2001, 0x2, 0, 0, 0, 0, 0, 0], 48, "benchmarking (2001:2::/48)"),
        ([0x2001, 0x10, 0, 0, 0, 0, 0, 0], 28, "ORCHID (2001:10::/28)"),
        ([0x2001, 0x20, 0, 0, 0, 0, 0, 0], 28, "ORCHIDv2 (2001:20::/28)"),
    ];
    if let Some((_, _, rule)) = PRIVATE.iter().find(|(net, b, _)| in_v6(ip, *net, *b)) {
        return Private(rule);
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
            "100::1",
            "64:ff9b:1::a00:1",
            "64:ff9b::a00:1",
            "2002:c0a8:101::1",
            "2001:2::1",
            "2001:10::1",
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
            "2002:808:808::1",
            "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
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
