//! Skills: `SKILL.md` files under `.agents/skills/<name>/` or `skills/<name>/` of the project
//! root and of the user's configuration directory, each a name and a description in
//! frontmatter and instructions below it. The `load_skill` tool lists them all in its
//! definition and returns one's instructions (and its other files) when the model asks.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use tackle_core::ToolError;
use tackle_tools::{FunctionTool, ToolBuildError, ToolContext, typed_tool};

use crate::{EntryKind, Environment, RelPath};

/// Where a skill was found; the project's win over the user's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Scope {
    /// The project root.
    Project,
    /// The user's configuration directory.
    User,
}

/// One skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skill {
    /// Its name, from the frontmatter.
    pub name: String,
    /// When to use it, from the frontmatter.
    pub description: String,
    /// Where it was found.
    pub scope: Scope,
    /// Its directory in that scope's environment.
    pub dir: RelPath,
    /// The instructions below the frontmatter.
    pub body: String,
    /// Its other files, relative to its directory.
    pub files: Vec<String>,
}

/// What discovery found, and what it had to say about it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkillSet {
    /// The skills by name.
    pub skills: BTreeMap<String, Skill>,
    /// Problems: malformed files, duplicates, skills a project one shadows.
    pub diagnostics: Vec<String>,
}

/// What changed between two discoveries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkillChanges {
    /// New names.
    pub added: Vec<String>,
    /// Names gone.
    pub removed: Vec<String>,
    /// Names whose description, body or files changed.
    pub changed: Vec<String>,
}

/// The directories skills live in, under a scope's root.
const PLACES: [&str; 2] = [".agents/skills", "skills"];
/// The largest `SKILL.md` read.
const MAX_SKILL_BYTES: u64 = 256 * 1024;

/// Splits `text` into its frontmatter's `name` and `description` and the body.
fn parse(text: &str) -> Result<(String, String, String), String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(rest) = text.strip_prefix("---\n").or_else(|| text.strip_prefix("---\r\n")) else {
        return Err("it does not start with a '---' frontmatter line".into());
    };
    let Some(end) = rest.find("\n---").map(|i| i + 1).or_else(|| rest.starts_with("---").then_some(0)) else {
        return Err("its frontmatter has no closing '---' line".into());
    };
    let (front, body) = (&rest[..end], &rest[end + 3..]);
    let body = body.strip_prefix('\n').or_else(|| body.strip_prefix("\r\n")).unwrap_or(body);
    let mut fields: BTreeMap<String, String> = BTreeMap::new();
    let mut lines = front.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') || line.starts_with([' ', '\t']) {
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            return Err(format!("its frontmatter line {line:?} is not 'key: value'"));
        };
        let mut value = value.trim().to_owned();
        // A block (`|` or `>`): the indented lines that follow, joined.
        if value == "|" || value == ">" || value == "|-" || value == ">-" {
            let mut block = Vec::new();
            while let Some(next) = lines.peek().filter(|l| l.starts_with([' ', '\t']) || l.trim().is_empty())
            {
                block.push(next.trim().to_owned());
                lines.next();
            }
            value = block.join(if value.starts_with('|') { "\n" } else { " " }).trim().to_owned();
        } else if value.len() >= 2
            && ((value.starts_with('"') && value.ends_with('"'))
                || (value.starts_with('\'') && value.ends_with('\'')))
        {
            value = value[1..value.len() - 1].to_owned();
        }
        fields.insert(key.trim().to_owned(), value);
    }
    let field = |name: &str| {
        fields
            .get(name)
            .filter(|v| !v.is_empty())
            .cloned()
            .ok_or_else(|| format!("its frontmatter has no '{name}'"))
    };
    Ok((field("name")?, field("description")?, body.to_owned()))
}

/// Finds the skills of `scopes` (each an environment and its scope).
pub fn discover(scopes: &[(Scope, &dyn Environment)]) -> SkillSet {
    let mut set = SkillSet::default();
    let mut sorted: Vec<&(Scope, &dyn Environment)> = scopes.iter().collect();
    sorted.sort_by_key(|(scope, _)| *scope);
    for (scope, env) in sorted {
        for place in PLACES {
            let Ok(place) = RelPath::parse(place) else { continue };
            let Ok(entries) = env.list(&place) else { continue };
            for (dir_name, kind) in entries {
                if kind != EntryKind::Dir {
                    continue;
                }
                let Ok(dir) = place.join(&dir_name) else { continue };
                let Ok(file) = dir.join("SKILL.md") else { continue };
                let Ok(data) = env.read(&file, MAX_SKILL_BYTES) else { continue };
                let where_ = format!("{}{file}", if *scope == Scope::User { "~config/" } else { "" });
                if data.truncated() {
                    set.diagnostics.push(format!("{where_}: larger than 256 KiB; skipped"));
                    continue;
                }
                let (name, description, body) = match parse(&String::from_utf8_lossy(&data.bytes)) {
                    Ok(parsed) => parsed,
                    Err(reason) => {
                        set.diagnostics.push(format!("{where_}: {reason}; skipped"));
                        continue;
                    }
                };
                if let Some(existing) = set.skills.get(&name) {
                    let note = if existing.scope == *scope {
                        format!(
                            "{where_}: a second skill named {name:?} (the first, in {}, is kept)",
                            existing.dir
                        )
                    } else {
                        format!("{where_}: the project's skill {name:?} in {} is used instead", existing.dir)
                    };
                    set.diagnostics.push(note);
                    continue;
                }
                let mut files: Vec<String> = env
                    .walk(&dir, true)
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|(p, k)| *k == EntryKind::File && *p != file)
                    .map(|(p, _)| p.as_str()[dir.as_str().len() + 1..].to_owned())
                    .collect();
                files.sort();
                set.skills.insert(name.clone(), Skill { name, description, scope: *scope, dir, body, files });
            }
        }
    }
    set
}

