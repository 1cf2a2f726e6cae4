export interface SessionCookieConfig {
  name: string;
  httpOnly: boolean;
  secure: boolean;
  sameSite: "strict" | "lax" | "none";
  maxAgeSeconds: number;
}

export const sessionCookie: SessionCookieConfig = {
  name: "sid",
  httpOnly: true,
  secure: false,
  sameSite: "lax",
  maxAgeSeconds: 60 * 60 * 24 * 7,
};

export function cookieHeader(value: string, config: SessionCookieConfig = sessionCookie): string {
  const parts = [`${config.name}=${value}`, `Max-Age=${config.maxAgeSeconds}`, "Path=/"];
  if (config.httpOnly) parts.push("HttpOnly");
  if (config.secure) parts.push("Secure");
  parts.push(`SameSite=${config.sameSite[0].toUpperCase()}${config.sameSite.slice(1)}`);
  return parts.join("; ");
}
