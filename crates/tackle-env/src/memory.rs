//! [`MemoryTree`]: an environment held in memory.

use std::collections::BTreeMap;
use std::sync::Mutex;

use crate::{EntryKind, EnvError, Environment, FileData, Metadata, RelPath};

/// Files in memory: for tests, and for hosts that keep files elsewhere (a database, a
/// browser's storage). Directories exist where files are under them or where they were
/// made empty by [`MemoryTree::with_dir`].
#[derive(Debug, Default)]
pub struct MemoryTree {
    nodes: Mutex<BTreeMap<RelPath, Option<Vec<u8>>>>,
}

impl MemoryTree {
    /// An empty tree.
    pub fn new() -> Self {
        MemoryTree::default()
    }

    /// The tree with a file at `path` (parsed as [`RelPath::parse`] does; panics on a
    /// refused path, as a test's own typo).
    #[allow(clippy::expect_used)]
    pub fn with_file(self, path: &str, content: impl Into<Vec<u8>>) -> Self {
        let path = RelPath::parse(path).expect("a plain path");
        self.write(&path, &content.into()).expect("a path not under a file");
        self
    }

    /// The tree with an empty directory at `path`.
    #[allow(clippy::expect_used)]
    pub fn with_dir(self, path: &str) -> Self {
        let path = RelPath::parse(path).expect("a plain path");
        let mut nodes = self.lock();
        let mut at = Some(path);
        while let Some(dir) = at.filter(|p| !p.is_root()) {
            nodes.entry(dir.clone()).or_insert(None);
            at = dir.parent();
        }
        drop(nodes);
        self
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<RelPath, Option<Vec<u8>>>> {
        // A panic while holding the lock leaves the map whole: every change is one insert.
        self.nodes.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn kind(nodes: &BTreeMap<RelPath, Option<Vec<u8>>>, path: &RelPath) -> Option<EntryKind> {
        if path.is_root() {
            return Some(EntryKind::Dir);
        }
        match nodes.get(path) {
            Some(Some(_)) => Some(EntryKind::File),
            Some(None) => Some(EntryKind::Dir),
            None => nodes.keys().any(|k| k.starts_with(path) && k != path).then_some(EntryKind::Dir),
        }
    }
}

impl Environment for MemoryTree {
    fn describe(&self) -> String {
        "memory".to_owned()
    }

    fn metadata(&self, path: &RelPath) -> Result<Metadata, EnvError> {
        let nodes = self.lock();
        match (Self::kind(&nodes, path), nodes.get(path)) {
            (Some(EntryKind::File), Some(Some(bytes))) => {
                Ok(Metadata { kind: EntryKind::File, len: bytes.len() as u64 })
            }
            (Some(kind), _) => Ok(Metadata { kind, len: 0 }),
            (None, _) => Err(EnvError::NotFound { path: path.clone() }),
        }
    }

    fn read(&self, path: &RelPath, limit: u64) -> Result<FileData, EnvError> {
        let nodes = self.lock();
        match nodes.get(path) {
            Some(Some(bytes)) => {
                let take = usize::try_from(limit).unwrap_or(usize::MAX).min(bytes.len());
                Ok(FileData { bytes: bytes[..take].to_vec(), len: bytes.len() as u64 })
            }
            _ if Self::kind(&nodes, path).is_some() => Err(EnvError::NotAFile { path: path.clone() }),
            _ => Err(EnvError::NotFound { path: path.clone() }),
        }
    }

    fn write(&self, path: &RelPath, bytes: &[u8]) -> Result<(), EnvError> {
        let mut nodes = self.lock();
        if path.is_root() || Self::kind(&nodes, path) == Some(EntryKind::Dir) {
            return Err(EnvError::NotAFile { path: path.clone() });
        }
        // No file may stand where a directory is needed.
        let mut at = path.parent();
        while let Some(dir) = at.filter(|p| !p.is_root()) {
            if let Some(Some(_)) = nodes.get(&dir) {
                return Err(EnvError::NotADirectory { path: dir });
            }
            at = dir.parent();
        }
        nodes.insert(path.clone(), Some(bytes.to_vec()));
        Ok(())
    }

    fn list(&self, path: &RelPath) -> Result<Vec<(String, EntryKind)>, EnvError> {
        let nodes = self.lock();
        match Self::kind(&nodes, path) {
            None => return Err(EnvError::NotFound { path: path.clone() }),
            Some(EntryKind::Dir) => {}
            Some(_) => return Err(EnvError::NotADirectory { path: path.clone() }),
        }
        let mut out: BTreeMap<String, EntryKind> = BTreeMap::new();
        for (key, node) in nodes.iter().filter(|(k, _)| k.starts_with(path) && *k != path) {
            let rest = if path.is_root() { key.as_str() } else { &key.as_str()[path.as_str().len() + 1..] };
            match rest.split_once('/') {
                Some((dir, _)) => {
                    out.insert(dir.to_owned(), EntryKind::Dir);
                }
                None => {
                    let kind = if node.is_some() { EntryKind::File } else { EntryKind::Dir };
                    out.entry(rest.to_owned()).or_insert(kind);
                }
            }
        }
        Ok(out.into_iter().collect())
    }
}
