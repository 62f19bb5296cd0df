import type { RegisteredClient } from "../../clients/get-client";
import { config } from "../../config";
import { sealBackchannelSecret } from "../backchannel-secrets";
import { db } from "../../db";
import { logger } from "../../log";
import { getMessagingChannel } from "../../messaging/messaging-channel";
import { hashedLoginHint } from "../../oauth/id-token";
import { createDeviceRequest } from "../../out-of-band/create-device-request";
import { mintToken } from "../../tokens/mint-token";
import { kickBackchannelDelivery } from "../backchannel-delivery";
import type { BackchannelChannel } from "../ciba";
import { settleBackchannelRequest } from "../settle-backchannel-request";
import { mintSmsLink } from "../sms-link";
import type { NamedSubscriber } from "./resolve-subscriber";
import { backchannelSmsText } from "./sms-text";
import { BackchannelSlowDown } from "./slow-down";
import type { BackchannelParams } from "./validate-request";
import { needsApiConsent } from "../../api-consent/needs-api-consent";
import { recordAuditEvent } from "../../audit/record-audit-event";
import { isNetworkApiOnly } from "../../network-apis/camara-scopes";
import { hitRateLimits } from "../../security/hit-rate-limit";
import {
  silentApprovalsPerClient, silentApprovalsPerClientAndNumber, silentApprovalsPerNumber,
} from "../../out-of-band/approval-limits";
import { recordSignIn } from "../../metrics/record";

export interface CreatedBackchannelRequest {
  authReqId: string;
  expiresIn: number;
  /** For the audit log only (never in the response: it would tell whether the subscriber has a handset). */
  channel: BackchannelChannel;
  delivered: boolean;
}

/**
 * Stores a new backchannel request and puts it where the subscriber answers (docs/ciba.md):
 * - an active subscriber with an enrolled handset: a DeviceRequest on the handset (the out-of-band module,
 *   createDeviceRequest with `backchannel`), written in the same transaction as the BackchannelRequest;
 * - an active subscriber without one: the text-message fallback: a link and a 6-digit code (lib/ciba/sms-link.ts,
 *   stored as hashes), sent in one text message after the commit, in the background: the client's answer never
 *   waits for the gateway nor depends on it (its timing or status would tell that the number has no handset). If
 *   the message cannot be sent, the request ends `expired` (settleBackchannelRequest: a ping or push client is
 *   told, a poll client reads expired_token); it is never approvable nor left pending (sendBackchannelSms);
 * - a subscriber who is not active (suspended): stored exactly like a handset request but shown on no handset
 *   (DeviceRequest.subscriberId null), so it ends `expired`: neither the answer nor its statements say so.
 * - an active subscriber the network named (`login_hint=ipport:…`, docs/network-authentication.md; only a client
 *   with networkHintsAllowed gets this far) at acr 2, for a network-API-only scope (isNetworkApiOnly: `openid`, API
 *   scopes and their purpose) whose API scopes need no consent not on record (needsApiConsent): approved at once
 *   with amr `nba` (settleBackchannelRequest, in the transaction that stores it, with its sign_in audit event): no
 *   handset, no text message, within the silent-approval limits (per client and number, per number, per client:
 *   buckets of their own, so a privileged client never spends the subscriber's out-of-band budget; a refusal is 429
 *   `slow_down`). Otherwise such a request goes on as any other (handset, text message, the out-of-band limits).
 * The device look-up runs for every subscriber (an id that matches nothing when not active). The out-of-band limits
 * apply (per client and number, per number, per client; the pending ceilings): a refusal is 429 `slow_down`.
 * `auth_req_id` is minted here (mintToken) and only its SHA-256 is stored, as the BackchannelRequest's id.
 * The hint is stored only as the id_token's `hashed_login_hint` (BackchannelRequest.loginHint holds
 * hashedLoginHint(hint), never the number nor a login_hint_token; issue 20, N2).
 */
