//! Both environments against the same expectations, and the directory one against links
//! that lead out.
#![allow(clippy::unwrap_used, missing_docs)]

use tackle_env::{EntryKind, EnvError, Environment, LocalDir, MemoryTree, RelPath};

fn p(text: &str) -> RelPath {
    RelPath::parse(text).unwrap()
}

/// What every environment must do, starting from an empty root.
fn behaves(env: &dyn Environment) {
    env.write(&p("src/main.rs"), b"fn main() {}\n").unwrap();
    env.write(&p("README.md"), b"# hello\n").unwrap();
    assert_eq!(env.read(&p("src/main.rs"), 1 << 20).unwrap().bytes, b"fn main() {}\n");
    // A read stops at the limit and says how much there was.
    let cut = env.read(&p("src/main.rs"), 4).unwrap();
    assert_eq!((cut.bytes.as_slice(), cut.len, cut.truncated()), (&b"fn m"[..], 13, true));
    // Writing again replaces; missing directories are made.
    env.write(&p("src/main.rs"), b"fn main() { run() }\n").unwrap();
    env.write(&p("a/b/c/deep.txt"), b"deep").unwrap();
    assert_eq!(env.read(&p("a/b/c/deep.txt"), 100).unwrap().bytes, b"deep");
    assert_eq!(
        env.list(&RelPath::root()).unwrap(),
        [
            ("README.md".to_owned(), EntryKind::File),
            ("a".into(), EntryKind::Dir),
            ("src".into(), EntryKind::Dir)
        ]
    );
    assert_eq!(env.list(&p("a/b")).unwrap(), [("c".to_owned(), EntryKind::Dir)]);
    assert_eq!(env.metadata(&p("src")).unwrap().kind, EntryKind::Dir);
    assert_eq!(env.metadata(&p("src/main.rs")).unwrap().len, 20);
    // Errors name the path and the kind of trouble.
    assert_eq!(env.read(&p("nope.txt"), 10), Err(EnvError::NotFound { path: p("nope.txt") }));
    assert_eq!(env.read(&p("src"), 10), Err(EnvError::NotAFile { path: p("src") }));
    assert!(matches!(env.list(&p("README.md")), Err(EnvError::NotADirectory { .. })));
    assert!(matches!(env.write(&p("README.md/x"), b"x"), Err(EnvError::NotADirectory { .. })));
    assert!(matches!(env.write(&p("src"), b"x"), Err(EnvError::NotAFile { .. })));
    assert!(env.read(&p("nope/deeper.txt"), 10).is_err());
    let message = env.read(&p("nope.txt"), 10).unwrap_err().to_string();
    assert!(message.contains("nope.txt"), "{message}");
}

#[test]
fn the_memory_tree_behaves() {
    behaves(&MemoryTree::new());
    let tree = MemoryTree::new().with_dir("empty").with_file("x/y.txt", "y");
    assert_eq!(tree.list(&p("empty")).unwrap(), []);
    assert_eq!(tree.describe(), "memory");
}

#[test]
fn a_local_directory_behaves() {
    let dir = tempfile::tempdir().unwrap();
    let env = LocalDir::new(dir.path()).unwrap();
    behaves(&env);
    // Nothing is left beside the files: writes go through a temporary file and a rename.
    let names: Vec<_> =
        std::fs::read_dir(dir.path().join("src")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["main.rs"]);
}

#[cfg(unix)]
#[test]
fn a_rewrite_keeps_the_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("run.sh");
    std::fs::write(&script, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o750)).unwrap();
    LocalDir::new(dir.path()).unwrap().write(&p("run.sh"), b"#!/bin/sh\necho hi\n").unwrap();
    assert_eq!(std::fs::metadata(&script).unwrap().permissions().mode() & 0o777, 0o750);
    assert_eq!(std::fs::read_to_string(&script).unwrap(), "#!/bin/sh\necho hi\n");
}

#[cfg(unix)]
mod links {
    use std::os::unix::fs::symlink;
    use std::path::Path;

    use proptest::prelude::*;

    use super::*;

    const SECRET: &[u8] = b"SECRET";
    const INSIDE: &[u8] = b"inside";

