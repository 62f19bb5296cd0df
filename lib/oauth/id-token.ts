import { hash } from "node:crypto";
import { CompactSign } from "jose";
import { AUTH_REQ_ID_CLAIM } from "../ciba/ciba";
import { config } from "../config";
import { getActiveKey, SIGNING_ALG, type SigningAlg } from "../keys/key-store";
import { pairwiseSubject } from "../subjects/pairwise-subject";
import { signSpan, tracing } from "../tracing/spans";

export interface IdTokenInput {
  /**
   * `idTokenSignedResponseAlg`: the client's registered algorithm (RegisteredClient carries it from the cached client
   * record, no query); RS256 when absent.
   */
  client: { id: string; sectorIdentifier: string; idTokenSignedResponseAlg?: SigningAlg };
  subscriberId: string;
  /** The access token issued beside it (for `at_hash`). */
  accessToken: string;
  acr: string;
  /** RFC 8176 method values. */
  amr: string[];
  authTime: Date;
  nonce?: string | null;
  /** The hint exactly as the client sent it: `login_hint` (e.g. `MSISDN:447700900123`) or the `login_hint_token`. */
  loginHint?: string | null;
  /** Already hashedLoginHint(hint) (CIBA stores only that): the claim as is. */
  hashedLoginHint?: string | null;
  /** mc_authz: the transaction the subscriber authorized (claims `context`, `binding_message`). */
  context?: string | null;
  bindingMessage?: string | null;
  /** The operator session (`sid`, Back-Channel / Front-Channel Logout 1.0): the logout token names it too. */
  sessionId?: string | null;
  /** Seconds since epoch (defaults to now). */
  iat?: number;
  /** CIBA push (CIBA Core §10.3.1): the auth_req_id the pushed id_token answers (claim urn:openid:params:jwt:claim:auth_req_id). */
  authReqId?: string;
  /** CIBA push (CIBA Core §10.3.1): the refresh token pushed beside it (claim urn:openid:params:jwt:claim:rt_hash). */
  refreshToken?: string;
}

/** The pushed id_token's hash of the refresh token delivered with it (CIBA Core §10.3.1). */
export const RT_HASH_CLAIM = "urn:openid:params:jwt:claim:rt_hash";

/**
 * `at_hash`: base64url of the left half of the hash of the access token (OIDC Core §3.1.3.6), the hash being that of
 * the id_token's `alg`: SHA-256 for RS256, PS256 and ES256; SHA-512 for EdDSA with Ed25519 (the curve's own hash, as
 * client libraries compute it: oauth4webapi / openid-client, oidc-token-hash). Also `rt_hash` (CIBA Core §10.3.1).
 */
export function accessTokenHash(accessToken: string, alg: SigningAlg = SIGNING_ALG): string {
  const digest = hash(alg === "EdDSA" ? "sha512" : "sha256", Buffer.from(accessToken, "ascii"), "buffer");
  return digest.subarray(0, digest.length / 2).toString("base64url");
}

/**
 * `hashed_login_hint`: lower-case hex SHA-256 of the hint as the client sent it (Mobile Connect DI
 * profile: for `MSISDN:447700900123` the hash of exactly that text; for a `login_hint_token`, of the
 * token string, never of the number inside it).
 */
export function hashedLoginHint(loginHint: string): string {
  return hash("sha256", loginHint, "hex");
}

/**
 * Signs an id_token (OIDC Core §2) with the active signing key of the client's `id_token_signed_response_alg`
 * (RS256 by default), whose `kid` the JWKS publishes: one map lookup in the cached key set.
 * `sub` is the pairwise PCR for the client's sector, computed without a query; `auth_time` is
 * always present so `max_age` can be honoured by any client.
 */
export async function signIdToken(input: IdTokenInput): Promise<string> {
  const alg = input.client.idTokenSignedResponseAlg ?? SIGNING_ALG;
  const key = await getActiveKey("sig", alg);
  const iat = input.iat ?? Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    azp: input.client.id,
    acr: input.acr,
    amr: input.amr,
    auth_time: Math.floor(input.authTime.getTime() / 1000),
    at_hash: accessTokenHash(input.accessToken, alg),
  };
  if (input.nonce) claims.nonce = input.nonce;
  if (input.loginHint) claims.hashed_login_hint = hashedLoginHint(input.loginHint);
  else if (input.hashedLoginHint) claims.hashed_login_hint = input.hashedLoginHint;
  // mc_authz (authorization): the id_token records what was authorized, as shown to the subscriber
  if (input.context != null) claims.context = input.context;
  if (input.bindingMessage != null) claims.binding_message = input.bindingMessage;
  if (input.sessionId) claims.sid = input.sessionId;
  if (input.authReqId) claims[AUTH_REQ_ID_CLAIM] = input.authReqId;
  // rt_hash: as at_hash (the same hash), of the refresh token
  if (input.authReqId && input.refreshToken) claims[RT_HASH_CLAIM] = accessTokenHash(input.refreshToken, alg);
  claims.iss = config().ISSUER;
  claims.sub = pairwiseSubject({ subscriberId: input.subscriberId, sectorIdentifier: input.client.sectorIdentifier });
  claims.aud = input.client.id;
  claims.iat = iat;
  claims.exp = iat + config().ACCESS_TOKEN_TTL;
  // jose's CompactSign over the claims serialised once (SignJWT's setters copy and re-check each claim: ~3 % of a
  // flow's CPU); the header and signature are jose's as before.
  const jwt = new CompactSign(Buffer.from(JSON.stringify(claims))).setProtectedHeader({ alg, kid: key.kid, typ: "JWT" });
  // A `jwt.sign` span (alg, kid) under the request's when traces are on (lib/tracing).
  return tracing.on ? signSpan(alg, key.kid, () => jwt.sign(key.privateKey)) : jwt.sign(key.privateKey);
}
