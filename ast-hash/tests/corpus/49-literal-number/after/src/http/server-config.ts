import type { Server } from "node:http";

export const SERVER_DEFAULTS = {
  port: 8080,
  keepAliveTimeoutMs: 65_000,
  headersTimeoutMs: 66_000,
  requestTimeoutMs: 120_000,
  maxHeaderSize: 16 * 1024,
} as const;

type Overrides = Partial<Record<keyof typeof SERVER_DEFAULTS, number>>;

export function applyServerTimeouts(server: Server, overrides: Overrides = {}): void {
  const settings = { ...SERVER_DEFAULTS, ...overrides };
  server.keepAliveTimeout = settings.keepAliveTimeoutMs;
  server.headersTimeout = settings.headersTimeoutMs;
  server.requestTimeout = settings.requestTimeoutMs;
}

export function portFromEnv(value: string | undefined): number {
  const parsed = Number.parseInt(value ?? "", 10);
  if (Number.isNaN(parsed) || parsed <= 0 || parsed > 65535) {
    return SERVER_DEFAULTS.port;
  }
  return parsed;
}
