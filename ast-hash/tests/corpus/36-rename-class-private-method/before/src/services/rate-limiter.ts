export interface RateLimiterOptions {
  capacity: number;
  refillPerSecond: number;
  now?: () => number;
}

export class TokenBucket {
  #tokens: number;
  #lastRefill: number;
  readonly #capacity: number;
  readonly #refillPerSecond: number;
  readonly #now: () => number;

  constructor({ capacity, refillPerSecond, now = Date.now }: RateLimiterOptions) {
    this.#capacity = capacity;
    this.#refillPerSecond = refillPerSecond;
    this.#now = now;
    this.#tokens = capacity;
    this.#lastRefill = now();
  }

  #refill(): void {
    const current = this.#now();
    const elapsedSeconds = (current - this.#lastRefill) / 1000;
    this.#tokens = Math.min(this.#capacity, this.#tokens + elapsedSeconds * this.#refillPerSecond);
    this.#lastRefill = current;
  }

  tryRemove(count = 1): boolean {
    this.#refill();
    if (this.#tokens < count) return false;
    this.#tokens -= count;
    return true;
  }

  get available(): number {
    this.#refill();
    return Math.floor(this.#tokens);
  }

  retryAfterMs(count = 1): number {
    this.#refill();
    const missing = count - this.#tokens;
    return missing <= 0 ? 0 : Math.ceil((missing / this.#refillPerSecond) * 1000);
  }
}
