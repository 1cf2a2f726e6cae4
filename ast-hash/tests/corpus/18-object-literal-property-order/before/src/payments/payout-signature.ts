import { createHmac } from "node:crypto";

export interface PayoutEvent {
  payoutId: string;
  accountId: string;
  amountCents: number;
  currency: string;
  createdAt: string;
}

// The receiver recomputes the HMAC over the exact bytes we send.
export function canonicalPayload(event: PayoutEvent): string {
  return JSON.stringify({
    id: event.payoutId,
    account: event.accountId,
    amount: event.amountCents,
    currency: event.currency,
    created: event.createdAt,
  });
}

export function signPayout(event: PayoutEvent, secret: string): { body: string; signature: string } {
  const body = canonicalPayload(event);
  const signature = createHmac("sha256", secret).update(body).digest("hex");
  return { body, signature };
}

export function signatureHeader(signature: string, timestamp: number): string {
  return `t=${timestamp},v1=${signature}`;
}
