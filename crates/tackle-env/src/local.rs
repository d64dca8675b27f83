//! [`LocalDir`]: an environment on disk under one directory.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use crate::{EntryKind, EnvError, Environment, FileData, Metadata, RelPath};

/// A directory on disk. Paths are resolved name by name: a symbolic link is followed when
/// where it leads (its whole chain resolved) is under the root, and refused otherwise; a
/// file with more than one hard link is refused, as its other names may lie anywhere. A
/// file is opened and then checked to be the one resolved, so a link swapped in between is
/// caught rather than followed.
#[derive(Debug, Clone)]
pub struct LocalDir {
    /// Canonical: every resolved path is compared with it.
    root: PathBuf,
}

/// Where a path leads on disk.
struct Resolved {
    real: PathBuf,
    /// `None` when nothing is there (yet).
    meta: Option<fs::Metadata>,
}

impl LocalDir {
    /// The directory at `root` (made canonical: links in it are resolved once, here).
    pub fn new(root: impl AsRef<Path>) -> io::Result<Self> {
        let root = fs::canonicalize(root)?;
        if !root.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                format!("{} is not a directory", root.display()),
            ));
        }
        Ok(LocalDir { root })
    }

    /// The root, canonical.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn io(path: &RelPath, error: &io::Error) -> EnvError {
        match error.kind() {
            io::ErrorKind::NotFound => EnvError::NotFound { path: path.clone() },
            _ => EnvError::Io { path: path.clone(), message: error.to_string() },
        }
    }

    fn refused(path: &RelPath, reason: &'static str) -> EnvError {
        EnvError::Refused { path: path.to_string(), reason }
    }

    /// Follows `path` name by name from the root.
    fn resolve(&self, path: &RelPath) -> Result<Resolved, EnvError> {
        let mut real = self.root.clone();
        let mut names = path.names().peekable();
        while let Some(name) = names.next() {
            let next = real.join(name);
            match fs::symlink_metadata(&next) {
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    // The rest does not exist: plain names under a real directory inside.
                    let real = names.fold(next, |p, n| p.join(n));
                    return Ok(Resolved { real, meta: None });
                }
                Err(e) => return Err(Self::io(path, &e)),
                Ok(meta) if meta.file_type().is_symlink() => {
                    let target = fs::canonicalize(&next)
                        .map_err(|_| Self::refused(path, "it passes through a link that leads nowhere"))?;
                    if !target.starts_with(&self.root) {
                        return Err(Self::refused(
                            path,
                            "it passes through a link that leads outside the root",
                        ));
                    }
                    real = target;
                }
                Ok(meta) if !meta.is_dir() && names.peek().is_some() => {
                    return Err(EnvError::NotADirectory { path: path.clone() });
                }
                Ok(_) => real = next,
            }
        }
        let meta = fs::metadata(&real).map_err(|e| Self::io(path, &e))?;
        if meta.is_file() && hard_links(&meta) > 1 {
            return Err(Self::refused(
                path,
                "the file has other names (hard links) that may lie outside the root",
            ));
        }
        Ok(Resolved { real, meta: Some(meta) })
    }

    /// Opens the resolved file and checks it is the one resolved.
    fn open(&self, path: &RelPath, resolved: &Resolved) -> Result<fs::File, EnvError> {
        let file = fs::File::open(&resolved.real).map_err(|e| Self::io(path, &e))?;
        let opened = file.metadata().map_err(|e| Self::io(path, &e))?;
        if let Some(meta) = &resolved.meta
            && !same_file(meta, &opened)
        {
            return Err(Self::refused(path, "it changed while it was being opened"));
        }
        Ok(file)
    }
}

#[cfg(unix)]
fn hard_links(meta: &fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(meta)
}

#[cfg(not(unix))]
fn hard_links(_meta: &fs::Metadata) -> u64 {
    1
}

#[cfg(unix)]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    a.len() == b.len() && a.is_file() == b.is_file()
}

fn kind_of(meta: &fs::Metadata) -> EntryKind {
    if meta.is_file() {
        EntryKind::File
    } else if meta.is_dir() {
        EntryKind::Dir
    } else {
        EntryKind::Other
    }
}

impl Environment for LocalDir {
    fn describe(&self) -> String {
        self.root.display().to_string()
    }

    fn metadata(&self, path: &RelPath) -> Result<Metadata, EnvError> {
        let resolved = self.resolve(path)?;
        let meta = resolved.meta.ok_or_else(|| EnvError::NotFound { path: path.clone() })?;
        let kind = kind_of(&meta);
        Ok(Metadata { kind, len: if kind == EntryKind::File { meta.len() } else { 0 } })
    }

    fn read(&self, path: &RelPath, limit: u64) -> Result<FileData, EnvError> {
        let resolved = self.resolve(path)?;
        match &resolved.meta {
            None => return Err(EnvError::NotFound { path: path.clone() }),
            Some(meta) if !meta.is_file() => return Err(EnvError::NotAFile { path: path.clone() }),
            Some(_) => {}
        }
        let file = self.open(path, &resolved)?;
        let len = file.metadata().map_err(|e| Self::io(path, &e))?.len();
        let mut bytes = Vec::with_capacity(usize::try_from(limit.min(len)).unwrap_or(0));
        file.take(limit).read_to_end(&mut bytes).map_err(|e| Self::io(path, &e))?;
        Ok(FileData { len: len.max(bytes.len() as u64), bytes })
    }

