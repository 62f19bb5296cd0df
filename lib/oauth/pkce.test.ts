import { describe, expect, it } from "vitest";
import { isWellFormedVerifier, pkceMatches, s256Challenge } from "./pkce";

describe("PKCE S256 (RFC 7636)", () => {
  it("computes the Appendix B example challenge", () => {
    expect(s256Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  });

  it("accepts 43 to 128 unreserved characters only", () => {
    expect(isWellFormedVerifier("a".repeat(43))).toBe(true);
    expect(isWellFormedVerifier("a".repeat(128))).toBe(true);
    expect(isWellFormedVerifier("a".repeat(42))).toBe(false);
    expect(isWellFormedVerifier("a".repeat(129))).toBe(false);
    expect(isWellFormedVerifier(`${"a".repeat(42)}+`)).toBe(false);
  });

  it("matches only the stored S256 challenge and refuses a downgrade either way", () => {
    const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    const challenge = s256Challenge(verifier);
    expect(pkceMatches({ verifier, challenge, method: "S256" })).toBe(true);
    expect(pkceMatches({ verifier: `${verifier}x`, challenge, method: "S256" })).toBe(false);
    expect(pkceMatches({ verifier, challenge: verifier, method: "plain" })).toBe(false);
    expect(pkceMatches({ verifier, challenge: null, method: null })).toBe(false);
    expect(pkceMatches({ verifier: undefined, challenge, method: "S256" })).toBe(false);
    expect(pkceMatches({ verifier: undefined, challenge: null, method: null })).toBe(true);
  });
});
