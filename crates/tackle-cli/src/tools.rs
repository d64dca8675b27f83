//! The CLI's tools — the built-in web tools, with per-tool approval from the settings —
//! and the `tools` commands.

use std::process::ExitCode;
use std::sync::Arc;

use serde_json::json;
use tackle_core::{Confidence, ToolArguments, ToolCall, ToolKind, ToolReturn, ToolStatus};
use tackle_tools::{ExecutionState, Executor, RunContext, StaticToolset, ToolRegistry, Toolset, ToolsetExt};
use tackle_web::{GuardFilter, Retriever, WebTools};

use crate::cli::ProviderArgs;
use crate::config::Config;
use crate::failure::Failure;
use crate::provider;
use crate::secrets::{Backend, ToolSecrets};

/// The names of the built-in tools: the web tools, and the environment tools offered with
/// `--dir` or `[env] root`.
const BUILT_IN: [&str; 16] = [
    "read_web_page",
    "web_search",
    "read_file",
    "list_dir",
    "write_file",
    "edit_file",
    "multi_edit",
    "glob",
    "grep",
    "run_command",
    "start_command",
    "command_status",
    "write_stdin",
    "signal_command",
    "stop_command",
    "ask_user_question",
];

/// The environment tools over `root`: files, search, commands, and the project's and the
/// user's skills (problems with a skill are warned about on stderr).
fn env_tools(root: &std::path::Path) -> Result<(StaticToolset, tackle_env::Skills), Failure> {
    use tackle_env::{Environment, FileTools, LocalDir, Scope, SearchTools, ShellPolicy, ShellTools, Skills};
    let dir = LocalDir::new(root).map_err(|e| {
        Failure::usage(format!("the directory {} cannot be worked in: {e}", root.display()))
            .hint("--dir and [env] root name an existing directory")
    })?;
    fn built<T>(r: Result<T, tackle_tools::ToolBuildError>) -> Result<T, Failure> {
        r.map_err(|e| Failure::run(format!("a built-in tool is broken: {e}")))
    }
    let env: Arc<dyn Environment> = Arc::new(dir.clone());
    let project = env.clone();
    let mut set = StaticToolset::new("env");
    for tool in
        built(FileTools::new(env.clone()).all())?.into_iter().chain(built(SearchTools::new(env).all())?)
    {
        set = set.tool(tool);
    }
    // Background commands live as long as these tools: for `tackle run` the run, for
    // `tackle chat` the conversation.
    for tool in built(ShellTools::new(&dir, ShellPolicy::default()).all())? {
        set = set.tool(tool);
    }
    set = set.tool(built(tackle_env::ask_user_question())?);
    // The user's skills live beside the settings file, in `skills/`.
    let user = crate::config::default_path()
        .and_then(|p| p.parent().map(std::path::Path::to_path_buf))
        .and_then(|p| LocalDir::new(p).ok());
    let mut scopes: Vec<(Scope, Arc<dyn Environment>)> = vec![(Scope::Project, project)];
    if let Some(user) = user {
        scopes.push((Scope::User, Arc::new(user)));
    }
    // `load_skill` follows reloads (`tackle chat` reloads before each prompt) and is offered
    // only while there are skills.
    let skills = Skills::discover(scopes);
    for problem in &skills.current().diagnostics {
        crate::eprint_line(&format!("warning: skill {problem}"));
    }
    set = set.tool(built(skills.tool())?);
    Ok((set, skills))
}

/// The prompt-injection filter under the settings' `[guard]` policy, for the web tools and
/// the executor alike.
pub(crate) fn filter(config: &Config) -> Result<Arc<GuardFilter>, Failure> {
    Ok(Arc::new(GuardFilter::new(config.guard_policy(&BUILT_IN)?)))
}

/// The executor every command uses: tackle's, with the configured filter.
pub(crate) fn executor(config: &Config) -> Result<Executor, Failure> {
    Ok(Executor::new().untrusted_filter(filter(config)?))
}

/// The registry every command uses.
pub(crate) async fn registry(config: &Config) -> Result<ToolRegistry, Failure> {
    Ok(registry_and_skills(config).await?.0)
}

/// The registry, and the skills its `load_skill` offers when there is an environment.
pub(crate) async fn registry_and_skills(
    config: &Config,
) -> Result<(ToolRegistry, Option<tackle_env::Skills>), Failure> {
    let (registry, skills, _) = live_registry(config).await?;
    Ok((registry, skills))
}

/// The tools as they are now: the fixed ones (web, environment) as they were built once,
/// and each MCP server's from its latest listing, under the same per-tool approval
/// settings. A [`RegistrySource`](tackle_tools::RegistrySource): when a server's listing changes (it announced new tools
/// or dropped some), the registry is built again.
pub(crate) struct LiveTools {
    fixed: Vec<Result<tackle_tools::ToolEntry, tackle_tools::EntryError>>,
    servers: Vec<Arc<tackle_mcp::McpServer>>,
    approval: Vec<String>,
    waived: Vec<String>,
    seen: std::sync::Mutex<Vec<u64>>,
}

