use std::collections::HashMap;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr};
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use proptest::prelude::*;
use tackle_web::address::{AddressClass, classify};
use tackle_web::{HostPattern, Resolve, RetrieveError, RetrieveErrorKind, Retriever, TargetPolicy};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// A resolver with scripted answers per name: each lookup takes the next answer (the last
/// one repeats), and lookups are counted.
#[derive(Default)]
struct Scripted {
    answers: Mutex<HashMap<String, Vec<Vec<IpAddr>>>>,
    lookups: AtomicUsize,
}

impl Scripted {
    fn with(name: &str, answers: &[&[&str]]) -> Arc<Self> {
        let scripted = Scripted::default();
        let parsed = answers.iter().map(|a| a.iter().map(|s| s.parse().unwrap()).collect()).collect();
        scripted.answers.lock().unwrap().insert(name.to_owned(), parsed);
        Arc::new(scripted)
    }
}

impl Resolve for Scripted {
    fn resolve<'a>(
        &'a self,
        host: &'a str,
    ) -> Pin<Box<dyn std::future::Future<Output = Result<Vec<IpAddr>, tackle_web::ResolveError>> + Send + 'a>>
    {
        self.lookups.fetch_add(1, Ordering::SeqCst);
        let mut answers = self.answers.lock().unwrap();
        let answer = match answers.get_mut(host) {
            Some(list) if list.len() > 1 => Ok(list.remove(0)),
            Some(list) => Ok(list[0].clone()),
            None => Err(tackle_web::ResolveError::NoAddresses { host: host.to_owned() }),
        };
        Box::pin(async move { answer })
    }
}

fn page(body: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_raw(body, "text/html; charset=utf-8")
}

/// Every spelling of an IPv4 address a browser accepts.
fn spellings(ip: Ipv4Addr) -> Vec<String> {
    let [a, b, c, d] = ip.octets();
    let n = u32::from(ip);
    vec![
        format!("{a}.{b}.{c}.{d}"),
        format!("{n}"),
        format!("0x{n:x}"),
        format!("0{n:o}"),
        format!("0x{a:x}.0x{b:x}.0x{c:x}.0x{d:x}"),
        format!("0{a:o}.0{b:o}.0{c:o}.0{d:o}"),
        format!("{a}.{}", (u32::from(b) << 16) | (u32::from(c) << 8) | u32::from(d)),
        format!("{a}.{b}.{}", (u32::from(c) << 8) | u32::from(d)),
        format!("{a}.{b}.{c}.{d}."),
    ]
}

