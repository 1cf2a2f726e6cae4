import { describe, expect, it } from "vitest";
import { issueToken, verifyToken } from "./jwt";

const SECRET = "test-secret-do-not-use";
const CLAIMS = { sub: "user_1", iat: 100, exp: 200 };

describe("jwt", () => {
  it("round-trips claims", () => {
    const token = issueToken(CLAIMS, SECRET);
    expect(verifyToken(token, SECRET, 150)).toEqual(CLAIMS);
  });

  it("rejects expired tokens", () => {
    const token = issueToken(CLAIMS, SECRET);
    expect(verifyToken(token, SECRET, 200)).toBeNull();
  });

  it("rejects a token signed with another secret", () => {
    const token = issueToken(CLAIMS, "other-secret");
    expect(verifyToken(token, SECRET, 150)).toBeNull();
  });

  it("rejects malformed tokens", () => {
    expect(verifyToken("not-a-token", SECRET, 150)).toBeNull();
    expect(verifyToken("a.b", SECRET, 150)).toBeNull();
    expect(verifyToken("a.b.c.d", SECRET, 150)).toBeNull();
  });
});
