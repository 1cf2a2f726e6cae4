// Written by `intent init --agent __FRONT_END__`; `intent doctor` checks it is current.
// Hands the events of OpenCode (or Kilo Code, its fork) to `intent hook __FRONT_END__`
// (all logic is there) and does what it answers. A tool call intent cannot judge is
// refused (fail closed).
import { spawnSync } from "node:child_process";

const COMMAND = __INTENT_COMMAND__;
// Which CLI loads this plugin, for `intent hook` (and its payloads, which are
// OpenCode's in both).
const FRONT_END = "__FRONT_END__";

export const IntentLedger = async ({ directory, worktree }) => {
  // OpenCode's tool hooks do not name the model: the session's last prompt does.
  const models = new Map();
  // A subagent (`task`) works in a child session, under its root session's intent.
  const parents = new Map();
  const rootOf = (id) => {
    for (let hops = 0; parents.has(id) && hops < 64; hops++) id = parents.get(id);
    return id;
  };
  // What intent says at a session's start and on its last prompt, for the system
  // prompt (OpenCode's events cannot add to the conversation).
  const contexts = new Map();
  const remember = (sessionID, key, reply) => {
    const known = contexts.get(sessionID) ?? {};
    known[key] = reply.context;
    contexts.set(sessionID, known);
  };
  const ask = (hook, body) => {
    const run = spawnSync("/bin/sh", ["-c", `exec ${COMMAND} hook ${FRONT_END}`], {
      cwd: directory,
      input: JSON.stringify({ hook, frontEnd: FRONT_END, directory, worktree, rootSessionID: rootOf(body.input?.sessionID ?? body.event?.properties?.sessionID), ...body }),
      encoding: "utf8",
      timeout: 30000,
      maxBuffer: 16 << 20,
    });
    let reply;
    try {
      reply = JSON.parse(run.stdout);
    } catch {}
    if (run.error || !reply || typeof reply !== "object") {
      const why = run.error ? run.error.message : `exit ${run.status}: ${(run.stderr || "").trim().slice(-400)}`;
      throw new Error(`intent: refused, \`${COMMAND} hook ${FRONT_END}\` gave no answer (${why})`);
    }
    return reply;
  };
  const quietly = (hook, body) => {
    try {
      return ask(hook, body);
    } catch (e) {
      console.error(e.message);
      return {};
    }
  };
  return {
    "tool.execute.before": async (input, output) => {
      const reply = ask("tool.execute.before", { model: models.get(input.sessionID), input, output });
      if (reply.action !== "allow") throw new Error(reply.message || "intent: refused");
      if (reply.args && typeof reply.args === "object") {
        for (const key of Object.keys(output.args)) delete output.args[key];
        Object.assign(output.args, reply.args);
      }
    },
    "tool.execute.after": async (input, output) => {
      const reply = quietly("tool.execute.after", { model: models.get(input.sessionID), input, output });
      if (reply.context) output.output = `${output.output ?? ""}\n\n${reply.context}`;
    },
    "chat.message": async (input, output) => {
      const model = input.model ?? output.message?.model;
      if (model) models.set(input.sessionID, `${model.providerID}/${model.modelID}`);
      remember(input.sessionID, "prompt", quietly("chat.message", { input, output }));
    },
    event: async ({ event }) => {
      if (event.type === "session.created") {
        const id = event.properties?.sessionID ?? event.properties?.info?.id;
        const parent = event.properties?.info?.parentID;
        if (parent) parents.set(id, parent);
        remember(id, "session", quietly("event", { event }));
      } else if (event.type === "session.idle") {
        quietly("event", { event });
      }
    },
    "experimental.chat.system.transform": async (input, output) => {
      const known = contexts.get(input.sessionID) ?? {};
      for (const text of [known.session, known.prompt]) if (text) output.system.push(text);
    },
  };
};
