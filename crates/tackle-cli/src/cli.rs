//! The command line, as clap reads it.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// tackle: an agent on the command line, with tools that are safe by construction.
#[derive(Debug, Parser)]
#[command(name = "tackle", version, about, propagate_version = true, max_term_width = 100)]
pub(crate) struct Cli {
    /// The settings file (default: the platform's config dir, `tackle/config.toml`).
    #[arg(long, global = true, env = "TACKLE_CONFIG", value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,

    /// More detail on stderr: -v logs what tools and requests do (and, for `run`, reports the
    /// local model's speed), -vv debugging detail, -vvv everything. `RUST_LOG` takes
    /// precedence.
    #[arg(long, short = 'v', global = true, action = clap::ArgAction::Count)]
    pub(crate) verbose: u8,

    /// A directory the model may work in: it gets file, search and command tools confined
    /// to it (writes, edits and commands need approval). Without it (or `[env] root` in the
    /// settings) no such tools are offered.
    #[arg(long, global = true, value_name = "PATH")]
    pub(crate) dir: Option<PathBuf>,

    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Runs an agent on one prompt: the answer streams to stdout, tool calls to stderr.
    Run(RunArgs),
    /// Lists, shows and calls tools.
    #[command(subcommand)]
    Tools(ToolsCommand),
    /// Reads web pages and local HTML files.
    #[command(subcommand)]
    Web(WebCommand),
    /// An interactive session: line editing, history, /tools, /sources, /reset, /exit.
    Chat(ChatArgs),
    /// Decides the calls a suspended run waits for, and runs on.
    Approve(ApproveArgs),
    /// Lists and shows saved sessions.
    #[command(subcommand)]
    Sessions(SessionsCommand),
    /// Stores and deletes secrets (provider keys, tools' secret settings); never prints them.
    #[command(subcommand)]
    Secret(SecretCommand),
    /// Fetches and lists local models.
    #[command(subcommand)]
    Model(ModelCommand),
    /// Checks text for prompt injection (the filter under construction).
    #[command(subcommand)]
    Guard(GuardCommand),
    /// Shows the effective settings.
    #[command(subcommand)]
    Config(ConfigCommand),
    /// The MCP servers of the settings.
    #[command(subcommand)]
    Mcp(McpCommand),
    /// Serves runs for many users over HTTP (`tackle serve token create` makes a user's
    /// token).
    Serve(ServeArgs),
}

/// `tackle serve`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub(crate) struct ServeArgs {
    /// The address to listen on; beyond loopback only when given.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    pub(crate) listen: std::net::SocketAddr,
    /// Workers in this process: runs going at once (a run mostly waits for its model, so
    /// many fit on one core).
    #[arg(long, default_value_t = 64)]
    pub(crate) workers: usize,
    /// PostgreSQL connections this process keeps open at most (workers and requests share
    /// them; keep the sum over all processes below the server's `max_connections`).
    #[arg(long, default_value_t = 32, value_name = "N")]
    pub(crate) connections: u32,
    /// Where runs, events and tokens are kept: `postgres://…` for PostgreSQL (many server
    /// processes on one database), else a SQLite file (default: `server.db` in the data dir).
    #[arg(long, global = true, env = "TACKLE_DATABASE", value_name = "URL|PATH")]
    pub(crate) database: Option<String>,
    /// Seconds a run stays with a server that stopped renewing its lease before another
    /// takes it over.
    #[arg(long, default_value_t = 30, value_name = "SECONDS")]
    pub(crate) lease: u64,
    /// Seconds runs under way get to finish on Ctrl-C; those still going then are left to
    /// their checkpoints for another server.
    #[arg(long, default_value_t = 10, value_name = "SECONDS")]
    pub(crate) grace: u64,
    #[command(flatten)]
    pub(crate) provider: ProviderArgs,
    #[command(subcommand)]
    pub(crate) command: Option<ServeCommand>,
}

#[derive(Debug, Subcommand)]
pub(crate) enum ServeCommand {
    /// Manages the tokens users call the server with.
    #[command(subcommand)]
    Token(TokenCommand),
    /// Makes the key that seals organisation secrets (give it to every server process as
    /// TACKLE_SERVER_KEY, or in a file named by TACKLE_SERVER_KEY_FILE).
    #[command(subcommand)]
    Key(KeyCommand),
    /// Sets an organisation's policy.
    #[command(subcommand)]
    Org(OrgCommand),
    /// Sets plans: the capabilities they unlock and the credits they grant.
    #[command(subcommand)]
    Plan(PlanCommand),
    /// Puts users on plans.
    #[command(subcommand)]
    User(UserCommand),
    /// Keeps an organisation's secrets, sealed with the server key.
    #[command(subcommand)]
    Secret(OrgSecretCommand),
    /// Grants users credits.
    #[command(subcommand)]
    Credits(CreditsCommand),
}

