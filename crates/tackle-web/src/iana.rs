//! The IANA special-purpose address registries, written out as data: every block that
//! IANA lists for IPv4 (iana-ipv4-special-registry) and IPv6 (iana-ipv6-special-registry),
//! with the RFC that reserves it. The address classifier treats an address inside any of
//! them as not public; the tests check that for every entry.

/// One special-purpose block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpecialBlock {
    /// The block, as written in the registry.
    pub cidr: &'static str,
    /// Its name in the registry.
    pub name: &'static str,
    /// The RFC (or RFCs) that reserve it.
    pub rfc: &'static str,
}

const fn block(cidr: &'static str, name: &'static str, rfc: &'static str) -> SpecialBlock {
    SpecialBlock { cidr, name, rfc }
}

/// The IPv4 special-purpose address registry, and multicast (which has a registry of its
/// own but is never a web server's address).
pub const IPV4_SPECIAL: &[SpecialBlock] = &[
    block("0.0.0.0/8", "this network", "RFC 791"),
    block("0.0.0.0/32", "this host on this network", "RFC 1122"),
    block("10.0.0.0/8", "private use", "RFC 1918"),
    block("100.64.0.0/10", "shared address space", "RFC 6598"),
    block("127.0.0.0/8", "loopback", "RFC 1122"),
    block("169.254.0.0/16", "link local, where cloud metadata services answer", "RFC 3927"),
    block("172.16.0.0/12", "private use", "RFC 1918"),
    block("192.0.0.0/24", "IETF protocol assignments", "RFC 6890"),
    block("192.0.0.0/29", "IPv4 service continuity prefix", "RFC 7335"),
    block("192.0.0.8/32", "IPv4 dummy address", "RFC 7600"),
    block("192.0.0.9/32", "port control protocol anycast", "RFC 7723"),
    block("192.0.0.10/32", "traversal using relays around NAT anycast", "RFC 8155"),
    block("192.0.0.170/32", "NAT64/DNS64 discovery", "RFC 8880, RFC 7050"),
    block("192.0.0.171/32", "NAT64/DNS64 discovery", "RFC 8880, RFC 7050"),
    block("192.0.2.0/24", "documentation (TEST-NET-1)", "RFC 5737"),
    block("192.31.196.0/24", "AS112-v4", "RFC 7535"),
    block("192.52.193.0/24", "AMT", "RFC 7450"),
    block("192.88.99.0/24", "deprecated (6to4 relay anycast)", "RFC 7526"),
    block("192.168.0.0/16", "private use", "RFC 1918"),
    block("192.175.48.0/24", "direct delegation AS112 service", "RFC 7534"),
    block("198.18.0.0/15", "benchmarking", "RFC 2544"),
    block("198.51.100.0/24", "documentation (TEST-NET-2)", "RFC 5737"),
    block("203.0.113.0/24", "documentation (TEST-NET-3)", "RFC 5737"),
    block("224.0.0.0/4", "multicast", "RFC 5771"),
    block("240.0.0.0/4", "reserved", "RFC 1112"),
    block("255.255.255.255/32", "limited broadcast", "RFC 8190, RFC 919"),
];

/// The IPv6 special-purpose address registry, and the other blocks outside global
/// unicast that an address can still be written in (multicast, site-local, the
/// IPv4-compatible and IPv4-translated forms).
pub const IPV6_SPECIAL: &[SpecialBlock] = &[
    block("::1/128", "loopback", "RFC 4291"),
    block("::/128", "unspecified", "RFC 4291"),
    block("::/96", "IPv4-compatible (deprecated)", "RFC 4291"),
    block("::ffff:0:0/96", "IPv4-mapped", "RFC 4291"),
    block("::ffff:0:0:0/96", "IPv4-translated", "RFC 2765"),
    block("64:ff9b::/96", "IPv4-IPv6 translation (NAT64 well-known prefix)", "RFC 6052"),
    block("64:ff9b:1::/48", "IPv4-IPv6 translation (local use)", "RFC 8215"),
    block("100::/64", "discard-only", "RFC 6666"),
    block("100:0:0:1::/64", "dummy IPv6 prefix", "RFC 9780"),
    block("2001::/23", "IETF protocol assignments", "RFC 2928"),
    block("2001::/32", "TEREDO", "RFC 4380, RFC 8190"),
    block("2001:1::1/128", "port control protocol anycast", "RFC 7723"),
    block("2001:1::2/128", "traversal using relays around NAT anycast", "RFC 8155"),
    block("2001:1::3/128", "DNS-SD service registration protocol anycast", "RFC 9665"),
    block("2001:2::/48", "benchmarking", "RFC 5180, RFC Errata 1752"),
    block("2001:3::/32", "AMT", "RFC 7450"),
    block("2001:4:112::/48", "AS112-v6", "RFC 7535"),
    block("2001:10::/28", "deprecated (previously ORCHID)", "RFC 4843"),
    block("2001:20::/28", "ORCHIDv2", "RFC 7343"),
    block("2001:30::/28", "drone remote ID protocol entity tags", "RFC 9374"),
    block("2001:db8::/32", "documentation", "RFC 3849"),
    block("2002::/16", "6to4", "RFC 3056"),
    block("2620:4f:8000::/48", "direct delegation AS112 service", "RFC 7534"),
    block("3fff::/20", "documentation", "RFC 9637"),
    block("5f00::/16", "segment routing (SRv6) SIDs", "RFC 9602"),
    block("fc00::/7", "unique local", "RFC 4193, RFC 8190"),
    block("fe80::/10", "link-local unicast", "RFC 4291"),
    block("fec0::/10", "site-local (deprecated)", "RFC 3879"),
    block("ff00::/8", "multicast", "RFC 4291"),
];

/// A block parsed: network bits (IPv4 in the low 32 bits) and prefix length.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Parsed {
    pub(crate) net: u128,
    pub(crate) bits: u32,
}

impl Parsed {
    pub(crate) fn contains_v4(self, ip: std::net::Ipv4Addr) -> bool {
        let mask = if self.bits == 0 { 0 } else { u32::MAX << (32 - self.bits) };
        (u32::from(ip) & mask) == (self.net as u32 & mask)
    }

    pub(crate) fn contains_v6(self, ip: std::net::Ipv6Addr) -> bool {
        let mask = if self.bits == 0 { 0 } else { u128::MAX << (128 - self.bits) };
        (u128::from(ip) & mask) == (self.net & mask)
    }
}

impl SpecialBlock {
    /// The block's network and prefix length. The tables are checked by a test, so a
    /// malformed entry cannot ship; one would parse as an empty `/128`.
    pub(crate) fn parsed(&self) -> Parsed {
        let (net, bits) = self.cidr.split_once('/').unwrap_or((self.cidr, "128"));
        let bits = bits.parse().unwrap_or(128);
        let net = match net.parse::<std::net::IpAddr>() {
            Ok(std::net::IpAddr::V4(v4)) => u128::from(u32::from(v4)),
            Ok(std::net::IpAddr::V6(v6)) => u128::from(v6),
            Err(_) => 0,
        };
        Parsed { net, bits }
    }
}
