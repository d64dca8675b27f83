//! Skills: discovery in both scopes, precedence, diagnostics, reloads and `load_skill`.
#![allow(clippy::unwrap_used, missing_docs)]

use std::sync::Arc;

use serde_json::json;
use tackle_core::ToolError;
use tackle_env::{Environment, MemoryTree, RelPath, Scope, discover};
use tackle_tools::{DynTool, RunContext, ToolContext};

fn project() -> MemoryTree {
    MemoryTree::new()
        .with_file(".agents/skills/deploy/SKILL.md", "---\nname: deploy\ndescription: Ship the app to staging or production.\n---\n1. Run the tests.\n2. Tag the release.\n")
        .with_file(".agents/skills/deploy/scripts/tag.sh", "git tag \"$1\"\n")
        .with_file("skills/review/SKILL.md", "---\nname: review\ndescription: >\n  Review a pull request\n  for style and bugs.\n---\nRead the diff first.\n")
        .with_file("skills/broken/SKILL.md", "no frontmatter here\n")
        .with_file("skills/nameless/SKILL.md", "---\ndescription: x\n---\nbody\n")
        .with_file("skills/twin/SKILL.md", "---\nname: 'deploy'\ndescription: another deploy\n---\n")
}

fn user() -> MemoryTree {
    MemoryTree::new()
        .with_file(
            "skills/deploy/SKILL.md",
            "---\nname: deploy\ndescription: The user's own deploy.\n---\nuser body\n",
        )
        .with_file(
            "skills/notes/SKILL.md",
            "---\nname: notes\ndescription: \"Keep meeting notes.\"\n---\nWrite them down.\n",
        )
}

#[tokio::test]
async fn skills_are_found_ranked_and_diagnosed() {
    let (project, user) = (project(), user());
    let set = discover(&[(Scope::User, &user as &dyn Environment), (Scope::Project, &project)]);
    let names: Vec<&str> = set.skills.keys().map(String::as_str).collect();
    assert_eq!(names, ["deploy", "notes", "review"]);
    let deploy = &set.skills["deploy"];
    assert_eq!((deploy.scope, deploy.dir.as_str()), (Scope::Project, ".agents/skills/deploy"));
    assert_eq!(deploy.files, ["scripts/tag.sh"]);
    assert_eq!(set.skills["review"].description, "Review a pull request for style and bugs.");
    assert_eq!(set.skills["notes"].description, "Keep meeting notes.");
    let diagnostics = set.diagnostics.join("\n");
    assert!(
        diagnostics.contains("skills/broken/SKILL.md: it does not start with a '---' frontmatter line"),
        "{diagnostics}"
    );
    assert!(diagnostics.contains("skills/nameless/SKILL.md: its frontmatter has no 'name'"), "{diagnostics}");
    assert!(diagnostics.contains("skills/twin/SKILL.md: a second skill named \"deploy\""), "{diagnostics}");
    assert!(
        diagnostics.contains("~config/skills/deploy/SKILL.md: the project's skill \"deploy\""),
        "{diagnostics}"
    );

    // The tool lists them all and loads one.
    let tool = set.load_skill().unwrap().unwrap();
    let definition = tool.definition().clone();
    assert!(definition.description.contains("- deploy: Ship the app to staging or production."));
    assert!(definition.description.contains("- notes: Keep meeting notes."));
    let call = |name: &str| {
        let tool = tool.clone();
        let args = json!({"name": name});
        async move {
            let serde_json::Value::Object(args) = args else { unreachable!() };
            let ctx = ToolContext::detached(Arc::new(RunContext::new("r")), "c1", "load_skill");
            DynTool::call(&tool, ctx, args).await.map(|r| r.content.model_text().into_owned())
        }
    };
    assert_eq!(
        call("deploy").await.unwrap(),
        "# Skill: deploy\n\n1. Run the tests.\n2. Tag the release.\n\nFiles of this skill (under .agents/skills/deploy):\n- scripts/tag.sh\n"
    );
    assert!(matches!(call("nope").await, Err(ToolError::Feedback(m)) if m.contains("deploy, notes, review")));
    assert!(discover(&[(Scope::Project, &MemoryTree::new() as &dyn Environment)]).load_skill().is_none());
}

