//! The MCP server behind `intent mcp`: the handshake tools an agent calls to choose
//! the intent it works under, built on the official Rust SDK (`rmcp`).
//!
//! The server answers and never records. Claude Code runs the `intent hook` on every
//! `mcp__intent__*` call, and only the hook knows the session id, so the hook
//! records `intent.selected`, `intent.cleared` and `lesson` events; this server
//! validates, renders the context the agent reads, and looks the session up from the
//! tool-use id Claude Code passes in `_meta` when it needs one.
//!
//! Each tool call opens a fresh [`Engine`], so spec edits are seen immediately and
//! a workspace initialized after the server started works without a restart.

pub mod preinit;

use std::borrow::Cow;

use intent_ledger::Workspace;
use intent_spec::{IntentStatus, ACCEPTED_STATUSES};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, DiscoverRequestMethod, DiscoverResult, ErrorData, Implementation,
    ProtocolVersion, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, ServerInitializeError};
use rmcp::{tool, tool_handler, tool_router, RoleServer, ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::engine::Engine;

pub use crate::engine::lessons::MAX_LESSON_CHARS;

/// The `_meta` key under which Claude Code passes the tool-use id of a `tools/call`.
pub const TOOL_USE_ID_META: &str = "claudecode/toolUseId";

/// What the client shows the model about this server at `initialize`.
pub const INSTRUCTIONS: &str = "\
This server is Intent Ledger's handshake. Every change to files in this workspace must \
belong to an intent: a requirement listed in .orchestration/active_intents.yaml.
Before you write, edit or run commands that change files, call select_active_intent with \
the id of an IN_PROGRESS intent (list_active_intents shows them). Its answer is the \
intent's context: scope, constraints and acceptance criteria; stay inside its \
owned_scope. Changes outside it are refused with a reason that says what to do.
get_active_intent tells you which intent is selected; clear_active_intent ends the \
selection; record_lesson keeps a lesson for future sessions. Before changing code you did \
not write, `why` tells you which intents shaped it and their constraints; `search` finds \
past intents, changes, prompts, refusals and lessons.";

/// Arguments of `select_active_intent`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SelectParams {
    /// The intent to work under: `INT-` and at least three digits, e.g. INT-001.
    pub intent_id: String,
    /// Optional: why this intent fits the task (kept in the ledger).
    #[serde(default)]
    pub reasoning: Option<String>,
}

/// Arguments of `list_active_intents`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ListParams {
    /// Optional: only intents with this status (IN_PROGRESS, DRAFT or PENDING,
    /// DONE or COMPLETED, BLOCKED, ABORTED or CANCELLED).
    #[serde(default)]
    pub status: Option<String>,
}

/// Arguments of `record_lesson`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct LessonParams {
    /// The lesson, in one or a few sentences (at most 4000 characters).
    pub text: String,
}

/// Arguments of `complete_intent`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct CompleteParams {
    /// The intent you finished (INT-001).
    pub intent_id: String,
    /// How you verified it: tests run, results, what a reviewer should check.
    pub verification_notes: String,
    /// Optional: evidence per acceptance criterion, as
    /// `[{"criterion": "…", "evidence": "…"}]` (criteria as the intent states them).
    #[serde(default)]
    pub evidence: Option<serde_json::Value>,
}

/// Arguments of `why`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct WhyParams {
    /// The file, relative to the workspace root (src/auth/jwt.ts).
    pub path: String,
    /// A 1-based line of the file as it is now.
    #[serde(default)]
    pub line: Option<u32>,
    /// Or: a block's name (verify, AuthService.verify) instead of a line.
    #[serde(default)]
    pub symbol: Option<String>,
}

/// Arguments of `search`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SearchParams {
    /// Words to find (intents, traces, prompts, gate decisions, lessons).
    pub query: String,
    /// Optional: only events about this intent (INT-001).
    #[serde(default)]
    pub intent: Option<String>,
    /// Optional: only this kind (trace, lesson, prompt, tool.pre, intent.spec).
    #[serde(default)]
    pub kind: Option<String>,
    /// Optional: only events about files under this path (src/auth).
    #[serde(default)]
    pub path: Option<String>,
    /// Optional: at most this many hits (default 10, at most 100).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// The server: the workspace it serves and its tools.
