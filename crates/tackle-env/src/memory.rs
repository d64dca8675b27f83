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

    fn walk(&self, dir: &RelPath, hidden: bool) -> Result<Vec<(RelPath, EntryKind)>, EnvError> {
        let nodes = self.lock();
        match Self::kind(&nodes, dir) {
            None => return Err(EnvError::NotFound { path: dir.clone() }),
            Some(EntryKind::Dir) => {}
            Some(_) => return Err(EnvError::NotADirectory { path: dir.clone() }),
        }
        // Every path under `dir`, directories included (also those only implied by files).
        let mut all: BTreeMap<RelPath, EntryKind> = BTreeMap::new();
        for (key, node) in nodes.iter() {
            all.insert(key.clone(), if node.is_some() { EntryKind::File } else { EntryKind::Dir });
            let mut up = key.parent();
            while let Some(p) = up.filter(|p| !p.is_root()) {
                all.entry(p.clone()).or_insert(EntryKind::Dir);
                up = p.parent();
            }
        }
        // One matcher per directory that holds `.gitignore` or `.ignore` files, the lines of
        // `.ignore` after those of `.gitignore` (the last match wins, as ripgrep ranks them).
        let mut lines: BTreeMap<RelPath, [Vec<String>; 2]> = BTreeMap::new();
        for (key, node) in nodes.iter() {
            let (Some(name), Some(bytes)) = (key.file_name(), node) else { continue };
            let slot = match name {
                ".gitignore" => 0,
                ".ignore" => 1,
                _ => continue,
            };
            let base = key.parent().unwrap_or_default();
            lines.entry(base).or_default()[slot] =
                String::from_utf8_lossy(bytes).lines().map(str::to_owned).collect();
        }
        let mut rules: BTreeMap<RelPath, ignore::gitignore::Gitignore> = BTreeMap::new();
        for (base, [git, plain]) in lines {
            let mut builder = ignore::gitignore::GitignoreBuilder::new(format!("/{}", base.as_str()));
            for line in git.iter().chain(&plain) {
                // A malformed line is skipped, as git skips it.
                let _ = builder.add_line(None, line);
            }
            if let Ok(rule) = builder.build() {
                rules.insert(base, rule);
            }
        }
        let ignored = |path: &RelPath, is_dir: bool| {
            let mut up = path.parent();
            while let Some(base) = up {
                if let Some(rule) = rules.get(&base) {
                    match rule.matched(format!("/{}", path.as_str()), is_dir) {
                        ignore::Match::Ignore(_) => return true,
                        ignore::Match::Whitelist(_) => return false,
                        ignore::Match::None => {}
                    }
                }
                up = base.parent();
            }
            false
        };
        let skipped = |path: &RelPath, kind: EntryKind| {
            // A path is out when any of its names is, or it or a directory above it is ignored.
            let mut at = Some(path.clone());
            let mut is_dir = kind == EntryKind::Dir;
            while let Some(p) = at.filter(|p| !p.is_root()) {
                if p.file_name().is_some_and(|n| crate::env::walk_skips(n, hidden)) || ignored(&p, is_dir) {
                    return true;
                }
                at = p.parent();
                is_dir = true;
            }
            false
        };
        Ok(all
            .into_iter()
            .filter(|(path, kind)| path.starts_with(dir) && path != dir && !skipped(path, *kind))
            .collect())
    }
}
