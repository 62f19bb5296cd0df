import type { RegisteredClient } from "../../clients/get-client";
import { InvalidRequest } from "../errors";

/**
 * PKCE (RFC 7636 §4.3) with downgrade protection (RFC 9700 §2.1.1): only `S256`; a challenge
 * without a method would mean `plain` and is refused; public clients must send one.
 */
export function validatePkce({ challenge, method, client }: {
  challenge: string | undefined; method: string | undefined; client: RegisteredClient;
}): { codeChallenge?: string; codeChallengeMethod?: "S256" } {
  if (challenge === undefined) {
    if (method !== undefined) throw new InvalidRequest("code_challenge is missing");
    if (client.isPublic) throw new InvalidRequest("code_challenge (PKCE S256) is required for public clients");
    return {};
  }
  if (method !== "S256") throw new InvalidRequest("code_challenge_method must be S256 (plain is not allowed)");
  // BASE64URL(SHA-256(verifier)) is 43 characters; RFC 7636 §4.2 bounds challenges at 43..128
  if (!/^[A-Za-z0-9_-]{43,128}$/.test(challenge)) throw new InvalidRequest("code_challenge is invalid");
  return { codeChallenge: challenge, codeChallengeMethod: "S256" };
}
