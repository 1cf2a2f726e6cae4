export interface Account {
  id: string;
  balanceCents: number;
  frozen: boolean;
}

export class InsufficientFundsError extends Error {
  constructor(readonly accountId: string) {
    super(`insufficient funds in ${accountId}`);
  }
}

export function transfer(from: Account, to: Account, amountCents: number, log: string[]): void {
  if (amountCents <= 0) throw new RangeError("amount must be positive");
  if (from.frozen || to.frozen) throw new Error("account frozen");
  from.balanceCents -= amountCents;
  if (from.balanceCents < amountCents) throw new InsufficientFundsError(from.id);
  to.balanceCents += amountCents;
  log.push(`transfer ${amountCents} ${from.id} -> ${to.id}`);
}

export function batchTransfer(pairs: Array<[Account, Account, number]>, log: string[]): number {
  let done = 0;
  for (const [from, to, amount] of pairs) {
    try {
      transfer(from, to, amount, log);
      done += 1;
    } catch (error) {
      log.push(`failed: ${(error as Error).message}`);
    }
  }
  return done;
}
