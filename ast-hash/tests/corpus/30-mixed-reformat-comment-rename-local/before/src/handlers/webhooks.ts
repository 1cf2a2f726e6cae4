import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

type WebhookEvent = { id: string; type: string; data: Record<string, unknown> };
type Handler = (event: WebhookEvent) => Promise<void>;

const handlers = new Map<string, Handler>();

export function onWebhook(type: string, handler: Handler): void { handlers.set(type, handler); }

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => { buf += c; });
    req.on("end", () => resolve(buf));
    req.on("error", reject);
  });
}

function validSignature(payload: string, header: string | undefined, secret: string): boolean {
  if (!header) return false;
  const d = createHmac("sha256", secret).update(payload).digest("hex");
  const a = Buffer.from(d), b = Buffer.from(header);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function handleWebhook(req: IncomingMessage, res: ServerResponse, secret: string): Promise<void> {
  const raw = await readBody(req);
  const sig = req.headers["x-signature"];
  if (!validSignature(raw, Array.isArray(sig) ? sig[0] : sig, secret)) { res.statusCode = 401; res.end("bad signature"); return; }
  const evt = JSON.parse(raw) as WebhookEvent;
  const h = handlers.get(evt.type);
  if (h) await h(evt);
  res.statusCode = 204;
  res.end();
}