#[derive(Debug, Subcommand)]
pub(crate) enum KeyCommand {
    /// Prints a new random key (64 hex digits).
    Create,
}

#[derive(Debug, Subcommand)]
pub(crate) enum OrgCommand {
    /// Sets the policy from a TOML file: `[locked]` and `[defaults]` setting values,
    /// `models = [...]` its users may choose, `disabled_tools = [...]`.
    Set {
        /// The organisation.
        #[arg(long)]
        org: String,
        /// The policy file.
        #[arg(long, value_name = "FILE")]
        file: std::path::PathBuf,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum PlanCommand {
    /// Creates or changes a plan.
    Set {
        /// The plan's name.
        name: String,
        /// A capability it unlocks (`web_search`, `memory`, …); repeat for more.
        #[arg(long = "capability", value_name = "KEY")]
        capabilities: Vec<String>,
        /// Credits a user gets when put on the plan.
        #[arg(long, default_value_t = 0.0)]
        allowance: f64,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum UserCommand {
    /// Puts a user on a plan (created when new); a new plan grants its allowance.
    Plan {
        /// The organisation.
        #[arg(long)]
        org: String,
        /// The user.
        #[arg(long)]
        user: String,
        /// The plan.
        #[arg(long)]
        plan: String,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum OrgSecretCommand {
    /// Keeps the secret for `<tool>.<field>`, read from standard input.
    Set {
        /// The organisation.
        #[arg(long)]
        org: String,
        /// `<tool>.<field>`.
        address: String,
    },
    /// Removes a secret.
    Remove {
        /// The organisation.
        #[arg(long)]
        org: String,
        /// `<tool>.<field>`.
        address: String,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum CreditsCommand {
    /// Grants a user credits (negative: takes them back); the user is metered from then on.
    Grant {
        /// The organisation.
        #[arg(long)]
        org: String,
        /// The user.
        #[arg(long)]
        user: String,
        /// Credits.
        #[arg(allow_negative_numbers = true)]
        amount: f64,
        /// Why (kept in the ledger).
        #[arg(long, default_value = "grant")]
        note: String,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum TokenCommand {
    /// Makes a token for a user of an organisation (both created when new) and prints it
    /// once; only its hash is kept.
    Create {
        /// The organisation.
        #[arg(long)]
        org: String,
        /// The user.
        #[arg(long)]
        user: String,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum GuardCommand {
    /// Checks a file (or stdin): prints the filtered text to stdout and the findings to
    /// stderr; exit 0 when clean, 1 when something was marked.
    Check {
        /// The file, or `-` for stdin.
        #[arg(required_unless_present = "jsonl")]
        input: Option<std::path::PathBuf>,
        /// Prints the report as JSON instead of the filtered text.
        #[arg(long)]
        json: bool,
        /// Reads one JSON object `{"id": …, "text": …}` per line on stdin and prints, per
        /// line and in order, `{"id": …, "score": …}` (0 to 1; 0.5 and above is marked at the
        /// default strictness).
        #[arg(long, conflicts_with_all = ["input", "json"])]
        jsonl: bool,
        /// How readily text is marked: relaxed, default or strict (default: `[guard]
        /// strictness` in the settings, else default).
        #[arg(long, value_parser = ["relaxed", "default", "strict"], conflicts_with = "jsonl")]
        strictness: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum ModelCommand {
    /// Fetches the default local model (SmolLM2-135M-Instruct) and checks its SHA-256.
    Pull,
    /// Lists local models.
    List,
}

#[derive(Debug, Subcommand)]
pub(crate) enum SecretCommand {
    /// Stores a secret: typed without echo on a terminal, else the first line of stdin.
    Set {
        /// The name: an environment variable a provider reads (OPENAI_API_KEY), a name given
        /// as `api_key_secret`, or `<tool>.<field>`.
        name: String,
    },
    /// Deletes a secret.
    Delete {
        /// The name.
        name: String,
    },
}

/// Which model answers.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct ProviderArgs {
    /// The provider: local (the embedded model, the default), openai, openai-responses, anthropic,
    /// gemini, vertex, bedrock, a preset (ollama, vllm, llamacpp, lmstudio, openrouter, groq,
    /// mistral, deepseek, together, azure) or one from the settings file.
    #[arg(long, env = "TACKLE_PROVIDER")]
    pub(crate) provider: Option<String>,
    /// The model name the provider knows (for local: a GGUF file, or the default).
    #[arg(long, short = 'm', env = "TACKLE_MODEL")]
    pub(crate) model: Option<String>,
    /// Another base URL for the provider (`…/v1`).
    #[arg(long, value_name = "URL")]
    pub(crate) base_url: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// The prompt.
    pub(crate) prompt: String,
    #[command(flatten)]
    pub(crate) provider: ProviderArgs,
    /// Prints the run's events instead, one JSON object per line.
    #[arg(long)]
    pub(crate) json: bool,
    /// A system prompt.
    #[arg(long, conflicts_with = "continue_id")]
    pub(crate) system: Option<String>,
    /// Goes on with a saved session instead of starting a new one.
    #[arg(long = "continue", value_name = "ID")]
    pub(crate) continue_id: Option<String>,
    /// Makes the model call this tool first (the local model only).
    #[arg(long, value_name = "NAME")]
    pub(crate) tool: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct ChatArgs {
    #[command(flatten)]
    pub(crate) provider: ProviderArgs,
}

#[derive(Debug, Args)]
pub(crate) struct ApproveArgs {
    /// The session (its run id).
    pub(crate) id: String,
    /// Refuses the calls instead; the model is told why.
    #[arg(long, value_name = "REASON", conflicts_with = "edit")]
    pub(crate) deny: Option<String>,
    /// Runs the one waiting call with these arguments (a JSON object) instead.
    #[arg(long, value_name = "JSON")]
    pub(crate) edit: Option<String>,
    /// Answers the waiting question: for `ask_user_question`, a JSON list with one answer
    /// per question — a list of the option labels picked, or a string in your own words;
    /// for a question a tool asked (an MCP server's form), a JSON object of its fields.
    /// `--deny` declines a tool's question.
    #[arg(long, value_name = "JSON", conflicts_with_all = ["deny", "edit"])]
    pub(crate) answer: Option<String>,
    #[command(flatten)]
    pub(crate) provider: ProviderArgs,
    /// Prints the run's events instead, one JSON object per line.
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Debug, Subcommand)]
pub(crate) enum SessionsCommand {
    /// Lists saved sessions, newest first.
    List {
        /// How many.
        #[arg(long, default_value_t = 20)]
        limit: usize,
        /// One JSON object per session.
        #[arg(long)]
        json: bool,
    },
    /// Shows a session: its conversation, tool calls and sources.
    Show {
        /// The session (its run id).
        id: String,
        /// The saved state as JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum McpCommand {
    /// Connects each server of `[mcp.servers]` and lists its era and tools, or why it
    /// cannot be used (exit 1 when one cannot).
    List {
        /// One JSON object per server.
        #[arg(long)]
        json: bool,
    },
    /// Serves the tools tackle would offer over MCP (both protocol eras): on stdin and
    /// stdout, or over Streamable HTTP at ADDR/mcp. Tools that need approval answer with
    /// an error saying so instead of running.
    Serve {
        /// Speak MCP on stdin and stdout (the default).
        #[arg(long, conflicts_with = "http")]
        stdio: bool,
        /// Serve Streamable HTTP on this address (`127.0.0.1:8931`).
        #[arg(long, value_name = "ADDR")]
        http: Option<std::net::SocketAddr>,
        /// The secret holding a token every HTTP request must bear (`Authorization: Bearer`).
        #[arg(long, value_name = "SECRET", requires = "http")]
        token_secret: Option<String>,
        /// A `Host` the HTTP server answers besides loopback names (for a non-loopback
        /// address); repeat for several.
        #[arg(long, value_name = "HOST", requires = "http")]
        allow_host: Vec<String>,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum ToolsCommand {
    /// Lists every tool: offered, or why not.
    List {
        #[command(flatten)]
        provider: ProviderArgs,
        /// One JSON object per tool.
        #[arg(long)]
        json: bool,
    },
    /// Shows a tool's definition and schema.
    Show {
        /// The tool's name.
        name: String,
    },
    /// Calls one tool as a model would, under the same policies, and prints what it gave back.
    Call {
        /// The tool's name.
        name: String,
        /// The arguments: a JSON object.
        arguments: String,
        #[command(flatten)]
        provider: ProviderArgs,
        /// One JSON object with status, content and sources.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum WebCommand {
    /// Reads pages the user chose (no target restriction) and prints their main content.
    Read {
        /// URLs, HTML files, or `-` for standard input.
        #[arg(required = true)]
        inputs: Vec<String>,
        /// What to print.
        #[arg(long, value_enum, default_value_t = Format::Markdown)]
        format: Format,
        /// Writes one file per input into DIR (`page.html` → `page.md`) instead of printing.
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
    },
}

/// How extracted content is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// Markdown with the page's metadata as front matter.
    Markdown,
    /// The main content alone, as plain text.
    Text,
    /// One JSON object per page: its metadata, the Markdown and the main text.
    Json,
}

#[derive(Debug, Subcommand)]
pub(crate) enum ConfigCommand {
    /// Prints the effective settings, secrets redacted, with where each value came from.
    Show {
        #[command(flatten)]
        provider: ProviderArgs,
        /// One JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Prints the settings file's path.
    Path,
}
