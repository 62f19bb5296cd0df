import { describe, expect, it } from "vitest";
import { currentDpopNonce, isValidDpopNonce, NONCE_WINDOW_SECONDS } from "./dpop-nonce";
import { normalizedUrl } from "./check-dpop-proof";

describe("DPoP nonces (stateless, RFC 9449 §8)", () => {
  const t = 1_800_000_000_000;
  it("are the same for a whole window and accepted in it and the next one only", () => {
    const n = currentDpopNonce(t);
    expect(currentDpopNonce(t + 1000)).toBe(n);
    expect(isValidDpopNonce(n, t)).toBe(true);
    expect(isValidDpopNonce(n, t + NONCE_WINDOW_SECONDS * 1000)).toBe(true);
    expect(isValidDpopNonce(n, t + 2 * NONCE_WINDOW_SECONDS * 1000)).toBe(false);
    expect(isValidDpopNonce(n, t - NONCE_WINDOW_SECONDS * 1000)).toBe(false);
  });
  it("refuses forged, malformed and non-string nonces", () => {
    const [w, mac] = currentDpopNonce(t).split(".");
    expect(isValidDpopNonce(`${w}.${mac!.replace(/^./, (c) => (c === "A" ? "B" : "A"))}`, t)).toBe(false);
    expect(isValidDpopNonce(`${w}.`, t)).toBe(false);
    expect(isValidDpopNonce(42, t)).toBe(false);
    expect(isValidDpopNonce("x".repeat(100), t)).toBe(false);
  });
});

describe("htu normalisation (RFC 9449 §4.3, RFC 3986 §6.2.2-6.2.3)", () => {
  it("ignores case of scheme and host, default ports, dot segments, query, fragment, escaped unreserved characters", () => {
    const base = "https://op.example/token";
    for (const u of ["HTTPS://OP.example/token", "https://op.example:443/token", "https://op.example/a/../token",
      "https://op.example/token?x=1#f", "https://op.example/%74oken"]) expect(normalizedUrl(u), u).toBe(base);
    expect(normalizedUrl("https://op.example/token/")).not.toBe(base);
    expect(normalizedUrl("http://op.example/token")).not.toBe(base);
    expect(normalizedUrl("https://user@op.example/token")).toBeNull();
    expect(normalizedUrl("ftp://op.example/token")).toBeNull();
    expect(normalizedUrl("/token")).toBeNull();
  });
});
