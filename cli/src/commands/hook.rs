//! `intent hook <front-end>`: one hook payload on stdin, one native reply on stdout.
//! This is the process around the answer: read the payload, hand it to the
//! resident helper when one serves the workspace, else answer it here
//! ([`crate::hook_answer`]), print the reply.

use std::io::{Read, Write};

use intent_engine::{adapters, respond, FrontEnd, Hook};

use crate::config::Config;
use crate::exit;
use crate::helper::client::AnswerHere;
pub use crate::hook_answer::HookArgs;
use crate::hook_answer::{answer, printed};

/// Reads the payload, answers it (through the helper when one serves this
/// workspace, else here), prints the reply. Always exits 0 with a reply the
/// front-end understands, except when even that is impossible (exit 2 blocks),
/// and for Windsurf, whose hooks are heard only through exit 2 and stderr.
pub fn run(config: &Config, args: HookArgs) -> anyhow::Result<u8> {
    // Only a name that is not built in goes looking on PATH.
    if let Some(intent_engine::FrontEnd::External(external)) = args.front_end {
        return crate::external::hook::run(config, external.name, args.event.as_deref());
    }
    let mut hook = Hook::one_shot();
    hook.timings.mark("start");
    let mut input = Vec::new();
    let read = std::io::stdin()
        .lock()
        .take(respond::MAX_PAYLOAD_BYTES + 1)
        .read_to_end(&mut input);
    let mut printed = match read {
        Err(e) => {
            let call = respond::Call {
                front_end: args.front_end,
                event: args.event.as_deref(),
            };
            let answer = call.refuse_unreadable(&format!("cannot be read ({e})"));
            printed(&answer, &hook.timings)
        }
        Ok(_) => {
            // Names this hook's events, in the helper and here alike, so that a hook
            // both answer is recorded once (`intent_engine::hook_ids`).
            let seed = uuid::Uuid::new_v4().to_string();
            match crate::helper::client::answer(config, &args, &input, &seed, &mut hook.timings) {
                Ok(mut printed) => {
                    hook.timings.mark("helper answered");
                    if let Some(timings) = hook.timings.report() {
                        printed.stderr += &format!("intent hook: client {timings}\n");
                    }
                    printed
                }
                Err(why) => {
                    if let AnswerHere::AfterAsking(look_from) = why {
                        hook.name_events(&seed, look_from);
                    }
                    let env = |name: &str| std::env::var_os(name);
                    answer(config, &args, &mut hook, &input, &env, None)
                        .expect("nothing is declined without a workspace to keep to")
                }
            }
        }
    };
    let code = match windsurf_refusal(&args, &input, &printed.stdout) {
        Some(reason) => {
            printed.stderr += &format!("{reason}\n");
            WINDSURF_BLOCK
        }
        None => exit::OK,
    };
    std::io::stderr()
        .lock()
        .write_all(printed.stderr.as_bytes())?;
    let mut out = std::io::stdout().lock();
    out.write_all(printed.stdout.as_bytes())?;
    out.flush()?;
    Ok(code)
}

/// Cascade's one way to refuse an action (and to tell its agent anything).
const WINDSURF_BLOCK: u8 = 2;

/// The reason to give Windsurf on stderr, with exit 2, when the reply refuses and
/// the hook answers Windsurf (named, or recognized from the payload).
fn windsurf_refusal(args: &HookArgs, input: &[u8], stdout: &str) -> Option<String> {
    let front_end = args.front_end.or_else(|| {
        serde_json::from_slice(input)
            .ok()
            .map(|payload| adapters::detect(&payload))
    });
    if front_end != Some(FrontEnd::Windsurf) {
        return None;
    }
    let reply: serde_json::Value = serde_json::from_str(stdout.trim()).ok()?;
    adapters::windsurf::refusal_reason(&reply).map(str::to_string)
}
