//! The file tools on both environments.
#![allow(clippy::unwrap_used, missing_docs)]

use std::sync::Arc;

use serde_json::{Value, json};
use tackle_core::{ToolError, ToolKind};
use tackle_env::{Environment, FileTools, LocalDir, MemoryTree, RelPath};
use tackle_tools::{DynTool, RunContext, ToolContext};

struct Kit {
    env: Arc<dyn Environment>,
    tools: Vec<tackle_tools::FunctionTool>,
    _dir: Option<tempfile::TempDir>,
}

impl Kit {
    fn memory() -> Self {
        let env: Arc<dyn Environment> = Arc::new(MemoryTree::new());
        Kit { tools: FileTools::new(env.clone()).all().unwrap(), env, _dir: None }
    }

    fn local() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let env: Arc<dyn Environment> = Arc::new(LocalDir::new(dir.path()).unwrap());
        Kit { tools: FileTools::new(env.clone()).all().unwrap(), env, _dir: Some(dir) }
    }

    async fn call(&self, name: &str, args: Value) -> Result<String, ToolError> {
        Ok(self.call_full(name, args).await?.content.model_text().into_owned())
    }

    async fn call_full(&self, name: &str, args: Value) -> Result<tackle_core::ToolReturn, ToolError> {
        let tool = self.tools.iter().find(|t| t.definition().name == name).unwrap();
        let Value::Object(args) = args else { panic!("arguments are an object") };
        let ctx = ToolContext::detached(Arc::new(RunContext::new("r")), "c1", name);
        DynTool::call(tool, ctx, args).await
    }

    fn put(&self, path: &str, content: &[u8]) {
        self.env.write(&RelPath::parse(path).unwrap(), content).unwrap();
    }

    fn get(&self, path: &str) -> String {
        String::from_utf8(self.env.read(&RelPath::parse(path).unwrap(), 1 << 30).unwrap().bytes).unwrap()
    }
}

fn feedback(result: Result<String, ToolError>) -> String {
    match result {
        Err(ToolError::Feedback(message)) => message,
        other => panic!("expected a correction request, got {other:?}"),
    }
}

async fn tools_behave(kit: Kit) {
    kit.put("src/lib.rs", b"fn a() {}\nfn b() {}\nfn a2() {}\n");
    // Reading: numbered lines, ranges, the end marked.
    let all = kit.call("read_file", json!({"path": "src/lib.rs"})).await.unwrap();
    assert_eq!(all, "src/lib.rs: lines 1-3 of 3\n     1\tfn a() {}\n     2\tfn b() {}\n     3\tfn a2() {}\n");
    let part = kit.call("read_file", json!({"path": "src/lib.rs", "offset": 2, "limit": 1})).await.unwrap();
    assert_eq!(
        part,
        "src/lib.rs: lines 2-2 of 3\n     2\tfn b() {}\n[1 more lines; continue with offset 3]\n"
    );
    assert!(
        feedback(kit.call("read_file", json!({"path": "src/lib.rs", "offset": 9})).await)
            .contains("past the end")
    );
    assert!(feedback(kit.call("read_file", json!({"path": "../x"})).await).contains("\"../x\""));
    assert!(
        feedback(kit.call("read_file", json!({"path": "nope.rs"})).await).contains("nope.rs does not exist")
    );
    kit.put("logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    assert!(
        kit.call("read_file", json!({"path": "logo.png"})).await.unwrap().contains("binary file (16 bytes)")
    );
    kit.put("latin.txt", b"caf\xe9\n");
    assert_eq!(
        kit.call("read_file", json!({"path": "latin.txt"})).await.unwrap(),
        "latin.txt: lines 1-1 of 1 (read as windows-1252)\n     1\tcafé\n"
    );
    kit.put("utf16.txt", b"\xff\xfeh\0i\0\n\0");
    assert!(
        kit.call("read_file", json!({"path": "utf16.txt"}))
            .await
            .unwrap()
            .contains("(read as UTF-16LE)\n     1\thi\n")
    );

    // Editing: exact, unique, or told precisely what is wrong.
    let ambiguous = feedback(
        kit.call("edit_file", json!({"path": "src/lib.rs", "old_string": "fn a", "new_string": "fn z"}))
            .await,
    );
    assert!(ambiguous.contains("occurs 2 times") && ambiguous.contains("lines 1, 3"), "{ambiguous}");
    let spaced = feedback(
        kit.call("edit_file", json!({"path": "src/lib.rs", "old_string": "fn  b()  {}", "new_string": "x"}))
            .await,
    );
    assert!(spaced.contains("different white space at line 2"), "{spaced}");
    assert!(
        feedback(
            kit.call("edit_file", json!({"path": "src/lib.rs", "old_string": "fn q", "new_string": "x"}))
                .await
        )
        .contains("not found")
    );
    let done = kit
        .call(
            "edit_file",
            json!({"path": "src/lib.rs", "old_string": "fn b() {}", "new_string": "fn b() { a() }"}),
        )
        .await
        .unwrap();
    assert_eq!(done, "Edited src/lib.rs: 1 replacement.");
    assert_eq!(kit.get("src/lib.rs"), "fn a() {}\nfn b() { a() }\nfn a2() {}\n");
    kit.call(
        "edit_file",
        json!({"path": "src/lib.rs", "old_string": "fn a", "new_string": "pub fn a", "replace_all": true}),
    )
    .await
    .unwrap();
    assert_eq!(kit.get("src/lib.rs"), "pub fn a() {}\nfn b() { a() }\npub fn a2() {}\n");

    // Several edits: all or nothing.
    let before = kit.get("src/lib.rs");
    let failed = feedback(
        kit.call(
            "multi_edit",
            json!({"path": "src/lib.rs", "edits": [
                {"old_string": "fn b()", "new_string": "fn c()"},
                {"old_string": "missing", "new_string": "x"}
            ]}),
        )
        .await,
    );
    assert!(failed.starts_with("edit 2 of 2: "), "{failed}");
    assert_eq!(kit.get("src/lib.rs"), before);
    let both = kit
        .call(
            "multi_edit",
            json!({"path": "src/lib.rs", "edits": [
                {"old_string": "fn b()", "new_string": "fn c()"},
                {"old_string": "fn c() { a() }", "new_string": "fn c() { a2() }"}
            ]}),
        )
        .await
        .unwrap();
    assert_eq!(both, "Edited src/lib.rs: 2 replacements in 2 edits.");
    assert_eq!(kit.get("src/lib.rs"), "pub fn a() {}\nfn c() { a2() }\npub fn a2() {}\n");

    // Writing and listing; each write and edit leaves the host the diff it made.
    let created =
        kit.call_full("write_file", json!({"path": "docs/new.md", "content": "# new\n"})).await.unwrap();
    assert_eq!(created.content.model_text(), "Created docs/new.md (6 bytes).");
    assert_eq!(
        created.private_metadata,
        Some(
            json!({"path": "docs/new.md", "diff": "--- a/docs/new.md\n+++ b/docs/new.md\n@@ -0,0 +1 @@\n+# new\n"})
        )
    );
    let replaced =
        kit.call_full("write_file", json!({"path": "docs/new.md", "content": "# newer\n"})).await.unwrap();
    assert_eq!(replaced.content.model_text(), "Replaced docs/new.md (8 bytes).");
    let diff = replaced.private_metadata.unwrap()["diff"].as_str().unwrap().to_owned();
    assert!(diff.ends_with("@@ -1 +1 @@\n-# new\n+# newer\n"), "{diff}");
    let edited = kit
        .call_full(
            "edit_file",
            json!({"path": "src/lib.rs", "old_string": "fn c() { a2() }", "new_string": "fn c() {}"}),
        )
        .await
        .unwrap();
    let diff = edited.private_metadata.unwrap()["diff"].as_str().unwrap().to_owned();
    assert_eq!(
        diff,
        "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -1,3 +1,3 @@\n pub fn a() {}\n-fn c() { a2() }\n+fn c() {}\n pub fn a2() {}\n"
    );
    kit.put(".agents/skills/deploy/SKILL.md", b"---\nname: deploy\n---\n");
    let listing = kit.call("list_dir", json!({})).await.unwrap();
    assert_eq!(listing, ".: 6 entries\n.agents/\ndocs/\nsrc/\nlatin.txt\nlogo.png\nutf16.txt\n");
    let skill = kit.call("list_dir", json!({"path": ".agents/skills/deploy"})).await.unwrap();
    assert!(skill.contains("SKILL.md\n") && skill.contains("holds a skill"), "{skill}");
}