#[test]
fn a_reload_says_what_changed() {
    let project = project();
    let before = discover(&[(Scope::Project, &project as &dyn Environment)]);
    let p = |t: &str| RelPath::parse(t).unwrap();
    project
        .write(&p("skills/review/SKILL.md"), b"---\nname: review\ndescription: Review carefully.\n---\n")
        .unwrap();
    project.write(&p("skills/lint/SKILL.md"), b"---\nname: lint\ndescription: Lint it.\n---\n").unwrap();
    let after = discover(&[(Scope::Project, &project as &dyn Environment)]);
    let changes = after.changes_since(&before);
    assert_eq!(
        (changes.added, changes.changed, changes.removed),
        (vec!["lint".to_owned()], vec!["review".to_owned()], vec![])
    );
    let gone = discover(&[(Scope::Project, &MemoryTree::new() as &dyn Environment)]).changes_since(&after);
    assert_eq!(gone.removed, ["deploy", "lint", "review"]);
}

#[test]
fn a_directory_on_disk_finds_the_same_skills() {
    let dir = tempfile::tempdir().unwrap();
    let disk = tackle_env::LocalDir::new(dir.path()).unwrap();
    let memory = project();
    for (path, kind) in memory.walk(&RelPath::root(), true).unwrap() {
        if kind == tackle_env::EntryKind::File {
            disk.write(&path, &memory.read(&path, 1 << 20).unwrap().bytes).unwrap();
        }
    }
    let on_disk = discover(&[(Scope::Project, &disk as &dyn Environment)]);
    let in_memory = discover(&[(Scope::Project, &memory as &dyn Environment)]);
    assert_eq!(on_disk, in_memory);
    assert_eq!(on_disk.skills.len(), 2);
}

/// A live skill set on disk: `load_skill` is offered only while skills exist, its definition
/// follows each reload, and a reload says what it added, removed and changed.
#[tokio::test]
async fn reloads_change_what_load_skill_offers() {
    let dir = tempfile::tempdir().unwrap();
    let env: Arc<dyn Environment> = Arc::new(tackle_env::LocalDir::new(dir.path()).unwrap());
    let skills = tackle_env::Skills::discover(vec![(Scope::Project, env.clone())]);
    let registry = tackle_tools::ToolRegistry::builder().tool(skills.tool().unwrap()).build().unwrap();
    let run = RunContext::new("r");
    assert_eq!(registry.offer(&run).len(), 0, "no skills, no load_skill");

    let write = |path: &str, text: &str| env.write(&RelPath::parse(path).unwrap(), text.as_bytes()).unwrap();
    write("skills/lint/SKILL.md", "---\nname: lint\ndescription: Run the linters.\n---\ncargo clippy\n");
    write("skills/docs/SKILL.md", "---\nname: docs\ndescription: Write docs.\n---\nBe brief.\n");
    let (changes, _) = skills.reload();
    assert_eq!((changes.added.len(), changes.to_string().as_str()), (2, "added docs, lint"));
    let offer = registry.offer(&run);
    let description = &offer.get("load_skill").unwrap().definition().description;
    assert!(
        description.ends_with("Skills:\n- docs: Write docs.\n- lint: Run the linters.\n"),
        "{description}"
    );

    write(
        "skills/lint/SKILL.md",
        "---\nname: lint\ndescription: Run every linter.\n---\ncargo clippy -- -D warnings\n",
    );
    std::fs::remove_file(dir.path().join("skills/docs/SKILL.md")).unwrap();
    let (changes, set) = skills.reload();
    assert_eq!(changes.to_string(), "removed docs; changed lint");
    assert!(set.diagnostics.is_empty(), "{:?}", set.diagnostics);
    assert_eq!(skills.reload().0.to_string(), "no changes");
    let offer = registry.offer(&run);
    let description = &offer.get("load_skill").unwrap().definition().description;
    assert!(description.ends_with("Skills:\n- lint: Run every linter.\n"), "{description}");
    // Calls load the latest version.
    let tool = skills.tool().unwrap();
    let ctx = ToolContext::detached(Arc::new(run.clone()), "c1", "load_skill");
    let serde_json::Value::Object(args) = json!({"name": "lint"}) else { unreachable!() };
    let loaded = DynTool::call(&tool, ctx, args).await.unwrap();
    assert_eq!(loaded.content.model_text(), "# Skill: lint\n\ncargo clippy -- -D warnings\n");
}
