//! `intent show ID`: one intent in full — its spec, status history, dependencies
//! with their statuses, the sessions that worked on it, the files and blocks it
//! touched, its lessons and open completion proposals.

use clap::Args;
use intent_query::intents::IntentState;
use intent_query::lineage;
use intent_spec::SpecDocument;
use serde_json::{json, Value};

use crate::config::Config;
use crate::exit;

/// Arguments of `intent show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The intent, e.g. INT-001.
    pub intent_id: String,
}

/// Prints the intent; exit 1 when neither the specs nor the ledger know it.
pub fn run(config: &Config, args: ShowArgs) -> anyhow::Result<u8> {
    config.require_ledger()?;
    let workspace = &config.workspace;
    let id = args.intent_id.as_str();
    let specs = SpecDocument::load(&workspace.specs_path()).ok();
    let spec = specs.as_ref().and_then(|d| d.intent(id).cloned());
    let progress = intent_query::NoProgress;
    let (state, _) = IntentState::catch_up(workspace, &progress)?;
    lineage::Lineage::catch_up(workspace, &progress)?;
    let record = state.intents.get(id);
    if spec.is_none() && record.is_none() {
        anyhow::bail!("{id} is neither in active_intents.yaml nor in the ledger; `intent search {id}` may find a typo");
    }
    let dependencies: Vec<Value> = spec
        .as_ref()
        .map(|s| s.dependencies.clone())
        .unwrap_or_default()
        .iter()
        .map(|dep| {
            let status =
                specs
                    .as_ref()
                    .and_then(|d| d.intent(dep))
                    .map_or("missing".to_string(), |d| {
                        d.status()
                            .map_or(d.status.clone(), |s| s.as_str().to_string())
                    });
            json!({"id": dep, "status": status})
        })
        .collect();
    let mut blocks = Vec::new();
    for shard in lineage::all_shards(workspace)? {
        // Lines as the file is now, never as recorded (they go stale below edits).
        let positions = intent_query::locate::current_lines(workspace, &shard);
        let all = shard
            .blocks
            .values()
            .map(|b| (b, false))
            .chain(shard.deleted.values().map(|b| (b, true)));
        for (block, deleted) in all {
            let changes: Vec<&lineage::Change> = block
                .history
                .iter()
                .filter(|c| c.intent_id.as_deref() == Some(id))
                .collect();
            if let Some(last) = changes.last() {
                blocks.push(json!({
                    "path": shard.path, "name": block.name, "kind": block.kind,
                    "lines": if deleted { Value::Null } else { positions.get(&block.id).map_or(Value::Null, |(s, e)| json!([s, e])) },
                    "deleted": deleted, "changes": changes.len(),
                    "last_seq": last.seq, "last_event": last.event,
                }));
            }
        }
    }
    blocks.sort_by_key(|b| (b["path"].to_string(), b["name"].to_string()));
    // Work under this intent recorded in other clones' ledgers (fetched by `sync`).
    let mut elsewhere = Vec::new();
    for fetched in intent_sync::fetched::list(workspace) {
        let view = fetched.view(workspace);
        match IntentState::catch_up(&view, &progress) {
            Ok((state, _)) => {
                if let Some(r) = state.intents.get(id) {
                    elsewhere.push(json!({
                        "ledger": fetched.label(), "traces": r.traces,
                        "sessions": r.sessions, "files": r.files, "lessons": r.lessons,
                    }));
                }
            }
            Err(err) => crate::say::warning(&format!("show: skipping {}: {err}", fetched.label())),
        }
    }
    let body = json!({
        "id": id,
        "spec": spec,
        "status": spec.as_ref().and_then(|s| s.status()).map(|s| s.as_str()),
        "status_history": record.map(|r| r.status_history.clone()).unwrap_or_default(),
        "dependencies": dependencies,
        "sessions": record.map(|r| r.sessions.clone()).unwrap_or_default(),
        "files": record.map(|r| r.files.clone()).unwrap_or_default(),
        "traces": record.map_or(0, |r| r.traces),
        "blocks": blocks,
        "lessons": record.map(|r| r.lessons.clone()).unwrap_or_default(),
        "open_proposals": record.map(|r| r.proposals.clone()).unwrap_or_default(),
        "completion": record.and_then(|r| r.completion.clone()),
        "other_ledgers": elsewhere,
    });
    if config.json() {
        println!("{body}");
        return Ok(exit::OK);
    }
    print_text(&body);
    Ok(exit::OK)
}

