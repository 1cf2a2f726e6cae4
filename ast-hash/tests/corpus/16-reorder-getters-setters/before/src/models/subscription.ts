export type BillingInterval = "monthly" | "annual";

export class Subscription {
  #seats: number;
  #interval: BillingInterval;
  #cancelledAt: Date | null = null;

  constructor(readonly id: string, readonly pricePerSeatCents: number, seats: number, interval: BillingInterval) {
    this.#seats = seats;
    this.#interval = interval;
  }

  get seats(): number {
    return this.#seats;
  }

  set seats(value: number) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError("seats must be a positive integer");
    this.#seats = value;
  }

  get interval(): BillingInterval {
    return this.#interval;
  }

  set interval(value: BillingInterval) {
    this.#interval = value;
  }

  get isActive(): boolean {
    return this.#cancelledAt === null;
  }

  get monthlyCents(): number {
    const base = this.pricePerSeatCents * this.#seats;
    return this.#interval === "annual" ? Math.round(base * 0.85) : base;
  }

  cancel(at: Date = new Date()): void {
    this.#cancelledAt = at;
  }
}
