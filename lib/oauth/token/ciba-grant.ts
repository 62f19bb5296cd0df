import type { RegisteredClient } from "../../clients/get-client";
import type { Params } from "../../http/params";
import { sha256 } from "../../crypto";
import { SLOW_DOWN_STEP } from "../../ciba/ciba";
import { findBackchannelRequest, recordBackchannelPoll, type BackchannelRequestRow } from "../../ciba/backchannel-requests";
import { backchannelIdToken, mintBackchannelTokens } from "../../ciba/backchannel-tokens";
import { isSubscriberActive } from "../../tokens/is-subscriber-active";
import { redeemBackchannelRequest } from "../../tokens/redeem-backchannel-request";
import { AuthorizationPending, ExpiredToken, InvalidGrant, SlowDown, TokenAccessDenied } from "../errors";
import type { TokenRequestDpop } from "../dpop/token-request-proof";
import { requiredParam } from "./required-param";
import type { TokenSet } from "./token-set";

/**
 * `grant_type=urn:openid:params:grant-type:ciba` (CIBA Core §10.1, §11): a poll or ping client redeems its
 * `auth_req_id`. One read by primary key (the id's SHA-256), then:
 * - pending: authorization_pending, or slow_down when polled before lastPolledAt + interval (the interval then grows
 *   by SLOW_DOWN_STEP), decided by one conditional UPDATE (lib/ciba/backchannel-requests.ts recordBackchannelPoll);
 *   a poll that raced a change of the request (its approval, say) reads it once more and is answered by its new
 *   state (still pending then: authorization_pending), never slow_down;
 * - denied: access_denied; expired (or past expiresAt): expired_token;
 * - approved, the subscriber no longer active (suspended or gone; one indexed read): access_denied (CIBA Core §11:
 *   the authorization is refused, as when suspendSubscriber denies the request), no tokens;
 * - approved: one transaction (approved → redeemed, the tokens, the audit row) and the tokens, exactly as the code
 *   flow's (access token, refresh token only with offline_access, id_token; DPoP-bound with a proof);
 * - redeemed, unknown, another client's or a push request (its tokens go to the notification endpoint):
 *   invalid_grant, all alike.
 */
export async function cibaGrant({ client, params, now = new Date(), dpop }: {
  client: RegisteredClient; params: Params; now?: Date; dpop?: TokenRequestDpop;
}): Promise<TokenSet> {
  const authReqId = requiredParam(params, "auth_req_id");
  const id = sha256(authReqId);
  let request = await findBackchannelRequest(id);
  if (!request || request.clientId !== client.id || request.deliveryMode === "push") {
    throw new InvalidGrant("the auth_req_id is invalid");
  }
  refuseEnded(request, now);
  if (request.status === "pending") {
    const answer = await recordBackchannelPoll({ id: request.id, interval: request.interval, now });
    if (answer === "slow_down") {
      throw new SlowDown(`polled too often: wait at least ${request.interval + SLOW_DOWN_STEP} seconds between polls`);
    }
    if (answer === "authorization_pending") throw new AuthorizationPending("the subscriber has not answered yet");
    request = await findBackchannelRequest(id); // "moved": answered, expired, or another poll came first
    if (request?.status === "pending") {
      // Still pending: a concurrent poll took the slot (it was recorded, or it grew the interval); this one is early,
      // but the interval has grown already for it (parallel early polls grow it once).
      const last = request.lastPolledAt?.getTime();
      if (last !== undefined && last > now.getTime() - request.interval * 1000) {
        throw new SlowDown(`polled too often: wait at least ${request.interval} seconds between polls`);
      }
      throw new AuthorizationPending("the subscriber has not answered yet");
    }
    if (!request) throw new InvalidGrant("the auth_req_id is invalid");
    refuseEnded(request, now);
  }
  if (request.status !== "approved") throw new InvalidGrant("the auth_req_id is invalid");
  if (!await isSubscriberActive({ subscriberId: request.subscriberId })) {
    throw new TokenAccessDenied("the authentication request was not authorized");
  }

  const tokens = mintBackchannelTokens({ client, request, now, dpopJkt: dpop?.jkt, mode: request.deliveryMode === "ping"
    ? "ping" : "poll" });
  const redeemed = await redeemBackchannelRequest({ requestId: request.id, at: now, ...tokens.rows });
  // Lost the race against a concurrent redemption (or the request expired in between).
  if (!redeemed) throw new InvalidGrant("the auth_req_id has already been used");
  const idToken = await backchannelIdToken({ client, request, accessToken: tokens.access.value, now });
  return { accessToken: tokens.access.value, accessTokenExpiresAt: tokens.accessTokenExpiresAt, scope: request.scope,
    idToken, refreshToken: tokens.refresh?.value, dpopJkt: dpop?.jkt };
}

/** The answers of a request that ended: redeemed (invalid_grant), denied (access_denied), expired (expired_token). */
function refuseEnded(request: BackchannelRequestRow, now: Date): void {
  if (request.status === "redeemed") throw new InvalidGrant("the auth_req_id has already been used");
  if (request.status === "denied") throw new TokenAccessDenied("the subscriber denied the authentication request");
  if (request.status === "expired" || request.expiresAt.getTime() <= now.getTime()) {
    throw new ExpiredToken("the auth_req_id has expired; start a new authentication request");
  }
}
