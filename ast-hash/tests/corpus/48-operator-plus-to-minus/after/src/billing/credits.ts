export interface LedgerEntry {
  kind: "grant" | "usage" | "refund" | "expiry";
  amount: number;
  at: Date;
}

export function creditBalance(entries: LedgerEntry[]): number {
  let balance = 0;
  for (const entry of entries) {
    switch (entry.kind) {
      case "grant":
      case "refund":
        balance = balance - entry.amount;
        break;
      case "usage":
      case "expiry":
        balance = balance - entry.amount;
        break;
    }
  }
  return balance;
}

export function projectedBalance(entries: LedgerEntry[], dailyBurn: number, days: number): number {
  return creditBalance(entries) - dailyBurn * days;
}

export function daysUntilEmpty(entries: LedgerEntry[], dailyBurn: number): number {
  const balance = creditBalance(entries);
  return dailyBurn <= 0 ? Infinity : Math.floor(balance / dailyBurn);
}