impl LiveTools {
    /// The registry of the tools as they are now; with many tools (several MCP servers),
    /// the model searches for the ones it needs.
    fn build(&self) -> Result<ToolRegistry, tackle_tools::RegistryError> {
        let mut builder = ToolRegistry::builder().entries(self.fixed.iter().cloned());
        for server in &self.servers {
            let set = tackle_mcp::McpToolset::current(Arc::clone(server));
            builder = builder.toolset(per_tool_approval(set, &self.approval, &self.waived));
        }
        let options = tackle_tools::SearchOptions::default();
        let registry = builder.build()?;
        if registry.len() <= options.threshold {
            return Ok(registry);
        }
        // The embedder is loaded the first time a catalog needs search, once per process.
        registry.with_tool_search_by(options, crate::local::embedder())
    }

    fn revisions(&self) -> Vec<u64> {
        self.servers.iter().map(|server| server.revision()).collect()
    }
}

/// `set` under the settings' per-tool approval: tools named in `approval` ask first, tools
/// named in `waived` do not.
fn per_tool_approval(set: impl Toolset, approval: &[String], waived: &[String]) -> impl Toolset {
    let (approval, waived) = (approval.to_vec(), waived.to_vec());
    set.approval_required_if(move |definition| approval.contains(&definition.name))
        .approval_waived_if(move |definition| waived.contains(&definition.name))
}

impl tackle_tools::RegistrySource for LiveTools {
    fn refreshed(&self) -> Option<ToolRegistry> {
        let now = self.revisions();
        {
            let mut seen = self.seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if *seen == now {
                return None;
            }
            *seen = now;
        }
        match self.build() {
            Ok(registry) => Some(registry),
            Err(e) => {
                tracing::warn!(
                    "the MCP servers' new tools do not fit with the others, kept as they were: {e}"
                );
                None
            }
        }
    }
}

/// The registry, the skills, and the live tools it was built from (for a harness or a
/// server that follows the MCP servers' changes).
pub(crate) async fn live_registry(
    config: &Config,
) -> Result<(ToolRegistry, Option<tackle_env::Skills>, Arc<LiveTools>), Failure> {
    let web = WebTools::new(Retriever::new()).filter(filter(config)?);
    let built = |r: Result<_, tackle_tools::ToolBuildError>| {
        r.map_err(|e| Failure::run(format!("a built-in tool is broken: {e}")))
    };
    let costs = config.tool_costs()?;
    let set = StaticToolset::new("web")
        .tool(built(web.read_web_page())?)
        .tool(built(web.web_search())?)
        .priced(move |definition| costs.get(&definition.name).copied());
    let approval = config.approval_required()?;
    let waived = config.approval_waived();
    // The web tools under the same per-tool settings as every other set (neither asks for
    // approval by itself today, so only `approval = true` changes them).
    let mut fixed = per_tool_approval(set, &approval, &waived).entries();
    let skills = match &config.env_root {
        None => None,
        Some(root) => {
            let (set, skills) = env_tools(root)?;
            fixed.extend(per_tool_approval(set, &approval, &waived).entries());
            Some(skills)
        }
    };
    let servers = crate::mcp::toolsets(config).await?.iter().map(|t| Arc::clone(t.server())).collect();
    let live = LiveTools { fixed, servers, approval, waived, seen: std::sync::Mutex::default() };
    *live.seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = live.revisions();
    let registry = live.build().map_err(|e| Failure::run(format!("the tools do not fit together: {e}")))?;
    let mut known: Vec<&str> = registry.definitions().map(|d| d.name.as_str()).collect();
    for name in BUILT_IN {
        if !known.contains(&name) {
            known.push(name);
        }
    }
    for tool in config.file.tools.keys() {
        // An MCP server that is down today does not make its tools' settings wrong.
        if !known.contains(&tool.as_str()) && !crate::mcp::may_be_mcp_tool(config, tool) {
            return Err(Failure::usage(format!("the settings file configures an unknown tool {tool:?}"))
                .hint(format!("tools: {}", known.join(", "))));
        }
    }
    Ok((registry, skills, Arc::new(live)))
}

/// The run context: the provider's confidence (medium when no provider is configured)
/// and the tool settings.
pub(crate) fn run_context(
    run_id: &str,
    confidence: Option<Confidence>,
    config: &Config,
) -> Result<RunContext, Failure> {
    let secrets = Arc::new(ToolSecrets(Backend::chosen(config)?));
    Ok(RunContext::new(run_id)
        .confidence(confidence.unwrap_or(Confidence::Medium))
        .settings(config.tool_settings()?.secrets(secrets)))
}