fn list(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn print_text(body: &Value) {
    let spec = &body["spec"];
    println!(
        "{} — {} ({})",
        body["id"].as_str().unwrap_or_default(),
        spec["name"]
            .as_str()
            .unwrap_or("not in active_intents.yaml"),
        body["status"].as_str().unwrap_or("?")
    );
    if let Some(why) = spec["blocked_reason"].as_str() {
        println!("  blocked: {why}");
    }
    if let Some(text) = spec["description"].as_str().filter(|t| !t.is_empty()) {
        println!("  {}", text.trim());
    }
    println!("  owned_scope: {}", list(&spec["owned_scope"]).join(", "));
    for (title, key) in [
        ("constraints", "constraints"),
        ("acceptance criteria", "acceptance_criteria"),
    ] {
        let items = list(&spec[key]);
        if !items.is_empty() {
            println!("  {title}:");
            for item in items {
                println!("    - {item}");
            }
        }
    }
    let deps: Vec<String> = body["dependencies"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|d| {
                    format!(
                        "{} ({})",
                        d["id"].as_str().unwrap_or("?"),
                        d["status"].as_str().unwrap_or("?")
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    println!(
        "  dependencies: {}",
        if deps.is_empty() {
            "none".to_string()
        } else {
            deps.join(", ")
        }
    );
    let history: Vec<String> = body["status_history"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|h| format!("#{} {}", h[0], h[1].as_str().unwrap_or("?")))
                .collect()
        })
        .unwrap_or_default();
    println!("  status history: {}", history.join(" → "));
    println!("  sessions: {}", list(&body["sessions"]).join(", "));
    println!(
        "  files ({} traces): {}",
        body["traces"],
        list(&body["files"]).join(", ")
    );
    for block in body["blocks"].as_array().into_iter().flatten() {
        println!(
            "    {} {} `{}` — {} change(s), last #{} {}",
            block["path"].as_str().unwrap_or_default(),
            block["kind"].as_str().unwrap_or_default(),
            block["name"].as_str().unwrap_or_default(),
            block["changes"],
            block["last_seq"],
            block["last_event"].as_str().unwrap_or_default()
        );
    }
    for other in body["other_ledgers"].as_array().into_iter().flatten() {
        println!(
            "  in {}: {} traced write(s), files {}, {} session(s)",
            other["ledger"].as_str().unwrap_or("?"),
            other["traces"],
            list(&other["files"]).join(", "),
            other["sessions"].as_array().map_or(0, Vec::len),
        );
    }
    for lesson in body["lessons"].as_array().into_iter().flatten() {
        println!(
            "  lesson #{}: {}",
            lesson[0],
            lesson[1].as_str().unwrap_or_default()
        );
    }
    for p in body["open_proposals"].as_array().into_iter().flatten() {
        println!(
            "  PROPOSED DONE at #{} by {}: {} (confirm: intent status {} DONE)",
            p["seq"],
            p["session"].as_str().unwrap_or("?"),
            p["notes"].as_str().unwrap_or_default(),
            body["id"].as_str().unwrap_or_default()
        );
        for item in p["checklist"].as_array().into_iter().flatten() {
            let mark = if item["evidence"].is_null() {
                "[ ]"
            } else {
                "[x]"
            };
            println!(
                "    {mark} {}",
                item["criterion"].as_str().unwrap_or_default()
            );
        }
    }
}
