import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { currentDpopNonce, isValidDpopNonce, NONCE_WINDOW_SECONDS } from "./dpop-nonce";
import { normalizedUrl, proofKey } from "./check-dpop-proof";

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

describe("proof keys (RFC 7638 thumbprints, public keys only)", () => {
  it("computes the thumbprint jose computes, for EC P-256 and RSA", async () => {
    const { calculateJwkThumbprint, exportJWK, generateKeyPair } = await import("jose");
    const bad = (d: string) => new Error(d);
    for (const alg of ["ES256", "RS256", "PS256"]) {
      const { publicKey } = await generateKeyPair(alg, { extractable: true });
      const jwk = await exportJWK(publicKey);
      expect(proofKey({ ...jwk, kid: "k", use: "sig" }, alg, bad).jkt, alg).toBe(await calculateJwkThumbprint(jwk));
    }
  });
  it("refuses private, symmetric, small, mismatched and malformed keys", async () => {
    const { exportJWK, generateKeyPair } = await import("jose");
    const bad = (d: string) => new Error(d);
    const ec = await generateKeyPair("ES256", { extractable: true });
    const small = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ format: "jwk" });
    const privateJwk = await exportJWK(ec.privateKey);
    const publicJwk = await exportJWK(ec.publicKey);
    expect(() => proofKey(privateJwk, "ES256", bad)).toThrow(/private or symmetric/);
    expect(() => proofKey(publicJwk, "RS256", bad)).toThrow(/RSA/);
    expect(() => proofKey({ kty: "oct", k: "c2VjcmV0" }, "ES256", bad)).toThrow(/private or symmetric/);
    expect(() => proofKey({ kty: "EC", crv: "P-256", x: "AAAA", y: "AAAA" }, "ES256", bad)).toThrow(/not a valid public key/);
    expect(() => proofKey(small, "RS256", bad)).toThrow(/2048/);
    expect(() => proofKey("jwk", "ES256", bad)).toThrow(/jwk/);
  });
});