/// The run context for listing and calling tools as the chosen provider's model would
/// meet them: its confidence, and whether it declares tool support.
fn context_for(run_id: &str, flags: &ProviderArgs, config: &Config) -> Result<RunContext, Failure> {
    let chosen = provider::choose(flags, config)?;
    let mut run = run_context(run_id, chosen.as_ref().map(|c| c.confidence), config)?;
    if let Some(tools) = chosen.and_then(|c| c.capabilities.tools) {
        run.model_supports_tools = tools;
    }
    Ok(run)
}

/// `tackle tools list`.
pub(crate) async fn list(flags: &ProviderArgs, json: bool, config: &Config) -> Result<ExitCode, Failure> {
    let registry = registry(config).await?;
    let run = context_for("tools-list", flags, config)?;
    let report = registry.availability(&run);
    let mut lines = Vec::new();
    for definition in registry.definitions() {
        let not_offered = report.not_offered().find(|(name, _)| *name == definition.name).map(|(_, why)| why);
        let server = definition.tags.iter().find_map(|t| t.strip_prefix("mcp:"));
        if json {
            lines.push(
                json!({
                    "name": definition.name,
                    "description": definition.description,
                    "offered": not_offered.is_none(),
                    "reason": not_offered.map(ToString::to_string),
                    "mcp_server": server,
                })
                .to_string(),
            );
        } else {
            let state = match not_offered {
                None => "offered".to_owned(),
                Some(why) => format!("not offered: {why}"),
            };
            let description = definition.description.lines().next().unwrap_or("");
            let from = server.map(|s| format!(" (MCP server {s})")).unwrap_or_default();
            lines.push(format!("{:<16} {state}{from}\n                 {description}", definition.name));
        }
    }
    println_all(&lines);
    Ok(ExitCode::SUCCESS)
}

/// `tackle tools show NAME`.
pub(crate) async fn show(name: &str, config: &Config) -> Result<ExitCode, Failure> {
    let registry = registry(config).await?;
    let Some(definition) = registry.definition(name) else {
        let known: Vec<&str> = registry.definitions().map(|d| d.name.as_str()).collect();
        return Err(
            Failure::usage(format!("no tool named {name:?}")).hint(format!("tools: {}", known.join(", ")))
        );
    };
    let text = serde_json::to_string_pretty(definition).map_err(|e| Failure::run(e.to_string()))?;
    println_all(&[text]);
    Ok(ExitCode::SUCCESS)
}

/// `tackle tools call NAME JSON`: one call through the executor, as a model's.
pub(crate) async fn call(
    name: &str,
    arguments: &str,
    flags: &ProviderArgs,
    json: bool,
    config: &Config,
) -> Result<ExitCode, Failure> {
    let registry = registry(config).await?;
    let run = Arc::new(context_for("tools-call", flags, config)?);
    let offer = registry.offer(&run);
    let arguments = ToolArguments::parse(arguments);
    let call = ToolCall { id: "call-1".into(), name: name.to_owned(), arguments, provider_data: None };
    let mut state = ExecutionState::default();
    if registry.definition(name).is_some_and(|d| d.kind == ToolKind::ApprovalRequired) {
        // The person at the keyboard is the one who approves.
        state.approve("call-1");
    }
    let outcome = executor(config)?.execute(&offer, &run, std::slice::from_ref(&call), &mut state).await;
    let Some(result) = outcome.returns.into_iter().next() else {
        return Err(Failure::run("the executor returned no result"));
    };
    print_return(&result, json);
    // The error table decides: what is an error towards a model fails the command.
    Ok(if result.status.rule().is_error { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn print_return(result: &ToolReturn, json: bool) {
    let content = result.content.model_text().into_owned();
    if json {
        let line = json!({
            "status": result.status.label(),
            "detail": result.detail,
            "content": content,
            "sources": result.sources,
            "filter": result.filter,
        });
        println_all(&[line.to_string()]);
        return;
    }
    let mut text = content;
    if !result.sources.is_empty() {
        text.push_str("\n\nSources:");
        for (n, source) in result.sources.iter().enumerate() {
            text.push_str(&format!("\n[{}] {}", n + 1, source_line(source)));
        }
    }
    println_all(&[text]);
    if let Some(report) = &result.filter {
        for line in crate::render::filter_lines(&result.tool_name, report) {
            crate::eprint_line(&line);
        }
    }
    if result.status != ToolStatus::Ok {
        let why = result.detail.as_deref().map(|d| format!(" ({})", crate::render::one_line(d, 1000)));
        crate::eprint_line(&format!("status: {}{}", result.status.label(), why.unwrap_or_default()));
    }
}

/// A source as one line: its title and URL.
pub(crate) fn source_line(source: &tackle_core::Source) -> String {
    match &source.title {
        Some(title) => format!("{title} <{}>", source.url),
        None => source.url.clone(),
    }
}

fn println_all(lines: &[String]) {
    for line in lines {
        crate::print_line(line);
    }
}
