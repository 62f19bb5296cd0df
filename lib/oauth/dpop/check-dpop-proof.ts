import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from "jose";
import { sha256 } from "../../crypto";
import { issuerBase } from "../../http/issuer-base";
import { reserveJwtId } from "../../security/replay-cache";
import { clockSkewSeconds } from "../clock-skew";
import { DPOP_SIGNING_ALGS, invalidDpopProof, useDpopNonce, type DpopPlace } from "./dpop-errors";
import { isValidDpopNonce } from "./dpop-nonce";

/** A proof's `iat` may differ from our clock by this much, plus CLOCK_SKEW_SECONDS (default 60: ±120 s). */
export const DPOP_IAT_WINDOW_SECONDS = 60;
/** Longest `DPoP` header read (an RSA-4096 public key and the claims fit in well under 3 KB). */
const MAX_PROOF_LENGTH = 8192;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** JWK members that only a private (or symmetric) key has (RFC 7518 §6.2.2, §6.3.2, §6.4.1). */
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];

/** A verified proof: the thumbprint of its key (RFC 7638, the `cnf.jkt` of RFC 9449 §6.1). */
export interface DpopProof {
  jkt: string;
}

export interface DpopProofRules {
  /** The request's method (`htm`). */
  method: string;
  /** The endpoint's path under the issuer (`htu` is compared with the issuer-based URL, never the Host header). */
  path: string;
  place: DpopPlace;
  /** At a protected resource: the access token presented, for `ath` (RFC 9449 §4.3 step 11). */
  accessToken?: string;
  /** Refuse a proof without one of our nonces (`use_dpop_nonce`); a nonce that is sent is always checked. */
  requireNonce: boolean;
  nowMs?: number;
}

/**
 * Checks the request's `DPoP` header (RFC 9449 §4.3): undefined when there is none, the proof's key
 * thumbprint when it is valid, else an `invalid_dpop_proof` / `use_dpop_nonce` error for `place`.
 * Checks, in order: one compact JWS; `typ` dpop+jwt; alg RS256/PS256/ES256; a public `jwk` (no private
 * members) that verifies the signature; `jti`, `htm`, `htu`, `iat` present; `htm` = method; `htu` = the
 * endpoint's URL (RFC 3986 §6.2.2-6.2.3 normalised, query and fragment ignored); `iat` within
 * ±(60 s + CLOCK_SKEW_SECONDS); `ath` when a token is presented; the nonce; last, the `jti` reserved once for
 * all instances (the database replay cache, kind dpop_proof, keyed by the thumbprint) until the proof's
 * `iat` window has passed.
 */