export async function createBackchannelRequest({ client, subscriber, request, loginHint, ip, userAgent }: {
  client: RegisteredClient; subscriber: NamedSubscriber; request: BackchannelParams; loginHint: string | null;
  ip: string; userAgent: string | null;
}): Promise<CreatedBackchannelRequest> {
  const active = subscriber.status === "active";
  if (subscriber.network && client.networkHintsAllowed && active && request.acr === "2"
    && isNetworkApiOnly(request.scopes)
    && !await needsApiConsent({ subscriberId: subscriber.id, clientId: client.id, scopes: request.scopes })) {
    const refused = await hitRateLimits([
      [silentApprovalsPerClientAndNumber(), `${client.id} msisdn:${subscriber.msisdn}`],
      [silentApprovalsPerNumber(), `msisdn:${subscriber.msisdn}`],
      [silentApprovalsPerClient(), client.id],
    ]);
    if (refused) {
      await recordAuditEvent({ type: "approval_requested", outcome: "throttled", subscriberId: subscriber.id,
        clientId: client.id, ip, detail: { flow: "ciba", method: "nba", reason: "rate_limited",
          retry_after: refused.verdict.retryAfter } });
      throw new BackchannelSlowDown(refused.verdict.retryAfter);
    }
    return approveByNetwork({ client, subscriber, request, loginHint, ip });
  }
  const device = await db.device.findFirst({ where: { subscriberId: active ? subscriber.id : "", revokedAt: null },
    select: { id: true } });
  const channel: BackchannelChannel = !active || device ? "handset" : "sms";
  const authReq = mintToken();
  const requestId = authReq.hash;
  const expiresAt = new Date(Date.now() + request.expiresIn * 1000);
  const sms = channel === "sms" ? mintSmsLink({ requestId }) : null;
  const scope = request.scopes.join(" ");
  const created = await createDeviceRequest({
    flow: "ciba", backchannel: { requestId, channel, subscriberId: subscriber.id },
    numberKey: `msisdn:${subscriber.msisdn}`, subscriberId: active && device ? subscriber.id : null, client,
    text: { bindingMessage: request.bindingMessage, verified: true }, scope, acr: request.acr, expiresAt, ip, userAgent,
    prepare: (tx) => tx.backchannelRequest.create({
      data: { id: requestId, clientId: client.id, subscriberId: subscriber.id, scope, acr: request.acr,
        bindingMessage: request.bindingMessage, loginHint: loginHint === null ? null : hashedLoginHint(loginHint),
        deliveryMode: client.backchannelTokenDeliveryMode,
        // Ping and push name the request and authenticate to the client (lib/ciba/backchannel-secrets.ts).
        notificationToken: request.notificationToken === null ? null : sealBackchannelSecret(request.notificationToken),
        authReqIdSealed: request.notificationToken === null ? null : sealBackchannelSecret(authReq.value),
        channel, linkHash: sms?.linkHash ?? null, codeHash: sms?.codeHash ?? null,
        interval: config().CIBA_POLL_INTERVAL, expiresAt },
      select: { id: true },
    }),
  });
  if (!created.ok) throw new BackchannelSlowDown(created.retryAfter);
  if (sms) {
    // Not awaited: the response goes out now; sendBackchannelSms never rejects.
    void sendBackchannelSms({ requestId, client, msisdn: subscriber.msisdn, body: backchannelSmsText({
      locale: subscriber.locale, clientName: client.name, registeredBy: client.registeredBy, url: sms.url,
      code: sms.code }) });
  }
  return { authReqId: authReq.value, expiresIn: request.expiresIn, channel, delivered: active };
}

/** A request the network authenticated: stored and approved (amr nba) in one transaction; the client is told. */
async function approveByNetwork({ client, subscriber, request, loginHint, ip }: {
  client: RegisteredClient; subscriber: NamedSubscriber; request: BackchannelParams; loginHint: string | null; ip: string;
}): Promise<CreatedBackchannelRequest> {
  const authReq = mintToken();
  const requestId = authReq.hash;
  const at = new Date();
  const approved = await db.$transaction(async (tx) => {
    await tx.backchannelRequest.create({
      data: { id: requestId, clientId: client.id, subscriberId: subscriber.id, scope: request.scopes.join(" "),
        acr: request.acr, bindingMessage: request.bindingMessage,
        loginHint: loginHint === null ? null : hashedLoginHint(loginHint), deliveryMode: client.backchannelTokenDeliveryMode,
        notificationToken: request.notificationToken === null ? null : sealBackchannelSecret(request.notificationToken),
        authReqIdSealed: request.notificationToken === null ? null : sealBackchannelSecret(authReq.value),
        channel: "network", interval: config().CIBA_POLL_INTERVAL,
        expiresAt: new Date(at.getTime() + request.expiresIn * 1000) },
      select: { id: true },
    });
    const settled = await settleBackchannelRequest(tx, { requestId,
      settlement: { outcome: "approved", acr: "2", amr: ["nba"] }, at });
    if (settled) {
      await recordAuditEvent({ type: "sign_in", outcome: "success", subscriberId: subscriber.id, clientId: client.id, ip,
        detail: { acr: "2", method: "nba", flow: "ciba" } }, tx);
    }
    return settled;
  });
  if (approved) {
    recordSignIn("nba", "success");
    kickBackchannelDelivery();
  }
  return { authReqId: authReq.value, expiresIn: request.expiresIn, channel: "network", delivered: approved };
}

/**
 * Sends the text message of a stored request; on a failure, ends the request as `expired` (its expiry brought to
 * now, then settleBackchannelRequest, in one transaction; the delivery worker then tells a ping or push client).
 * Logs neither the number nor the code (nor the gateway's message, which may name the number). Never rejects.
 */
export async function sendBackchannelSms({ requestId, client, msisdn, body }: {
  requestId: string; client: RegisteredClient; msisdn: string; body: string;
}): Promise<void> {
  try {
    await getMessagingChannel().send({ msisdn, body });
    return;
  } catch (err) {
    logger.warn({ clientId: client.id, err: err instanceof Error ? err.name : "send failed" },
      "backchannel text message not sent; request ended as expired");
  }
  try {
    const at = new Date();
    const settled = await db.$transaction(async (tx) => {
      const shortened = await tx.backchannelRequest.updateMany({ where: { id: requestId, status: "pending" },
        data: { expiresAt: at } });
      if (shortened.count !== 1) return false;
      return settleBackchannelRequest(tx, { requestId, settlement: { outcome: "expired" }, at });
    });
    if (settled) kickBackchannelDelivery();
  } catch (err) {
    logger.error({ clientId: client.id, err: err instanceof Error ? err.name : "unknown" },
      "backchannel request of an unsent text message not ended; the expiry sweep will end it");
  }
}
