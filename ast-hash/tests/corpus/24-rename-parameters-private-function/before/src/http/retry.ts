export interface RetryOptions {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  retryOn: (status: number) => boolean;
}

const DEFAULTS: RetryOptions = {
  attempts: 4,
  baseDelayMs: 200,
  maxDelayMs: 5000,
  retryOn: (status) => status === 429 || status >= 500,
};

function backoffDelay(n: number, opts: RetryOptions, jitter: () => number): number {
  const exponential = opts.baseDelayMs * 2 ** n;
  const capped = Math.min(exponential, opts.maxDelayMs);
  return Math.floor(capped / 2 + jitter() * (capped / 2));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function fetchWithRetry(url: string, init: RequestInit = {}, options: Partial<RetryOptions> = {}): Promise<Response> {
  const settings = { ...DEFAULTS, ...options };
  let lastResponse: Response | undefined;
  for (let attempt = 0; attempt < settings.attempts; attempt++) {
    lastResponse = await fetch(url, init);
    if (!settings.retryOn(lastResponse.status)) {
      return lastResponse;
    }
    await sleep(backoffDelay(attempt, settings, Math.random));
  }
  return lastResponse as Response;
}
