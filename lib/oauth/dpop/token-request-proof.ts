import type { RegisteredClient } from "../../clients/get-client";
import { PATHS } from "../../http/endpoints";
import { checkDpopProof } from "./check-dpop-proof";
import { invalidDpopProof } from "./dpop-errors";
import { currentDpopNonce } from "./dpop-nonce";

/** The DPoP proof of a token request, once verified: the key the new tokens are bound to. */
export interface TokenRequestDpop {
  /** JWK SHA-256 thumbprint of the proof's key (RFC 9449 §6.1 `cnf.jkt`). */
  jkt: string;
}

/**
 * The token endpoint's DPoP step (RFC 9449 §5): with a `DPoP` header, the proof must be valid for
 * `POST {token_endpoint}` and carry one of our nonces (the token endpoint always requires one: a missing or
 * stale nonce is `400 use_dpop_nonce` with a fresh `DPoP-Nonce`); without one, a client registered with
 * `dpop_bound_access_tokens` is refused with `400 invalid_dpop_proof` (RFC 9449 §5.2 says the server "MUST
 * reject" such a request without naming a code; this is the code of a missing or bad proof).
 */
export async function tokenRequestProof({ req, client, now }: {
  req: Request; client: Pick<RegisteredClient, "dpopBoundAccessTokens">; now: Date;
}): Promise<TokenRequestDpop | undefined> {
  const proof = await checkDpopProof(req.headers, {
    method: req.method, path: PATHS.token, place: "token", requireNonce: true, nowMs: now.getTime(),
  });
  if (!proof && client.dpopBoundAccessTokens) {
    throw invalidDpopProof("a DPoP proof is required for this client (dpop_bound_access_tokens)", "token");
  }
  return proof;
}

/** Headers of a token response to a DPoP request: a fresh nonce for the client's next proof (RFC 9449 §8.2). */
export function dpopResponseHeaders(dpop: TokenRequestDpop | undefined, now = new Date()): Record<string, string> {
  return dpop ? { "DPoP-Nonce": currentDpopNonce(now.getTime()) } : {};
}
