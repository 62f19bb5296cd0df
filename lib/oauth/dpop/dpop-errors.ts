import { CLIENT_KEY_ALGS } from "../../clients/client-security";
import { OAuthError } from "../errors";
import { currentDpopNonce } from "./dpop-nonce";

/**
 * The proof algorithms we verify (RFC 9449 §5.1 `dpop_signing_alg_values_supported`): the asymmetric ones
 * accepted from clients everywhere else (client assertions, request objects).
 */
export const DPOP_SIGNING_ALGS = CLIENT_KEY_ALGS;

/** Where a proof is checked: the token endpoint answers 400 (RFC 9449 §5), a resource 401 + challenge (§7.1). */
export type DpopPlace = "token" | "resource";

/** RFC 7235 quoted-string characters that RFC 6750 §3 allows in error fields. */
const quoted = (s: string) => s.replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, "");

/** The `DPoP` challenge (RFC 9449 §7.1): `algs` always, `error` / `error_description` for an error. */
export function dpopChallenge(err?: { error: string; description: string }): string {
  const algs = `algs="${DPOP_SIGNING_ALGS.join(" ")}"`;
  return err ? `DPoP error="${quoted(err.error)}", error_description="${quoted(err.description)}", ${algs}` : `DPoP ${algs}`;
}

/**
 * `invalid_dpop_proof` (RFC 9449 §5, §7.1): 400 at the token endpoint, 401 with a `DPoP` challenge at
 * a protected resource.
 */
export function invalidDpopProof(description: string, place: DpopPlace): OAuthError {
  const err = new OAuthError("invalid_dpop_proof", description, place === "token" ? 400 : 401);
  if (place === "resource") err.headers["WWW-Authenticate"] = dpopChallenge(err);
  return err;
}

/**
 * `use_dpop_nonce` (RFC 9449 §8, §9) with a fresh `DPoP-Nonce`: the client retries with a proof that
 * carries it (oauth4webapi and openid-client do).
 */
export function useDpopNonce(description: string, place: DpopPlace, nowMs = Date.now()): OAuthError {
  const err = new OAuthError("use_dpop_nonce", description, place === "token" ? 400 : 401);
  err.headers["DPoP-Nonce"] = currentDpopNonce(nowMs);
  if (place === "resource") err.headers["WWW-Authenticate"] = dpopChallenge(err);
  return err;
}