export async function checkDpopProof(headers: Headers, rules: DpopProofRules): Promise<DpopProof | undefined> {
  const value = headers.get("dpop");
  if (value === null) return undefined;
  const { place } = rules;
  const nowMs = rules.nowMs ?? Date.now();
  const bad = (description: string) => invalidDpopProof(description, place);
  if (value.length > MAX_PROOF_LENGTH) throw bad("the DPoP proof is too long");
  if (!COMPACT_JWS.test(value)) throw bad("the DPoP header must be exactly one JWT (compact serialization)");

  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(value);
  } catch {
    throw bad("the DPoP proof is malformed");
  }
  if (header.typ !== "dpop+jwt") throw bad("the DPoP proof's typ must be dpop+jwt");
  const alg = header.alg;
  if (typeof alg !== "string" || !(DPOP_SIGNING_ALGS as readonly string[]).includes(alg)) {
    throw bad(`the DPoP proof's alg must be one of ${DPOP_SIGNING_ALGS.join(", ")}`);
  }
  const jwk = publicJwk(header.jwk, alg, bad);

  let payload: Record<string, unknown>;
  try {
    const key = await importJWK(jwk, alg);
    ({ payload } = await jwtVerify(value, key, { algorithms: [alg], typ: "dpop+jwt" }));
  } catch {
    throw bad("the DPoP proof's signature does not verify with its jwk");
  }

  const { jti, htm, htu, iat } = payload;
  if (typeof jti !== "string" || !jti || jti.length > 256) throw bad("the DPoP proof must have a jti (at most 256 characters)");
  if (typeof htm !== "string" || typeof htu !== "string") throw bad("the DPoP proof must have htm and htu");
  if (typeof iat !== "number" || !Number.isFinite(iat)) throw bad("the DPoP proof must have a numeric iat");
  if (htm !== rules.method) throw bad(`the DPoP proof's htm does not match the request method ${rules.method}`);
  const expected = endpointUrl(rules.path);
  if (!expected || normalizedUrl(htu) !== expected) throw bad("the DPoP proof's htu does not match the endpoint URL");
  const window = DPOP_IAT_WINDOW_SECONDS + clockSkewSeconds();
  if (Math.abs(iat - nowMs / 1000) > window) {
    throw bad(`the DPoP proof's iat is not within ${window} seconds of the server's time`);
  }
  if (rules.accessToken !== undefined) {
    if (payload.ath === undefined) throw bad("the DPoP proof must have ath (the access token's hash)");
    if (payload.ath !== sha256(rules.accessToken)) throw bad("the DPoP proof's ath does not match the access token");
  }
  if (payload.nonce !== undefined || rules.requireNonce) {
    if (payload.nonce === undefined) throw useDpopNonce("the authorization server requires a DPoP nonce", place, nowMs);
    if (!isValidDpopNonce(payload.nonce, nowMs)) throw useDpopNonce("the DPoP nonce is invalid or stale", place, nowMs);
  }

  const jkt = await calculateJwkThumbprint(jwk, "sha256");
  const reserved = await reserveJwtId({ kind: "dpop_proof", issuer: jkt, jti,
    expiresAt: new Date((Math.ceil(iat) + window + 1) * 1000) });
  if (!reserved) throw bad("the DPoP proof has already been used (jti)");
  return { jkt };
}

/** The header's `jwk`: a public RSA (≥ 2048 bits) or P-256 key matching the algorithm, nothing private. */
function publicJwk(value: unknown, alg: string, bad: (d: string) => Error): JWK {
  if (!value || typeof value !== "object" || Array.isArray(value)) throw bad("the DPoP proof must carry its public key in jwk");
  const jwk = value as Record<string, unknown>;
  if (PRIVATE_MEMBERS.some((m) => m in jwk)) throw bad("the DPoP proof's jwk must not contain a private or symmetric key");
  if (alg === "ES256") {
    if (jwk.kty !== "EC" || jwk.crv !== "P-256") throw bad("an ES256 DPoP proof needs an EC P-256 jwk");
  } else if (jwk.kty !== "RSA" || typeof jwk.n !== "string" || jwk.n.length < 342) {
    throw bad(`an ${alg} DPoP proof needs an RSA jwk of at least 2048 bits`);
  }
  return jwk as JWK;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * A URL compared the way RFC 9449 §4.3 asks (RFC 3986 §6.2.2 syntax-based and §6.2.3 scheme-based
 * normalisation): scheme and host lowercased, default port dropped, dot segments removed (all by the
 * WHATWG parser), percent-encoded unreserved characters decoded and other escapes uppercased; query and
 * fragment dropped. Null when it is not an absolute http(s) URL without user info.
 */
export function normalizedUrl(value: string): string | null {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return null;
  }
  if ((u.protocol !== "https:" && u.protocol !== "http:") || u.username || u.password) return null;
  const path = (u.pathname || "/").replace(/%([0-9A-Fa-f]{2})/g, (m, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(c) ? c : `%${hex.toUpperCase()}`;
  });
  return `${u.protocol}//${u.host}${path}`;
}

const ENDPOINT_URLS = new Map<string, string | null>();

/** The issuer-based URL of one of our endpoints, normalised (cached per issuer and path). */
function endpointUrl(path: string): string | null {
  const raw = `${issuerBase()}${path}`;
  let url = ENDPOINT_URLS.get(raw);
  if (url === undefined) {
    url = normalizedUrl(raw);
    if (ENDPOINT_URLS.size < 64) ENDPOINT_URLS.set(raw, url);
  }
  return url;
}