#[tokio::test]
async fn the_tools_behave_in_memory() {
    tools_behave(Kit::memory()).await;
}

#[tokio::test]
async fn the_tools_behave_on_disk() {
    tools_behave(Kit::local()).await;
}

#[tokio::test]
async fn writes_need_approval_and_reads_are_untrusted() {
    let kit = Kit::memory();
    let definition =
        |name: &str| kit.tools.iter().find(|t| t.definition().name == name).unwrap().definition().clone();
    for name in ["write_file", "edit_file", "multi_edit"] {
        assert_eq!(definition(name).kind, ToolKind::ApprovalRequired, "{name}");
    }
    for name in ["read_file", "list_dir"] {
        assert_ne!(definition(name).kind, ToolKind::ApprovalRequired, "{name}");
    }
    assert!(definition("read_file").returns_untrusted_content);
}

#[tokio::test]
async fn a_long_file_is_cut_with_a_marker_and_a_huge_one_within_the_scan() {
    let kit = Kit::local();
    let line = "x".repeat(99);
    let text: String = (0..3000).map(|_| format!("{line}\n")).collect();
    kit.put("long.txt", text.as_bytes());
    let out = kit.call("read_file", json!({"path": "long.txt", "limit": 3000})).await.unwrap();
    assert!(out.len() <= tackle_env::READ_OUTPUT_CHARS + 200, "{}", out.len());
    assert!(
        out.contains("[output cut at 100000 characters; continue with offset "),
        "{}",
        &out[out.len() - 200..]
    );
    // 20 MiB: read within the scan limit, and said so.
    let big = vec![b'a'; 20 << 20];
    kit.put("big.txt", &big);
    let out = kit.call("read_file", json!({"path": "big.txt"})).await.unwrap();
    assert!(out.starts_with("big.txt: lines 1-1 of 1+"), "{}", &out[..60]);
    assert!(
        out.contains("[line 1 is 8388608 bytes long; only its first 100000 are shown]"),
        "{}",
        &out[out.len() - 120..]
    );
    assert!(out.len() < tackle_env::READ_OUTPUT_CHARS + 300);
}

#[test]
fn a_long_diff_is_cut_with_a_count() {
    let diff = tackle_env::unified_diff("f.txt", "", &"line\n".repeat(10), 5);
    assert_eq!(diff, "--- a/f.txt\n+++ b/f.txt\n@@ -0,0 +1,10 @@\n+line\n+line\n... 8 more diff lines\n");
}
