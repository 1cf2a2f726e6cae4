const DEFAULTS = Object.freeze({
  retries: 3,
  timeoutMs: 10_000,
  baseUrl: "https://api.example.com",
  userAgent: "acme-sdk/2.4",
});

function fromEnv(env) {
  const options = {};
  if (env.ACME_API_URL) options.baseUrl = env.ACME_API_URL;
  if (env.ACME_TIMEOUT_MS) options.timeoutMs = Number(env.ACME_TIMEOUT_MS);
  if (env.ACME_RETRIES) options.retries = Number(env.ACME_RETRIES);
  return options;
}

// Precedence: explicit options > environment > defaults.
export function resolveClientOptions(userOptions = {}, env = process.env) {
  const merged = { ...DEFAULTS, ...fromEnv(env), ...userOptions };
  if (merged.retries < 0) merged.retries = 0;
  if (!Number.isFinite(merged.timeoutMs) || merged.timeoutMs <= 0) merged.timeoutMs = DEFAULTS.timeoutMs;
  return Object.freeze(merged);
}

export function describeOptions(options) {
  return `${options.baseUrl} (timeout ${options.timeoutMs} ms, ${options.retries} retries)`;
}