    /// `root/` with dirs, files and links, beside `outside/` with a secret.
    fn layout(base: &Path, links: &[(usize, usize)]) -> LocalDir {
        let (root, outside) = (base.join("root"), base.join("outside"));
        std::fs::create_dir_all(outside.join("odir")).unwrap();
        std::fs::write(outside.join("secret.txt"), SECRET).unwrap();
        std::fs::write(outside.join("odir/secret2.txt"), SECRET).unwrap();
        for d in ["d0", "d1/d2"] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        for f in ["f0", "d0/f1", "d1/d2/f2"] {
            std::fs::write(root.join(f), INSIDE).unwrap();
        }
        let targets = [
            "../outside".to_owned(),
            "../outside/secret.txt".to_owned(),
            outside.display().to_string(),
            "d0".into(),
            "f0".into(),
            "..".into(),
            ".".into(),
            "l1".into(),
            "../root/d1".into(),
            "nowhere".into(),
            "d1/../../outside/odir".into(),
            "d0/../f0".into(),
        ];
        let places = ["l0", "l1", "d0/l2", "d1/l3"];
        for (place, target) in links {
            let at = root.join(places[*place % places.len()]);
            let _ = symlink(&targets[*target % targets.len()], at);
        }
        LocalDir::new(&root).unwrap()
    }

    fn outside_untouched(base: &Path) {
        let mut names: Vec<_> =
            std::fs::read_dir(base.join("outside")).unwrap().map(|e| e.unwrap().file_name()).collect();
        names.sort();
        assert_eq!(names, ["odir", "secret.txt"]);
        assert_eq!(std::fs::read(base.join("outside/secret.txt")).unwrap(), SECRET);
        assert_eq!(std::fs::read_dir(base.join("outside/odir")).unwrap().count(), 1);
    }

    #[test]
    fn links_inside_are_followed_and_links_outside_refused() {
        let base = tempfile::tempdir().unwrap();
        // l0 -> ../root/d1 (inside), l1 -> f0, d0/l2 -> outside (absolute), d1/l3 -> ../outside
        // (from d1: a link that leads nowhere).
        let env = layout(base.path(), &[(0, 8), (1, 4), (2, 2), (3, 0)]);
        assert_eq!(env.read(&p("l1"), 100).unwrap().bytes, INSIDE);
        assert!(env.list(&p("l0")).unwrap().contains(&("d2".to_owned(), EntryKind::Dir)));
        assert_eq!(env.read(&p("l0/d2/f2"), 100).unwrap().bytes, INSIDE);
        for out in ["d0/l2/secret.txt", "d0/l2", "d1/l3", "d1/l3/x"] {
            let err = env.read(&p(out), 100).unwrap_err();
            assert!(matches!(err, EnvError::Refused { .. }), "{out}: {err}");
            assert!(err.to_string().contains(out), "{err}");
        }
        assert!(env.write(&p("d0/l2/new.txt"), b"x").is_err());
        assert!(env.write(&p("d0/l2"), b"x").is_err());
        assert!(env.write(&p("d1/l3"), b"x").is_err());
        // The listing shows a link that leads out as something other than a file or a directory.
        assert!(env.list(&p("d0")).unwrap().contains(&("l2".to_owned(), EntryKind::Other)));
        outside_untouched(base.path());
    }

    #[test]
    fn hard_links_are_refused() {
        let base = tempfile::tempdir().unwrap();
        let env = layout(base.path(), &[]);
        std::fs::hard_link(base.path().join("outside/secret.txt"), base.path().join("root/h")).unwrap();
        let err = env.read(&p("h"), 100).unwrap_err();
        assert!(err.to_string().contains("hard links"), "{err}");
        assert!(env.write(&p("h"), b"x").is_err());
        assert_eq!(std::fs::read(base.path().join("outside/secret.txt")).unwrap(), SECRET);
    }

    fn path_text() -> impl Strategy<Value = String> {
        let name = prop::sample::select(vec![
            "d0",
            "d1",
            "d2",
            "f0",
            "f1",
            "l0",
            "l1",
            "l2",
            "l3",
            "odir",
            "secret.txt",
            "new",
        ]);
        prop::collection::vec(name, 1..4).prop_map(|names| names.join("/"))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// Whatever the links and the path: a read returns what is inside or fails, a
        /// listing names nothing of outside, and outside is never written.
        #[test]
        fn nothing_outside_is_read_listed_or_written(
            links in prop::collection::vec((0usize..4, 0usize..12), 0..5),
            paths in prop::collection::vec(path_text(), 1..8),
        ) {
            let base = tempfile::tempdir().unwrap();
            let env = layout(base.path(), &links);
            for text in &paths {
                let path = p(text);
                if let Ok(data) = env.read(&path, 100) {
                    prop_assert_ne!(data.bytes.as_slice(), SECRET, "{} read the secret", text);
                }
                if let Ok(entries) = env.list(&path) {
                    prop_assert!(entries.iter().all(|(n, _)| n != "secret.txt" && n != "secret2.txt" && n != "odir"), "{text}: {entries:?}");
                }
                // Written under names outside never has (no directory of the way named as
                // anything outside), so a listing that shows an outside name can only have
                // looked outside.
                if path.file_name() == Some("new") && path.names().all(|n| n != "odir" && n != "secret.txt") {
                    let _ = env.write(&path, INSIDE);
                }
                outside_untouched(base.path());
            }
        }
    }
}
