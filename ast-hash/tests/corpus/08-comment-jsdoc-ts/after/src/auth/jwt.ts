import { createHmac, timingSafeEqual } from "node:crypto";

/** Claims carried by our access tokens (registered claim names from RFC 7519). */
export interface JwtClaims {
  /** Subject: the user id. */
  sub: string;
  /** Issued at, in seconds since the epoch. */
  iat: number;
  /** Expiry, in seconds since the epoch. */
  exp: number;
  scope?: string[];
}

// Only HS256 is supported; a token claiming another "alg" fails the signature check.
const HEADER = { alg: "HS256", typ: "JWT" };

/** Base64url without padding, as required by RFC 7515, section 2. */
function base64url(input: Buffer | string): string {
  return Buffer.from(input).toString("base64").replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
}

function sign(data: string, secret: string): string {
  return base64url(createHmac("sha256", secret).update(data).digest()); // HMAC-SHA256
}

/**
 * Issues a compact JWS for the given claims.
 *
 * @param claims - what the token asserts; `exp` must already be set
 * @param secret - the HS256 signing key (see docs/auth.md for key rotation)
 * @returns `header.payload.signature`
 */
export function issueToken(claims: JwtClaims, secret: string): string {
  const head = base64url(JSON.stringify(HEADER));
  const body = base64url(JSON.stringify(claims));
  return `${head}.${body}.${sign(`${head}.${body}`, secret)}`;
}

/**
 * Verifies the signature and the expiry of a token.
 *
 * @returns the claims, or `null` when the token is malformed, forged or expired
 */
export function verifyToken(token: string, secret: string, nowSeconds: number): JwtClaims | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [head, body, signature] = parts;
  const expected = Buffer.from(sign(`${head}.${body}`, secret));
  const actual = Buffer.from(signature);
  // Lengths must match first: timingSafeEqual throws on buffers of different sizes.
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  const claims = JSON.parse(Buffer.from(body, "base64").toString("utf8")) as JwtClaims;
  return claims.exp > nowSeconds ? claims : null; /* `exp` is exclusive */
}
