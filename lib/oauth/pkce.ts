import { createHash } from "node:crypto";
import { safeEqual } from "../crypto";

/** RFC 7636 §4.1: code_verifier = 43*128unreserved. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** Whether a `code_verifier` has the shape RFC 7636 §4.1 requires. */
export function isWellFormedVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

/** The S256 challenge of a verifier: BASE64URL(SHA256(ASCII(code_verifier))) (RFC 7636 §4.2). */
export function s256Challenge(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

/**
 * Checks a token request's verifier against what the authorization request stored (RFC 7636 §4.6).
 * Only S256 exists here; a verifier without a stored challenge, or a challenge without a verifier,
 * fails too (PKCE downgrade protection, RFC 9700 §2.1.1).
 */
export function pkceMatches({ verifier, challenge, method }: {
  verifier: string | undefined; challenge: string | null; method: string | null;
}): boolean {
  if (!verifier && !challenge) return true;
  if (!verifier || !challenge || method !== "S256") return false;
  return safeEqual(s256Challenge(verifier), challenge);
}
