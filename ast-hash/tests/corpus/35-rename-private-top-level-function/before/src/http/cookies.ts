export interface CookieOptions {
  maxAgeSeconds?: number;
  path?: string;
  domain?: string;
  secure?: boolean;
  httpOnly?: boolean;
  sameSite?: "Strict" | "Lax" | "None";
}

function encodeValue(value: string): string {
  return encodeURIComponent(value).replace(/%(2[346B]|5E|60|7C)/g, decodeURIComponent);
}

function attributes(options: CookieOptions): string[] {
  const attrs: string[] = [];
  if (options.maxAgeSeconds !== undefined) attrs.push(`Max-Age=${Math.floor(options.maxAgeSeconds)}`);
  if (options.domain) attrs.push(`Domain=${options.domain}`);
  attrs.push(`Path=${options.path ?? "/"}`);
  if (options.secure) attrs.push("Secure");
  if (options.httpOnly) attrs.push("HttpOnly");
  if (options.sameSite) attrs.push(`SameSite=${options.sameSite}`);
  return attrs;
}

export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  return [`${name}=${encodeValue(value)}`, ...attributes(options)].join("; ");
}

export function clearCookie(name: string, options: CookieOptions = {}): string {
  return serializeCookie(name, "", { ...options, maxAgeSeconds: 0 });
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const index = part.indexOf("=");
    if (index < 0) continue;
    const key = part.slice(0, index).trim();
    if (key && !(key in result)) result[key] = decodeURIComponent(part.slice(index + 1).trim());
  }
  return result;
}
