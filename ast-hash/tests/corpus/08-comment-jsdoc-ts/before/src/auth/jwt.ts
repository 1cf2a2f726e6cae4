import { createHmac, timingSafeEqual } from "node:crypto";

export interface JwtClaims {
  sub: string;
  iat: number;
  exp: number;
  scope?: string[];
}

const HEADER = { alg: "HS256", typ: "JWT" };

function base64url(input: Buffer | string): string {
  return Buffer.from(input).toString("base64").replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
}

function sign(data: string, secret: string): string {
  return base64url(createHmac("sha256", secret).update(data).digest());
}

// create a token
export function issueToken(claims: JwtClaims, secret: string): string {
  const head = base64url(JSON.stringify(HEADER));
  const body = base64url(JSON.stringify(claims));
  return `${head}.${body}.${sign(`${head}.${body}`, secret)}`;
}

export function verifyToken(token: string, secret: string, nowSeconds: number): JwtClaims | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [head, body, signature] = parts;
  const expected = Buffer.from(sign(`${head}.${body}`, secret));
  const actual = Buffer.from(signature);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  const claims = JSON.parse(Buffer.from(body, "base64").toString("utf8")) as JwtClaims;
  return claims.exp > nowSeconds ? claims : null;
}