    fn write(&self, path: &RelPath, bytes: &[u8]) -> Result<(), EnvError> {
        let Some(parent) = path.parent() else { return Err(EnvError::NotAFile { path: path.clone() }) };
        let resolved = self.resolve(path)?;
        let permissions = match &resolved.meta {
            Some(meta) if !meta.is_file() => return Err(EnvError::NotAFile { path: path.clone() }),
            Some(meta) => Some(meta.permissions()),
            None => None,
        };
        // The directory the file goes in. Resolving the path walked every name above it, so
        // it is under the root; what does not exist yet is plain names, made here.
        let dir = match resolved.real.parent() {
            Some(dir) if dir.starts_with(&self.root) => dir.to_path_buf(),
            _ => return Err(Self::refused(path, "it leads outside the root")),
        };
        match fs::metadata(&dir) {
            Ok(meta) if !meta.is_dir() => return Err(EnvError::NotADirectory { path: parent }),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                fs::create_dir_all(&dir).map_err(|e| Self::io(&parent, &e))?;
            }
            Err(e) => return Err(Self::io(&parent, &e)),
        }
        // Written beside the target and renamed over it: a reader sees all or nothing.
        let mut temp =
            tempfile::Builder::new().prefix(".tackle-").tempfile_in(&dir).map_err(|e| Self::io(path, &e))?;
        temp.write_all(bytes).map_err(|e| Self::io(path, &e))?;
        temp.as_file().sync_all().map_err(|e| Self::io(path, &e))?;
        if let Some(permissions) = permissions {
            temp.as_file().set_permissions(permissions).map_err(|e| Self::io(path, &e))?;
        }
        temp.persist(&resolved.real).map_err(|e| Self::io(path, &e.error))?;
        Ok(())
    }

    fn list(&self, path: &RelPath) -> Result<Vec<(String, EntryKind)>, EnvError> {
        let resolved = self.resolve(path)?;
        match &resolved.meta {
            None => return Err(EnvError::NotFound { path: path.clone() }),
            Some(meta) if !meta.is_dir() => return Err(EnvError::NotADirectory { path: path.clone() }),
            Some(_) => {}
        }
        let mut out = Vec::new();
        for entry in fs::read_dir(&resolved.real).map_err(|e| Self::io(path, &e))? {
            let entry = entry.map_err(|e| Self::io(path, &e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let kind = match entry.file_type() {
                // A link is what it leads to, when that is inside; else something else.
                Ok(t) if t.is_symlink() => match fs::canonicalize(entry.path()) {
                    Ok(target) if target.starts_with(&self.root) => {
                        fs::metadata(&target).map_or(EntryKind::Other, |m| kind_of(&m))
                    }
                    _ => EntryKind::Other,
                },
                Ok(t) if t.is_dir() => EntryKind::Dir,
                Ok(t) if t.is_file() => EntryKind::File,
                _ => EntryKind::Other,
            };
            out.push((name, kind));
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }

    fn walk(&self, dir: &RelPath, hidden: bool) -> Result<Vec<(RelPath, EntryKind)>, EnvError> {
        match self.resolve(dir)?.meta {
            None => return Err(EnvError::NotFound { path: dir.clone() }),
            Some(meta) if !meta.is_dir() => return Err(EnvError::NotADirectory { path: dir.clone() }),
            Some(_) => {}
        }
        // From the root, so that ignore files above `dir` count; directories off the way to
        // `dir` are pruned at once.
        let root = self.root.clone();
        let wanted = dir.clone();
        let walker = ignore::WalkBuilder::new(&self.root)
            .standard_filters(false)
            .git_ignore(true)
            .ignore(true)
            .require_git(false)
            .parents(false)
            .follow_links(false)
            .filter_entry(move |entry| {
                let Some(rel) = relative(&root, entry.path()) else { return false };
                let name = entry.file_name().to_string_lossy();
                entry.depth() == 0
                    || (!crate::env::walk_skips(&name, hidden)
                        && (rel.starts_with(&wanted) || wanted.starts_with(&rel)))
            })
            .build();
        let mut out = Vec::new();
        for entry in walker.flatten() {
            let Some(rel) = relative(&self.root, entry.path()) else { continue };
            if rel == *dir || !rel.starts_with(dir) {
                continue;
            }
            let kind = match entry.file_type() {
                Some(t) if t.is_dir() => EntryKind::Dir,
                Some(t) if t.is_file() => EntryKind::File,
                Some(t) if t.is_symlink() => match fs::canonicalize(entry.path()) {
                    Ok(target) if target.starts_with(&self.root) => {
                        fs::metadata(&target).map_or(EntryKind::Other, |m| kind_of(&m))
                    }
                    _ => EntryKind::Other,
                },
                _ => EntryKind::Other,
            };
            out.push((rel, kind));
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }
}

/// `path` (under `root`) as a [`RelPath`]; `None` for names that are not UTF-8 or not plain.
fn relative(root: &Path, path: &Path) -> Option<RelPath> {
    let rest = path.strip_prefix(root).ok()?;
    let text = rest.to_str()?;
    RelPath::parse(&text.replace(std::path::MAIN_SEPARATOR, "/")).ok()
}