impl SkillSet {
    /// What changed from `before` to `self`.
    pub fn changes_since(&self, before: &SkillSet) -> SkillChanges {
        let mut changes = SkillChanges::default();
        for (name, skill) in &self.skills {
            match before.skills.get(name) {
                None => changes.added.push(name.clone()),
                Some(old) if old != skill => changes.changed.push(name.clone()),
                Some(_) => {}
            }
        }
        changes.removed = before.skills.keys().filter(|n| !self.skills.contains_key(*n)).cloned().collect();
        changes
    }

    /// The `load_skill` tool, its description listing every skill; `None` when there are none.
    pub fn load_skill(&self) -> Option<Result<FunctionTool, ToolBuildError>> {
        if self.skills.is_empty() {
            return None;
        }
        let skills = Arc::new(self.clone());
        Some(
            typed_tool("load_skill", self.describe(), move |_ctx: ToolContext, args: LoadArgs| {
                let skills = Arc::clone(&skills);
                async move { skills.load(&args.name) }
            })
            .returns_untrusted_content()
            .idempotent()
            .build(),
        )
    }

    /// `load_skill`'s description: what it does and every skill's name and description.
    fn describe(&self) -> String {
        let mut description =
            "Load a skill: instructions for a kind of task, and the files that come with it. Load one when the task matches its description. Skills:\n".to_owned();
        for skill in self.skills.values() {
            let _ = writeln!(description, "- {}: {}", skill.name, skill.description);
        }
        description
    }

    /// Skill `name`'s instructions and the list of its other files.
    fn load(&self, name: &str) -> Result<String, ToolError> {
        let Some(skill) = self.skills.get(name) else {
            let names: Vec<&str> = self.skills.keys().map(String::as_str).collect();
            return Err(ToolError::feedback(if names.is_empty() {
                format!("there is no skill {name:?}; there are no skills now")
            } else {
                format!("there is no skill {name:?}; the skills are: {}", names.join(", "))
            }));
        };
        let mut out = format!("# Skill: {}\n\n{}", skill.name, skill.body);
        if !out.ends_with('\n') {
            out.push('\n');
        }
        if !skill.files.is_empty() {
            let _ = writeln!(out, "\nFiles of this skill (under {}):", skill.dir);
            for file in &skill.files {
                let _ = writeln!(out, "- {file}");
            }
        }
        Ok(out)
    }
}

impl SkillChanges {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}

impl std::fmt::Display for SkillChanges {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = Vec::new();
        for (what, names) in [("added", &self.added), ("removed", &self.removed), ("changed", &self.changed)]
        {
            if !names.is_empty() {
                parts.push(format!("{what} {}", names.join(", ")));
            }
        }
        if parts.is_empty() {
            return f.write_str("no changes");
        }
        f.write_str(&parts.join("; "))
    }
}

/// Skills that are found again on request: the scopes they live in and the latest
/// discovery. The `load_skill` tool made from it describes and loads the skills of the
/// latest [`Skills::reload`] (its definition is prepared per run), and is not offered while
/// there are none. Clones share the skills.
#[derive(Clone)]
pub struct Skills {
    scopes: Arc<Vec<(Scope, Arc<dyn Environment>)>>,
    current: Arc<std::sync::RwLock<Arc<SkillSet>>>,
}

impl std::fmt::Debug for Skills {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Skills").field("skills", &self.current().skills.len()).finish_non_exhaustive()
    }
}

impl Skills {
    /// Discovers the skills of `scopes`.
    pub fn discover(scopes: Vec<(Scope, Arc<dyn Environment>)>) -> Self {
        let set = Self::find(&scopes);
        Skills { scopes: Arc::new(scopes), current: Arc::new(std::sync::RwLock::new(Arc::new(set))) }
    }

    fn find(scopes: &[(Scope, Arc<dyn Environment>)]) -> SkillSet {
        let borrowed: Vec<(Scope, &dyn Environment)> = scopes.iter().map(|(s, e)| (*s, e.as_ref())).collect();
        discover(&borrowed)
    }

    /// The latest discovery.
    pub fn current(&self) -> Arc<SkillSet> {
        Arc::clone(&self.current.read().unwrap_or_else(std::sync::PoisonError::into_inner))
    }

    /// Finds the skills again; what changed, and the new set (with its diagnostics).
    pub fn reload(&self) -> (SkillChanges, Arc<SkillSet>) {
        let fresh = Arc::new(Self::find(&self.scopes));
        let mut current = self.current.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        let changes = fresh.changes_since(&current);
        *current = Arc::clone(&fresh);
        (changes, fresh)
    }

    /// The `load_skill` tool over the latest discovery.
    pub fn tool(&self) -> Result<FunctionTool, ToolBuildError> {
        let (for_calls, for_runs) = (self.clone(), self.clone());
        typed_tool("load_skill", self.current().describe(), move |_ctx: ToolContext, args: LoadArgs| {
            let skills = for_calls.current();
            async move { skills.load(&args.name) }
        })
        .prepare(move |_run, definition| {
            let set = for_runs.current();
            if set.skills.is_empty() {
                return None;
            }
            let mut prepared = definition.clone();
            prepared.description = set.describe();
            Some(prepared)
        })
        .returns_untrusted_content()
        .idempotent()
        .build()
    }
}

#[derive(Deserialize, JsonSchema)]
struct LoadArgs {
    /// The skill's name, as listed.
    name: String,
}