#[derive(Debug, Clone)]
pub struct IntentServer {
    workspace: Workspace,
    tool_router: ToolRouter<IntentServer>,
}

#[tool_router]
impl IntentServer {
    /// Creates a server for `workspace`.
    pub fn new(workspace: Workspace) -> IntentServer {
        IntentServer {
            workspace,
            tool_router: IntentServer::tool_router(),
        }
    }

    #[tool(
        description = "Select the intent (requirement) you will work under. Call this before \
        writing, editing or running commands that change files. Pass the id of an IN_PROGRESS \
        intent, e.g. INT-001; list_active_intents shows them. On success the answer is the \
        intent's context (owned_scope, constraints, acceptance criteria): follow it. A refusal \
        says why (unknown id, intent DONE or BLOCKED, ...) and lists the intents you may select."
    )]
    async fn select_active_intent(&self, params: Parameters<SelectParams>) -> CallToolResult {
        // `reasoning` is read by the hook, which records it with the selection.
        let Parameters(SelectParams { intent_id, .. }) = params;
        self.with_engine(move |engine| {
            Ok(match engine.preview_selection(&intent_id)? {
                Ok(context) => text(context),
                Err(reason) => error(reason.to_agent_text()),
            })
        })
        .await
    }

    #[tool(
        description = "List the intents in .orchestration/active_intents.yaml as JSON: id, name, \
        status (IN_PROGRESS, DRAFT, DONE, BLOCKED or ABORTED), owned_scope and dependencies. \
        Only IN_PROGRESS intents can be selected. Optional status filter; both vocabularies \
        are accepted (COMPLETED = DONE, PENDING = DRAFT, CANCELLED = ABORTED)."
    )]
    async fn list_active_intents(&self, params: Parameters<ListParams>) -> CallToolResult {
        let Parameters(ListParams { status }) = params;
        let wanted = match status.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            None => None,
            Some(raw) => match IntentStatus::parse(raw) {
                Some(status) => Some(status),
                None => {
                    return error(format!(
                        "unknown status `{raw}`; use one of {}.",
                        ACCEPTED_STATUSES.join(", ")
                    ))
                }
            },
        };
        self.with_engine(move |engine| {
            let specs = match engine.specs()? {
                Ok(specs) => specs,
                Err(why) => return Ok(error(unusable_specs(&why))),
            };
            let intents: Vec<Value> = specs
                .file
                .active_intents
                .iter()
                .filter(|intent| wanted.is_none() || intent.status() == wanted)
                .map(|intent| {
                    let status = intent
                        .status()
                        .map_or(intent.status.clone(), |s| s.as_str().to_string());
                    json!({
                        "id": intent.id,
                        "name": intent.name,
                        "status": status,
                        "owned_scope": intent.owned_scope,
                        "dependencies": intent.dependencies,
                    })
                })
                .collect();
            Ok(CallToolResult::structured(json!({ "intents": intents })))
        })
        .await
    }

    #[tool(
        description = "Tell which intent this session works under and show its context again \
        (owned_scope, constraints, acceptance criteria). Says so when none is selected."
    )]
    async fn get_active_intent(&self, context: RequestContext<RoleServer>) -> CallToolResult {
        let tool_use_id = tool_use_id(&context);
        self.with_engine(move |engine| {
            let Some(session) = resolve_session(engine, tool_use_id.as_deref())? else {
                return Ok(error(UNKNOWN_SESSION.to_string()));
            };
            Ok(match engine.active_context(&session)? {
                Some((_, context)) => text(context),
                None => text(
                    "No intent is selected for this session. Call list_active_intents, then \
                     select_active_intent with an IN_PROGRESS intent before changing files."
                        .to_string(),
                ),
            })
        })
        .await
    }

    #[tool(
        description = "Stop working under the selected intent, e.g. when its work is finished or \
        you switch tasks. The clearing is recorded in the ledger (intent.cleared); afterwards \
        changes to files are refused until you select an intent again."
    )]
    async fn clear_active_intent(&self, context: RequestContext<RoleServer>) -> CallToolResult {
        let tool_use_id = tool_use_id(&context);
        self.with_engine(move |engine| {
            // Best effort: naming the intent helps the model, but the hook does the clearing.
            let active = match resolve_session(engine, tool_use_id.as_deref())? {
                Some(session) => engine.active_context(&session)?.map(|(id, _)| id),
                None => None,
            };
            Ok(text(match active {
                Some(id) => format!(
                    "{id} is no longer selected. Select an intent with select_active_intent \
                     before changing files again."
                ),
                None => "No intent is selected now. Select one with select_active_intent \
                         before changing files again."
                    .to_string(),
            }))
        })
        .await
    }

    #[tool(
        description = "Keep a lesson for future sessions: something you learned that would have \
        saved time (a convention, a pitfall, a command that works). It is recorded in the ledger \
        under the selected intent; later sessions (yours and, after `intent sync`, your \
        teammates') see it in their injected context and in .orchestration/lessons.md. Plain \
        text, at most 4000 characters; secrets are redacted."
    )]
    async fn record_lesson(&self, params: Parameters<LessonParams>) -> CallToolResult {
        let Parameters(LessonParams { text: lesson }) = params;
        if lesson.trim().is_empty() {
            return error("the lesson is empty; pass the lesson as `text`.".to_string());
        }
        let chars = lesson.chars().count();
        if chars > MAX_LESSON_CHARS {
            return error(format!(
                "the lesson has {chars} characters; the limit is {MAX_LESSON_CHARS}. Shorten it."
            ));
        }
        // The hook's PostToolUse records the lesson; nothing to write here.
        text(
            "Lesson noted; it will be recorded in the ledger, and later sessions will see it."
                .into(),
        )
    }

    #[tool(
        description = "Report that an intent is finished, with your verification notes and \
        evidence for each of its acceptance criteria. Depending on the workspace's policy the \
        intent becomes DONE, or (default) your completion is proposed for a human to confirm. \
        Call it only when every acceptance criterion is met."
    )]
    async fn complete_intent(&self, params: Parameters<CompleteParams>) -> CallToolResult {
        let Parameters(CompleteParams {
            intent_id,
            verification_notes,
            ..
        }) = params;
        if verification_notes.trim().is_empty() {
            return error("verification_notes is empty; say how you verified the intent.".into());
        }
        // The hook's PostToolUse records the completion (it knows the session).
        text(format!(
            "Completion of {intent_id} noted; the ledger records it (as DONE or as a proposal for a human, per policy)."
        ))
    }

    #[tool(
        description = "Why was this code changed? Give a file and a line (or a block name) and \
        get, oldest first, every recorded change of the block holding it, followed through \
        moves and renames: intent id and name, mutation class, lineage event, prompt, session, \
        model, and the intents' constraints. Ask before you edit code you did not write. \
        Read-only; needs no selected intent."
    )]
    async fn why(&self, params: Parameters<WhyParams>) -> CallToolResult {
        let Parameters(WhyParams { path, line, symbol }) = params;
        let target = match (line, symbol) {
            (_, Some(symbol)) if !symbol.trim().is_empty() => {
                intent_query::why::Target::Symbol(path, symbol)
            }
            (Some(line), _) if line > 0 => intent_query::why::Target::Line(path, line),
            _ => return error("pass `line` (1-based) or `symbol` along with `path`.".into()),
        };
        self.with_workspace(move |ws| {
            let answer = crate::union::why(ws, &target)?;
            Ok(CallToolResult::structured(serde_json::to_value(&answer)?))
        })
        .await
    }

    #[tool(
        description = "Full-text search of the workspace's intent ledger: intents (names, \
        descriptions, constraints, acceptance criteria), traced changes, user prompts, gate \
        decisions and their reasons, and lessons. Ranked hits with snippets; optional filters \
        by intent, kind and path. Read-only; needs no selected intent."
    )]
    async fn search(&self, params: Parameters<SearchParams>) -> CallToolResult {
        let Parameters(params) = params;
        self.with_workspace(move |ws| {
            let mut query = intent_query::search::SearchQuery::new(params.query);
            query.intent = params.intent;
            query.kind = params.kind;
            query.path_prefix = params.path;
            query.limit = params.limit.unwrap_or(10).min(100);
            let results = crate::union::search(ws, &query, &intent_query::NoProgress)?;
            Ok(CallToolResult::structured(serde_json::to_value(&results)?))
        })
        .await
    }

    /// Runs a blocking query off the async runtime; failures become error results.
    async fn with_workspace<F>(&self, work: F) -> CallToolResult
    where
        F: FnOnce(&Workspace) -> anyhow::Result<CallToolResult> + Send + 'static,
    {
        let workspace = self.workspace.clone();
        match tokio::task::spawn_blocking(move || work(&workspace)).await {
            Ok(Ok(result)) => result,
            Ok(Err(err)) => error(format!("intent: {err:#}")),
            Err(err) => error(format!("intent: the tool failed: {err}")),
        }
    }

    /// Runs blocking engine work (file locks, ledger reads) off the async runtime
    /// and turns any failure into an error result the model can read.
    async fn with_engine<F>(&self, work: F) -> CallToolResult
    where
        F: FnOnce(&Engine) -> anyhow::Result<CallToolResult> + Send + 'static,
    {
        let workspace = self.workspace.clone();
        let job = tokio::task::spawn_blocking(move || {
            Engine::new(workspace).and_then(|e| work(&e.acting_for(intent_engine::Origin::Mcp)))
        });
        match job.await {
            Ok(Ok(result)) => result,
            Ok(Err(err)) => error(format!("intent: {err:#}")),
            Err(err) => error(format!("intent: the tool failed: {err}")),
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for IntentServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("intent", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    /// Offers only protocol versions with an `initialize` handshake, the path on
    /// which Claude Code was observed to pass the tool-use id in `_meta`. Its
    /// `server/discover` probe names 2026-07-28, so `rmcp` answers it with
    /// -32022 and this list, and Claude Code falls back to `initialize`; with
    /// `rmcp`'s default list the probe would succeed and move it to the
    /// stateless 2026 protocol.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2025_11_25))
    }

    /// Answers a `server/discover` probe that names a supported (pre-2026)
    /// version with "method not found" (-32601), as servers of those versions
    /// do, so the client falls back to `initialize` there too.
    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        Err(ErrorData::method_not_found::<DiscoverRequestMethod>())
    }
}

