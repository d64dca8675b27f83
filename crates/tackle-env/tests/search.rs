//! `walk`, `glob` and `grep` on both environments, with ripgrep's rules.
#![allow(clippy::unwrap_used, missing_docs)]

use std::sync::Arc;

use serde_json::{Value, json};
use tackle_core::ToolError;
use tackle_env::{EntryKind, Environment, LocalDir, MemoryTree, RelPath, SearchTools};
use tackle_tools::{DynTool, RunContext, ToolContext};

fn p(text: &str) -> RelPath {
    RelPath::parse(text).unwrap()
}

/// A small project: sources, an ignored build directory, hidden files, skills.
fn fill(env: &dyn Environment) {
    for (path, content) in [
        ("Cargo.toml", "[package]\nname = \"demo\"\n"),
        (".gitignore", "target/\n*.log\n!keep.log\n"),
        ("src/main.rs", "fn main() {\n    println!(\"hello\");\n}\n"),
        ("src/lib.rs", "pub fn hello() -> &'static str {\n    \"Hello\"\n}\n"),
        ("src/deep/mod.rs", "// TODO: hello again\n"),
        ("target/debug/out.rs", "fn hello() {}\n"),
        ("run.log", "hello from the log\n"),
        ("keep.log", "hello kept\n"),
        (".env", "SECRET_HELLO=1\n"),
        (".agents/skills/deploy/SKILL.md", "---\nname: deploy\n---\nSay hello.\n"),
        ("docs/.ignore", "draft.md\n"),
        ("docs/draft.md", "hello draft\n"),
        ("docs/guide.md", "# Guide\nhello guide\n"),
        ("assets/logo.bin", "\0\0hello\0"),
    ] {
        env.write(&p(path), content.as_bytes()).unwrap();
    }
}

async fn call(env: Arc<dyn Environment>, name: &str, args: Value) -> Result<String, ToolError> {
    let tools = SearchTools::new(env).all().unwrap();
    let tool = tools.iter().find(|t| t.definition().name == name).unwrap();
    let Value::Object(args) = args else { panic!("an object") };
    let ctx = ToolContext::detached(Arc::new(RunContext::new("r")), "c1", name);
    Ok(DynTool::call(tool, ctx, args).await?.content.model_text().into_owned())
}

async fn behaves(env: Arc<dyn Environment>) {
    fill(env.as_ref());
    let files: Vec<String> = env
        .walk(&RelPath::root(), false)
        .unwrap()
        .into_iter()
        .filter(|(_, k)| *k == EntryKind::File)
        .map(|(p, _)| p.to_string())
        .collect();
    assert_eq!(
        files,
        [
            ".agents/skills/deploy/SKILL.md",
            "Cargo.toml",
            "assets/logo.bin",
            "docs/guide.md",
            "keep.log",
            "src/deep/mod.rs",
            "src/lib.rs",
            "src/main.rs",
        ]
    );
    let with_hidden = env.walk(&RelPath::root(), true).unwrap();
    assert!(with_hidden.iter().any(|(p, _)| p.as_str() == ".env"));
    assert!(with_hidden.iter().any(|(p, _)| p.as_str() == ".gitignore"));
    assert!(!with_hidden.iter().any(|(p, _)| p.as_str().starts_with("target")));
    // A walk from a subdirectory keeps the root's rules.
    let sub: Vec<String> =
        env.walk(&p("src"), false).unwrap().into_iter().map(|(p, _)| p.to_string()).collect();
    assert_eq!(sub, ["src/deep", "src/deep/mod.rs", "src/lib.rs", "src/main.rs"]);

    // glob: by name anywhere, or by path.
    let rs = call(env.clone(), "glob", json!({"pattern": "*.rs"})).await.unwrap();
    assert_eq!(rs, "3 files match \"*.rs\" in .\nsrc/deep/mod.rs\nsrc/lib.rs\nsrc/main.rs\n");
    let top = call(env.clone(), "glob", json!({"pattern": "src/*.rs"})).await.unwrap();
    assert_eq!(top, "2 files match \"src/*.rs\" in .\nsrc/lib.rs\nsrc/main.rs\n");
    let under = call(env.clone(), "glob", json!({"pattern": "**/*.md", "path": "docs"})).await.unwrap();
    assert_eq!(under, "1 files match \"**/*.md\" in docs\ndocs/guide.md\n");
    assert!(matches!(
        call(env.clone(), "glob", json!({"pattern": "a[b"})).await,
        Err(ToolError::Feedback(_))
    ));

    // grep: lines, files, counts; ignored, hidden and binary files stay out.
    let lines = call(env.clone(), "grep", json!({"pattern": "hello"})).await.unwrap();
    assert_eq!(
        lines,
        "6 matching lines in 6 files (8 searched)\n.agents/skills/deploy/SKILL.md:4:Say hello.\ndocs/guide.md:2:hello guide\nkeep.log:1:hello kept\nsrc/deep/mod.rs:1:// TODO: hello again\nsrc/lib.rs:1:pub fn hello() -> &'static str {\nsrc/main.rs:2:    println!(\"hello\");\n"
    );
    let insensitive = call(
        env.clone(),
        "grep",
        json!({"pattern": "^\\s+\"hello\"$", "case_insensitive": true, "output_mode": "files_with_matches"}),
    )
    .await
    .unwrap();
    assert_eq!(insensitive, "1 matching lines in 1 files (8 searched)\nsrc/lib.rs\n");
    let counts =
        call(env.clone(), "grep", json!({"pattern": "hello", "glob": "*.rs", "output_mode": "count"}))
            .await
            .unwrap();
    assert_eq!(
        counts,
        "3 matching lines in 3 files (3 searched)\nsrc/deep/mod.rs:1\nsrc/lib.rs:1\nsrc/main.rs:1\n"
    );
    let one = call(env.clone(), "grep", json!({"pattern": "name", "path": "Cargo.toml"})).await.unwrap();
    assert_eq!(one, "1 matching lines in 1 files (1 searched)\nCargo.toml:2:name = \"demo\"\n");
    let bad = call(env.clone(), "grep", json!({"pattern": "fn ("})).await;
    assert!(matches!(bad, Err(ToolError::Feedback(m)) if m.contains("not a valid regular expression")));
    assert!(matches!(
        call(env.clone(), "grep", json!({"pattern": "x", "path": "../"})).await,
        Err(ToolError::Feedback(_))
    ));
}

#[tokio::test]
async fn search_in_memory() {
    behaves(Arc::new(MemoryTree::new())).await;
}

#[tokio::test]
async fn search_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    behaves(Arc::new(LocalDir::new(dir.path()).unwrap())).await;
}

#[cfg(unix)]
#[tokio::test]
async fn a_walk_on_disk_does_not_follow_links_out() {
    let base = tempfile::tempdir().unwrap();
    let (root, outside) = (base.path().join("root"), base.path().join("outside"));
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret.txt"), "hello secret").unwrap();
    std::fs::write(root.join("a.txt"), "hello").unwrap();
    std::os::unix::fs::symlink(&outside, root.join("out")).unwrap();
    let env: Arc<dyn Environment> = Arc::new(LocalDir::new(&root).unwrap());
    let out = call(env, "grep", json!({"pattern": "hello"})).await.unwrap();
    assert_eq!(out, "1 matching lines in 1 files (1 searched)\na.txt:1:hello\n");
}
