import { SignJWT } from "jose";
import { config } from "../config";
import { getClient } from "../clients/get-client";
import { getActiveKey, SIGNING_ALG, type SigningAlg } from "../keys/key-store";
import { signSpan, tracing } from "../tracing/spans";

/** The one event of a Back-Channel Logout 1.0 logout token (§2.4). */
export const BACKCHANNEL_LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout";
/** Lifetime of a logout token: a few minutes (§2.4 recommends a short one); it is signed again at each attempt. */
const LOGOUT_TOKEN_TTL = 120;

/**
 * A logout token (Back-Channel Logout 1.0 §2.4): a JWT signed with our active key (the JWKS
 * publishes it), `typ: logout+jwt` (§2.4 and RFC 8725 explicit typing), with iss, aud, iat, exp,
 * jti, events, `sub` (pairwise, the client's) and `sid` when known. Never a `nonce` (§2.4).
 * "The same keys are used to sign and encrypt Logout Tokens as are used for ID Tokens" (§2.4), and the RP validates
 * its signature "in the same way that an ID Token signature is validated" (§2.6): so it is signed with the client's
 * `id_token_signed_response_alg` key, `alg` when given, else read from the cached client record (the outbox reads
 * the same record to post it: no extra statement); RS256 for a client no longer registered.
 */
export async function signLogoutToken({ clientId, sub, sid, jti, alg, now = Date.now() }: {
  clientId: string; sub: string; sid?: string | null; jti: string; alg?: SigningAlg; now?: number;
}): Promise<string> {
  alg ??= (await getClient({ clientId }))?.idTokenSignedResponseAlg ?? SIGNING_ALG;
  const key = await getActiveKey("sig", alg);
  const iat = Math.floor(now / 1000);
  const claims: Record<string, unknown> = { events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } };
  if (sid) claims.sid = sid;
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg, kid: key.kid, typ: "logout+jwt" })
    .setIssuer(config().ISSUER)
    .setAudience(clientId)
    .setSubject(sub)
    .setIssuedAt(iat)
    .setExpirationTime(iat + LOGOUT_TOKEN_TTL)
    .setJti(jti);
  // A `jwt.sign` span (alg, kid) when traces are on (lib/tracing).
  return tracing.on ? signSpan(alg, key.kid, () => jwt.sign(key.privateKey)) : jwt.sign(key.privateKey);
}
