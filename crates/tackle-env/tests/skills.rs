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