/// Serves `server` on stdin/stdout until the client closes stdin (or the
/// session fails). Needs a Tokio runtime.
pub async fn serve_stdio(server: IntentServer) -> anyhow::Result<()> {
    let (to_rmcp, from_client) = tokio::io::duplex(64 * 1024);
    tokio::spawn(preinit::pump(tokio::io::stdin(), to_rmcp));
    match server.serve((from_client, tokio::io::stdout())).await {
        Ok(running) => {
            running.waiting().await?;
            Ok(())
        }
        // stdin closed before `initialize`: a client that only probed us.
        Err(ServerInitializeError::ConnectionClosed(_)) => Ok(()),
        Err(err) => Err(anyhow::Error::new(err).context("MCP handshake failed")),
    }
}

const UNKNOWN_SESSION: &str = "intent: cannot tell which session this call belongs to: the \
intent hook has not recorded this tool call. Ask the human to run `intent init --agent \
claude-code` in the workspace (it configures the hook for mcp__intent__ tools), then retry.";

/// Returns the tool-use id Claude Code put in the request's `_meta`.
fn tool_use_id(context: &RequestContext<RoleServer>) -> Option<String> {
    context
        .meta
        .get(TOOL_USE_ID_META)
        .and_then(Value::as_str)
        .map(str::to_string)
}

/// Finds the session whose PreToolUse hook recorded this call.
fn resolve_session(engine: &Engine, tool_use_id: Option<&str>) -> anyhow::Result<Option<String>> {
    match tool_use_id {
        Some(id) if !id.is_empty() => engine.session_for_tool_use(id),
        _ => Ok(None),
    }
}

fn unusable_specs(why: &str) -> String {
    format!("intent: the intents file cannot be used: {why}. Ask the human to run `intent validate` and fix it.")
}

fn text(body: String) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(body)])
}

fn error(body: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(body)])
}
