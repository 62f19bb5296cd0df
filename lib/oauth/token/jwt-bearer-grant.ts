import type { JWTPayload } from "jose";
import type { RegisteredClient } from "../../clients/get-client";
import type { Params } from "../../http/params";
import { ClientJwtError, verifyClientJwt } from "../../clients/verify-client-jwt";
import { config } from "../../config";
import { issuerBase } from "../../http/issuer-base";
import { PATHS } from "../../http/endpoints";
import { reserveJwtId } from "../../security/replay-cache";
import { mintToken } from "../../tokens/mint-token";
import { storeSubscriberAccessToken } from "../../tokens/store-subscriber-access-token";
import { InvalidGrant } from "../errors";
import { networkApiTokenRules } from "../../network-apis/token-rules";
import { assertedSubscriber } from "./jwt-bearer-subject";
import { checkJwtBearerConsent, requestedJwtBearerScopes } from "./jwt-bearer-scopes";
import { requiredParam } from "./required-param";
import type { TokenSet } from "./token-set";
import type { TokenRequestDpop } from "../dpop/token-request-proof";

export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** The assertion may live at most this long (`exp` − `iat`), as client assertions (RFC 7523 §3, issue 19). */
const MAX_ASSERTION_LIFETIME = 300;
/** The access token lives five minutes (or ACCESS_TOKEN_TTL when shorter): the subscriber is not present. */
const JWT_BEARER_TOKEN_TTL = 300;
const CLOCK_TOLERANCE = 30;

/**
 * One answer for an unknown, suspended or unconsenting subscriber: the client learns nothing about whether a
 * number is a subscriber beyond `invalid_grant`.
 */
const NO_GRANT = "the assertion's subject cannot be granted these scopes for this client";

/**
 * `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer` (RFC 7523 §2.1, docs/grants.md). The client has
 * authenticated as usual; the `assertion` is its own signed statement about a subscriber: signed with one of its
 * registered keys (RS256, PS256, ES256; never `none`, never HMAC), `iss` = client_id, `aud` the issuer or the token
 * endpoint, `exp` and `iat` with `exp` − `iat` ≤ 300 s, a single-use `jti`, and `sub` naming the subscriber as
 * `tel:+<E.164>` or any login_hint form (MSISDN, ENCR_MSISDN, PCR, a bare E.164 number).
 *
 * Scopes: the assertion's `scope` claim, which the `scope` parameter may only narrow (the signed claim wins); one
 * of the two is required. They must be within the client's allowedScopes (never offline_access: no refresh token),
 * and each must either be in the subscriber's stored consent for this client (lib/grants) or in the client's
 * consentFreeScopes (the operator's per-scope legal basis). The access token lives JWT_BEARER_TOKEN_TTL; no id_token
 * (the subscriber did not authenticate: there is no auth_time or acr to assert) and no refresh token.
 */
export async function jwtBearerGrant({ client, params, now = new Date(), dpop }: {
  client: RegisteredClient; params: Params; now?: Date; dpop?: TokenRequestDpop;
}): Promise<TokenSet> {
  const assertion = requiredParam(params, "assertion");
  const payload = await verifiedAssertion(client, assertion);
  const scopes = await requestedJwtBearerScopes({ client, claim: payload.scope, param: params.get("scope") });

  // Single use across instances (one INSERT decides): of fifty parallel presentations, one gets this far.
  const reserved = await reserveJwtId({ kind: "jwt_bearer", issuer: client.id, jti: payload.jti!,
    expiresAt: new Date((payload.exp! + CLOCK_TOLERANCE) * 1000) });
  if (!reserved) throw new InvalidGrant("the assertion has already been used (jti)");

  const asserted = await assertedSubscriber(payload.sub!, client);
  if (!asserted || asserted.subscriber.status !== "active") throw new InvalidGrant(NO_GRANT);
  const { subscriber, amr } = asserted;
  const consent = await checkJwtBearerConsent({ client, subscriberId: subscriber.id, scopes });
  if (!consent) throw new InvalidGrant(NO_GRANT);

  const access = mintToken();
  const scope = scopes.join(" ");
  const ttl = networkApiTokenRules(scopes, Math.min(JWT_BEARER_TOKEN_TTL, config().ACCESS_TOKEN_TTL)).ttlSeconds;
  const accessTokenExpiresAt = new Date(now.getTime() + ttl * 1000);
  // RFC 9449: with a proof the token is bound to its key (token_type DPoP, a proof at /userinfo and /premiuminfo).
  await storeSubscriberAccessToken({ tokenHash: access.hash, clientId: client.id, subscriberId: subscriber.id, scope,
    expiresAt: accessTokenExpiresAt, dpopJkt: dpop?.jkt, amr,
    audit: { type: "token_issued", outcome: "success", subscriberId: subscriber.id, clientId: client.id, at: now,
      detail: { grant: "jwt_bearer", scope, refresh_token: false, consent } } });
  return { accessToken: access.value, accessTokenExpiresAt, scope, dpopJkt: dpop?.jkt };
}

async function verifiedAssertion(client: RegisteredClient, assertion: string): Promise<JWTPayload> {
  let payload: JWTPayload;
  try {
    ({ payload } = await verifyClientJwt(client, assertion, {
      audience: [config().ISSUER, `${issuerBase()}${PATHS.token}`],
      maxLifetimeSeconds: MAX_ASSERTION_LIFETIME,
      requiredClaims: ["iss", "sub", "exp", "iat", "jti"],
      assertion: true,
      clockTolerance: CLOCK_TOLERANCE,
    }));
  } catch (err) {
    if (err instanceof ClientJwtError) throw new InvalidGrant(`invalid assertion: ${err.message}`);
    throw err;
  }
  if (payload.iss !== client.id) throw new InvalidGrant("invalid assertion: iss must be the client_id");
  if (typeof payload.sub !== "string" || typeof payload.jti !== "string" || !payload.jti || payload.jti.length > 200) {
    throw new InvalidGrant("invalid assertion: sub and jti must be strings");
  }
  return payload;
}