fn refused_v4() -> impl Strategy<Value = Ipv4Addr> {
    prop_oneof![
        (0u32..1 << 24).prop_map(|x| Ipv4Addr::from((127 << 24) | x)),
        (0u32..1 << 24).prop_map(|x| Ipv4Addr::from((10 << 24) | x)),
        (0u32..1 << 16).prop_map(|x| Ipv4Addr::from((169 << 24) | (254 << 16) | x)),
        (0u32..1 << 20).prop_map(|x| Ipv4Addr::from((172 << 24) | (16 << 16) | x)),
        (0u32..1 << 16).prop_map(|x| Ipv4Addr::from((192 << 24) | (168 << 16) | x)),
        (0u32..1 << 22).prop_map(|x| Ipv4Addr::from((100 << 24) | (64 << 16) | x)),
        (0u32..1 << 24).prop_map(Ipv4Addr::from),
        (0u32..1 << 28).prop_map(|x| Ipv4Addr::from((224 << 24) | x)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// However a refused IPv4 address is spelled, it is read as itself and refused before
    /// any connection is made.
    #[test]
    fn every_spelling_of_a_refused_address_is_refused(ip in refused_v4()) {
        prop_assert_ne!(classify(IpAddr::V4(ip)), AddressClass::Public);
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let retriever = Retriever::new();
        for spelling in spellings(ip) {
            let url = format!("http://{spelling}/latest/meta-data/");
            let parsed = url::Url::parse(&url).unwrap();
            prop_assert_eq!(parsed.host(), Some(url::Host::Ipv4(ip)), "{}", spelling);
            let outcome = runtime.block_on(retriever.retrieve(&url, &TargetPolicy::PublicOnly));
            prop_assert!(matches!(outcome, Err(RetrieveError::Blocked { .. })), "{} → {:?}", spelling, outcome);
        }
    }

    /// IPv6 forms that embed a refused IPv4 address are refused too.
    #[test]
    fn embedded_ipv4_is_judged(ip in refused_v4()) {
        let n = u32::from(ip);
        let forms = [
            format!("::ffff:{ip}"),
            format!("::ffff:0:{:x}:{:x}", n >> 16, n & 0xffff),
            format!("64:ff9b::{:x}:{:x}", n >> 16, n & 0xffff),
            format!("2002:{:x}:{:x}::1", n >> 16, n & 0xffff),
            format!("2001:0:4136:e378:8000:63bf:{:x}:{:x}", (!n) >> 16, (!n) & 0xffff),
        ];
        for form in forms {
            let address: IpAddr = form.parse().unwrap();
            prop_assert_ne!(classify(address), AddressClass::Public, "{}", form);
        }
    }
}

#[tokio::test]
async fn loopback_is_refused_unless_a_test_opts_in() {
    let server = MockServer::start().await;
    Mock::given(method("GET")).respond_with(page("<p>hi</p>")).mount(&server).await;
    let url = format!("{}/", server.uri());
    let err = Retriever::new().retrieve(&url, &TargetPolicy::PublicOnly).await.unwrap_err();
    assert!(matches!(&err, RetrieveError::Blocked { rule } if rule.contains("loopback")), "{err:?}");
    let page = Retriever::new().allow_loopback(true).retrieve(&url, &TargetPolicy::PublicOnly).await.unwrap();
    assert_eq!(page.text, "<p>hi</p>");
    // The user typed it: no restriction.
    assert!(Retriever::new().retrieve(&url, &TargetPolicy::UserChosen).await.is_ok());
    assert!(
        Retriever::new().retrieve("http://localhost.localhost/", &TargetPolicy::PublicOnly).await.is_err()
    );
}

#[tokio::test]
async fn every_redirect_hop_is_checked() {
    let server = MockServer::start().await;
    Mock::given(path("/start"))
        .respond_with(ResponseTemplate::new(302).insert_header("location", "http://10.20.30.40/admin"))
        .mount(&server)
        .await;
    Mock::given(path("/meta"))
        .respond_with(
            ResponseTemplate::new(301).insert_header("location", "http://[::ffff:169.254.169.254]/"),
        )
        .mount(&server)
        .await;
    Mock::given(path("/hop"))
        .respond_with(ResponseTemplate::new(307).insert_header("location", "/final"))
        .mount(&server)
        .await;
    Mock::given(path("/final")).respond_with(page("arrived")).mount(&server).await;
    Mock::given(path("/loop"))
        .respond_with(ResponseTemplate::new(302).insert_header("location", "/loop"))
        .mount(&server)
        .await;
    let retriever = Retriever::new().allow_loopback(true);
    let err =
        retriever.retrieve(&format!("{}/start", server.uri()), &TargetPolicy::PublicOnly).await.unwrap_err();
    assert!(
        matches!(&err, RetrieveError::Blocked { rule } if rule.contains("10.20.30.40") && rule.contains("private")),
        "{err:?}"
    );
    let err =
        retriever.retrieve(&format!("{}/meta", server.uri()), &TargetPolicy::PublicOnly).await.unwrap_err();
    assert!(matches!(err, RetrieveError::Blocked { .. }), "{err:?}");
    let page = retriever.retrieve(&format!("{}/hop", server.uri()), &TargetPolicy::PublicOnly).await.unwrap();
    assert_eq!(page.final_url.path(), "/final");
    let err =
        retriever.retrieve(&format!("{}/loop", server.uri()), &TargetPolicy::PublicOnly).await.unwrap_err();
    assert!(err.to_string().contains("more than 10 redirects"), "{err}");
}

#[tokio::test]
async fn names_are_resolved_here_and_every_answer_checked() {
    let resolver = Scripted::with("intranet.example", &[&["93.184.215.14", "10.0.0.7"]]);
    let retriever = Retriever::new().resolver(resolver);
    let err = retriever.retrieve("http://intranet.example/", &TargetPolicy::PublicOnly).await.unwrap_err();
    assert!(matches!(&err, RetrieveError::Blocked { rule } if rule.contains("10.0.0.7")), "{err:?}");
    for name in ["http://db.internal/", "http://printer.local/", "https://localhost/"] {
        let err = retriever.retrieve(name, &TargetPolicy::PublicOnly).await.unwrap_err();
        assert!(matches!(err, RetrieveError::Blocked { .. }), "{name}: {err:?}");
    }
    // Allowlisted hosts: a private address needs a trusted provider, and loopback (a
    // never-address) stays refused even for an allowlisted name. Both are refused before
    // any connection is made.
    let allow = |trusted| TargetPolicy::Allowlisted {
        hosts: vec![HostPattern::new("wiki.corp").unwrap()],
        provider_trusted: trusted,
    };
    let private = Retriever::new().resolver(Scripted::with("wiki.corp", &[&["10.1.1.1"]]));
    let err = private.retrieve("http://wiki.corp/", &allow(false)).await.unwrap_err();
    assert!(matches!(&err, RetrieveError::Blocked { rule } if rule.contains("high confidence")), "{err:?}");
    let loopback = Retriever::new().resolver(Scripted::with("wiki.corp", &[&["127.0.0.1"]]));
    let err = loopback.retrieve("http://wiki.corp/", &allow(true)).await.unwrap_err();
    assert!(matches!(&err, RetrieveError::Blocked { rule } if rule.contains("loopback")), "{err:?}");
}

#[tokio::test]
async fn connections_are_pinned_so_rebinding_cannot_redirect_them() {
    let server = MockServer::start().await;
    Mock::given(path("/first"))
        .respond_with(ResponseTemplate::new(302).insert_header("location", "/second"))
        .mount(&server)
        .await;
    Mock::given(path("/second")).respond_with(page("second")).mount(&server).await;
    Mock::given(path("/page")).respond_with(page("pinned")).mount(&server).await;
    let port = server.address().port();

    // First answer: the local test server (allowed by the test's opt-in). Any later answer
    // would be private; the connection must not ask again.
    let resolver = Scripted::with("rebind.test", &[&["127.0.0.1"], &["10.9.9.9"]]);
    let retriever = Retriever::new().allow_loopback(true).resolver(resolver.clone());
    let page = retriever
        .retrieve(&format!("http://rebind.test:{port}/page"), &TargetPolicy::PublicOnly)
        .await
        .unwrap();
    assert_eq!(page.text, "pinned");
    assert_eq!(resolver.lookups.load(Ordering::SeqCst), 1, "one lookup, then the connection is pinned");

    // A redirect is a new hop: the name is resolved and checked again, and now refused.
    let err = retriever
        .retrieve(&format!("http://rebind.test:{port}/first"), &TargetPolicy::PublicOnly)
        .await
        .unwrap_err();
    assert!(matches!(&err, RetrieveError::Blocked { rule } if rule.contains("10.9.9.9")), "{err:?}");
}

#[tokio::test]
async fn size_caps_count_decompressed_bytes_and_types_are_checked() {
    let server = MockServer::start().await;
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gzip.write_all(&vec![b' '; 20 * 1024 * 1024]).unwrap();
    let bomb = gzip.finish().unwrap();
    assert!(bomb.len() < 100 * 1024, "the bomb is small on the wire: {}", bomb.len());
    Mock::given(path("/bomb"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("content-type", "text/html")
                .insert_header("content-encoding", "gzip")
                .set_body_bytes(bomb),
        )
        .mount(&server)
        .await;
    Mock::given(path("/big"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("content-type", "text/plain")
                .set_body_bytes(vec![b'x'; 6 * 1024 * 1024]),
        )
        .mount(&server)
        .await;
    Mock::given(path("/pdf"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("content-type", "application/pdf")
                .set_body_bytes(b"%PDF-1.7".to_vec()),
        )
        .mount(&server)
        .await;
    Mock::given(path("/latin1"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("content-type", "text/plain; charset=iso-8859-1")
                .set_body_bytes(b"caf\xe9".to_vec()),
        )
        .mount(&server)
        .await;
    Mock::given(path("/missing")).respond_with(ResponseTemplate::new(404)).mount(&server).await;
    Mock::given(path("/slow"))
        .respond_with(page("late").set_delay(Duration::from_secs(5)))
        .mount(&server)
        .await;
    let retriever = Retriever::new().allow_loopback(true);
    let get = |p: &str| {
        let url = format!("{}{p}", server.uri());
        let retriever = retriever.clone();
        async move { retriever.retrieve(&url, &TargetPolicy::PublicOnly).await }
    };
    for big in ["/bomb", "/big"] {
        let err = get(big).await.unwrap_err();
        assert_eq!(err.kind(), RetrieveErrorKind::TooLarge, "{err}");
        assert_eq!(err.to_string(), "the page is larger than 5 MiB");
    }
    let err = get("/pdf").await.unwrap_err();
    assert!(matches!(&err, RetrieveError::Unsupported(m) if m.contains("application/pdf")), "{err:?}");
    assert_eq!(get("/latin1").await.unwrap().text, "café");
    let missing = get("/missing").await.unwrap_err();
    assert!(missing.to_string().contains("HTTP 404"));
    assert_eq!(missing.kind(), RetrieveErrorKind::Status);
    let quick = Retriever::new().allow_loopback(true).timeout(Duration::from_millis(300));
    let err = quick.retrieve(&format!("{}/slow", server.uri()), &TargetPolicy::PublicOnly).await.unwrap_err();
    assert!(err.to_string().contains("timed out"), "{err}");
    assert_eq!(err.kind(), RetrieveErrorKind::Timeout);
}

#[tokio::test]
async fn urls_must_be_http_without_user_info() {
    let retriever = Retriever::new();
    for url in ["file:///etc/passwd", "ftp://example.com/", "http://user:pw@example.com/", "gopher://x/"] {
        let err = retriever.retrieve(url, &TargetPolicy::UserChosen).await.unwrap_err();
        assert!(matches!(err, RetrieveError::Blocked { .. }), "{url}: {err:?}");
    }
    // URLs and hosts that are not valid are the caller's mistake, not a failure.
    for url in [
        "not a url",
        "http://exa mple.com/",
        "http://-leading.example/",
        "http://trailing-.example/",
        "http://a..b/",
        "http://[::1/",
        "http://1.2.3.4.5/",
        "http://xn--/",
    ] {
        let err = retriever.retrieve(url, &TargetPolicy::PublicOnly).await.unwrap_err();
        assert_eq!(err.kind(), RetrieveErrorKind::InvalidUrl, "{url}: {err}");
    }
    let long_label = format!("http://{}.example/", "a".repeat(64));
    let err = retriever.retrieve(&long_label, &TargetPolicy::PublicOnly).await.unwrap_err();
    assert_eq!(err.kind(), RetrieveErrorKind::InvalidUrl, "{err}");
}

#[tokio::test]
async fn an_ipv4_translated_address_is_refused() {
    // `::ffff:0:0:0/96` (IPv4-translated) sits outside global unicast.
    let retriever = Retriever::new();
    for url in ["http://[::ffff:0:7f00:1]/", "http://[::ffff:0:a9fe:a9fe]/latest/", "http://[4000::1]/"] {
        let err = retriever.retrieve(url, &TargetPolicy::PublicOnly).await.unwrap_err();
        assert!(matches!(err, RetrieveError::Blocked { .. }), "{url}: {err:?}");
    }
}
