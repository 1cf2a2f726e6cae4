import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

type WebhookEvent = { id: string; type: string; data: Record<string, unknown> };
type Handler = (event: WebhookEvent) => Promise<void>;

// One handler per event type; registering a type again replaces the handler.
const handlers = new Map<string, Handler>();

export function onWebhook(type: string, handler: Handler): void {
  handlers.set(type, handler);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

/** Constant-time check of the hex HMAC-SHA256 sent in `x-signature`. */
function validSignature(payload: string, header: string | undefined, secret: string): boolean {
  if (!header) return false;
  const digest = createHmac("sha256", secret).update(payload).digest("hex");
  const expected = Buffer.from(digest),
    received = Buffer.from(header);
  return expected.length === received.length && timingSafeEqual(expected, received);
}

export async function handleWebhook(req: IncomingMessage, res: ServerResponse, secret: string): Promise<void> {
  const rawBody = await readBody(req);
  const signatureHeader = req.headers["x-signature"];
  if (!validSignature(rawBody, Array.isArray(signatureHeader) ? signatureHeader[0] : signatureHeader, secret)) {
    res.statusCode = 401;
    res.end("bad signature");
    return;
  }
  const event = JSON.parse(rawBody) as WebhookEvent;
  const handler = handlers.get(event.type);
  if (handler) await handler(event); // unknown types are acknowledged and ignored
  res.statusCode = 204;
  res.end();
}
