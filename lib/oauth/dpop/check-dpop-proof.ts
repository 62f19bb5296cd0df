import {
  constants, createHash, createPublicKey, verify as verifySignature, type JsonWebKey, type KeyObject,
} from "node:crypto";
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

  const [h, p, sig] = value.split(".") as [string, string, string];
  const header = jsonObject(h);
  const payload = jsonObject(p);
  if (!header || !payload) throw bad("the DPoP proof is malformed");
  // RFC 7515 §4.1.11: no extension we would have to understand (this also refuses `b64: false`).
  if (header.crit !== undefined) throw bad("the DPoP proof must not have crit");
  if (header.typ !== "dpop+jwt") throw bad("the DPoP proof's typ must be dpop+jwt");
  const alg = header.alg;
  if (typeof alg !== "string" || !(DPOP_SIGNING_ALGS as readonly string[]).includes(alg)) {
    throw bad(`the DPoP proof's alg must be one of ${DPOP_SIGNING_ALGS.join(", ")}`);
  }
  const { jkt, key } = proofKey(header.jwk, alg, bad);
  let verified = false;
  try {
    verified = verifySignature("sha256", Buffer.from(`${h}.${p}`), verifyKey(alg, key), Buffer.from(sig, "base64url"));
  } catch { /* a signature of the wrong size: not verified */ }
  if (!verified) throw bad("the DPoP proof's signature does not verify with its jwk");

  const { jti, htm, htu, iat } = payload;
  if (typeof jti !== "string" || !jti || jti.length > 256) throw bad("the DPoP proof must have a jti (at most 256 characters)");
  if (typeof htm !== "string" || typeof htu !== "string") throw bad("the DPoP proof must have htm and htu");
  if (typeof iat !== "number" || !Number.isFinite(iat)) throw bad("the DPoP proof must have a numeric iat");
  if (payload.exp !== undefined && !(typeof payload.exp === "number" && payload.exp > nowMs / 1000)) {
    throw bad("the DPoP proof has expired (exp)");
  }
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

  const reserved = await reserveJwtId({ kind: "dpop_proof", issuer: jkt, jti,
    expiresAt: new Date((Math.ceil(iat) + window + 1) * 1000) });
  if (!reserved) throw bad("the DPoP proof has already been used (jti)");
  return { jkt };
}

/** A base64url JSON object (a JWS header or payload), or null. */
function jsonObject(part: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Imported public keys by thumbprint: a client signs every proof with the same key (bounded, oldest out). */
const KEYS = new Map<string, KeyObject>();
const MAX_KEYS = 1000;

/**
 * The header's `jwk`: a public RSA (≥ 2048 bits) or EC P-256 key matching the algorithm, with no private or
 * symmetric member; returns its RFC 7638 thumbprint (SHA-256 of the required members in lexicographic order,
 * the `cnf.jkt` of RFC 9449 §6.1) and the key. Verified with node:crypto (synchronous): jose's WebCrypto
 * import, thumbprint and verify cost about 1 ms of CPU per proof under load, node:crypto a tenth of it.
 */
export function proofKey(value: unknown, alg: string, bad: (d: string) => Error): { jkt: string; key: KeyObject } {
  if (!value || typeof value !== "object" || Array.isArray(value)) throw bad("the DPoP proof must carry its public key in jwk");
  const jwk = value as Record<string, unknown>;
  if (PRIVATE_MEMBERS.some((m) => m in jwk)) throw bad("the DPoP proof's jwk must not contain a private or symmetric key");
  const str = (v: unknown) => typeof v === "string" && v.length > 0 && v.length <= 1024;
  let members: string;
  if (alg === "ES256") {
    if (jwk.kty !== "EC" || jwk.crv !== "P-256" || !str(jwk.x) || !str(jwk.y)) {
      throw bad("an ES256 DPoP proof needs an EC P-256 jwk");
    }
    members = `{"crv":"P-256","kty":"EC","x":${JSON.stringify(jwk.x)},"y":${JSON.stringify(jwk.y)}}`;
  } else {
    if (jwk.kty !== "RSA" || !str(jwk.n) || !str(jwk.e)) throw bad(`an ${alg} DPoP proof needs an RSA jwk`);
    members = `{"e":${JSON.stringify(jwk.e)},"kty":"RSA","n":${JSON.stringify(jwk.n)}}`;
  }
  const jkt = createHash("sha256").update(members).digest("base64url");
  let key = KEYS.get(jkt);
  if (!key) {
    try {
      key = jwk.kty === "EC"
        ? createPublicKey({ key: { kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y } as JsonWebKey, format: "jwk" })
        : createPublicKey({ key: { kty: "RSA", n: jwk.n, e: jwk.e } as JsonWebKey, format: "jwk" });
    } catch {
      throw bad("the DPoP proof's jwk is not a valid public key");
    }
    if (key.asymmetricKeyType === "rsa" && (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) {
      throw bad(`an ${alg} DPoP proof needs an RSA key of at least 2048 bits`);
    }
    if (KEYS.size >= MAX_KEYS) KEYS.delete(KEYS.keys().next().value!);
    KEYS.set(jkt, key);
  }
  return { jkt, key };
}

/** node:crypto verify options for a JWS algorithm (RFC 7518 §3.3-3.5): ECDSA as r||s, PSS with a 32-byte salt. */
function verifyKey(alg: string, key: KeyObject) {
  if (alg === "ES256") return { key, dsaEncoding: "ieee-p1363" as const };
  if (alg === "PS256") return { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 };
  return { key, padding: constants.RSA_PKCS1_PADDING };
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
