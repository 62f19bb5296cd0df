import { recordAuditEvent } from "../audit/record-audit-event";
import type { RegisteredClient } from "../clients/get-client";
import { config } from "../config";
import { authenticateClient } from "../http/client-auth";
import { clientIp } from "../http/client-ip";
import { bodyParams } from "../http/params";
import { json } from "../http/respond";
import { InvalidClient, OAuthError, UnauthorizedClient } from "../oauth/errors";
import { CIBA_GRANT_TYPE } from "./ciba";
import { hitRateLimit } from "../security/hit-rate-limit";
import { backchannelRequestsPerClient } from "../out-of-band/approval-limits";
import { checkUserCode, UserCodeSlowDown } from "./check-user-code";
import { BackchannelSlowDown } from "./bc-authorize/slow-down";
import { createBackchannelRequest } from "./bc-authorize/create-backchannel-request";
import { resolveBackchannelSubscriber } from "./bc-authorize/resolve-subscriber";
import { backchannelRequestParams } from "./bc-authorize/signed-request";
import { validateBackchannelParams } from "./bc-authorize/validate-request";
import { checkNetworkApiScopes } from "../api-consent/check-scopes";

/**
 * POST /bc-authorize, the backchannel authentication endpoint (OpenID Connect CIBA Core 1.0 §7, errors §13;
 * docs/ciba.md). In order:
 * 1. client authentication, every method the token endpoint accepts (lib/http/client-auth.ts); a public client
 *    has not authenticated: `invalid_client` (401; §13 "no client authentication included"); a client without
 *    the CIBA grant type: `unauthorized_client`;
 * 2. a signed request (`request`, §7.1.1) is unpacked, and required when the client registered a signing alg
 *    (bc-authorize/signed-request.ts);
 * 3. one hit on the client's call limit (BACKCHANNEL_LIMIT_PER_CLIENT per 15 minutes; beyond it 429 `slow_down`
 *    before the hint is resolved); the parameters (bc-authorize/validate-request.ts), the subscriber the one hint names
 *    (bc-authorize/resolve-subscriber.ts), the subscriber's user code (check-user-code.ts);
 * 4. the request is stored and delivered (bc-authorize/create-backchannel-request.ts): handset, text message, or
 *    nowhere for a suspended subscriber, with the same answer for all three; a self-registered client's number that
 *    names nobody is answered the same way (resolve-subscriber.ts: accepted, then expired; never `unknown_user_id`), and
 *    so is its absent or wrong user_code (check-user-code.ts: never `missing_user_code` / `invalid_user_code`).
 * Answers `{auth_req_id, expires_in, interval}` (interval for poll and ping), `Cache-Control: no-store`.
 * Every request of an authenticated client is audited (`backchannel_requested`: outcome, reason; never the number,
 * the hint or the auth_req_id).
 */
export async function handleBackchannelAuthentication(req: Request): Promise<Response> {
  const body = await bodyParams(req);
  const client = await authenticateClient({ headers: req.headers, params: body, endpoint: "backchannelAuthentication" });
  const ip = clientIp(req.headers);
  let subscriberId: string | null = null;
  try {
    refuseUnfitClient(client);
    // One hit per client for every call, before anything about the number is looked at, whatever the outcome: an
    // exhausted client is refused here, so no answer (unknown_user_id, missing_user_code, 429) depends on the number.
    const calls = await hitRateLimit({ limit: backchannelRequestsPerClient(), subject: client.id });
    if (!calls.allowed) throw new BackchannelSlowDown(calls.retryAfter);
    const params = await backchannelRequestParams({ client, params: body });
    const request = validateBackchannelParams({ params, client });
    await checkNetworkApiScopes(request.scopes, client); // the operator's purpose declarations (docs/network-apis.md)
    const named = await resolveBackchannelSubscriber({ hint: request.hint, client });
    subscriberId = named.unknown ? null : named.id; // a stand-in for a number nobody has is audited as no one
    const userCode = await checkUserCode({ clientId: client.id, dynamic: client.registeredBy === "dynamic",
      subscriberId: named.id, userCodeHash: named.userCodeHash, userCode: request.userCode });
    // A self-registered client's absent or wrong user_code: answered like a number nobody has (stored as for a
    // subscriber who is not active: shown on no handset, no text message, never approved, expired).
    const subscriber = userCode === "withheld" ? { ...named, status: "withheld" } : named;
    const created = await createBackchannelRequest({ client, subscriber, request, ip,
      userAgent: req.headers.get("user-agent"),
      loginHint: request.hint.kind === "id_token_hint" ? null : request.hint.value });
    await recordAuditEvent({ type: "backchannel_requested", outcome: "success", subscriberId, clientId: client.id, ip,
      detail: { mode: client.backchannelTokenDeliveryMode, acr: request.acr, hint: request.hint.kind,
        signed: body.has("request"), channel: created.channel, delivered: created.delivered,
        ...(userCode === "withheld" ? { user_code: request.userCode === undefined ? "missing" : "invalid" } : {}),
        expires_in: created.expiresIn } });
    const mode = client.backchannelTokenDeliveryMode;
    return json({ auth_req_id: created.authReqId, expires_in: created.expiresIn,
      ...(mode === "push" ? {} : { interval: config().CIBA_POLL_INTERVAL }) }, { noStore: true });
  } catch (err) {
    if (err instanceof OAuthError) {
      await recordAuditEvent({ type: "backchannel_requested", outcome: err.status === 429 ? "throttled" : "failure",
        subscriberId, clientId: client.id, ip,
        detail: { reason: err.error, ...(err instanceof UserCodeSlowDown ? { limit: err.limitName } : {}) } });
    }
    throw err;
  }
}

function refuseUnfitClient(client: RegisteredClient) {
  if (client.isPublic || (!client.secretHash && client.authMethod !== "private_key_jwt")) {
    const err = new InvalidClient("a public client cannot use backchannel authentication: it must authenticate");
    err.headers["WWW-Authenticate"] = 'Basic realm="token", error="invalid_client"';
    throw err;
  }
  if (!client.grantTypes.includes(CIBA_GRANT_TYPE)) {
    throw new UnauthorizedClient(`this client is not registered for backchannel authentication (${CIBA_GRANT_TYPE})`);
  }
}
