import { db } from "../db";
import { recordSignIn } from "../metrics/record";
import { randomToken, safeEqual } from "../crypto";
import { recordAuditEvent } from "../audit/record-audit-event";
import { browserIdHash } from "../sessions/browser-cookie";
import type { AuthorizationParams } from "../oauth/authorize/types";
import type { EnrolledDevice } from "../devices/find-device";
import { publishDeviceEvent } from "./device-events-bus";
import { checkDevicePin, lockedSincePinCheck } from "./check-device-pin";
import { settleBackchannelRequest } from "../ciba/settle-backchannel-request";
import { kickBackchannelDelivery } from "../ciba/backchannel-delivery";

/** Thrown inside the approval transaction to roll it back (the answer, the session) when the request is gone. */
const LOST = new Error("authorization request no longer pending");
/** Thrown inside the approval transaction when a PIN lockout began after the PIN was checked. */
const LOCKED = new Error("subscriber locked");

export type AnswerResult =
  | "approved" | "approved_backchannel" | "rejected" | "gone" | "check_missing" | "mismatch" | "pin_missing" | "pin_invalid" | "locked";

/**
 * The subscriber's answer on the handset.
 * - Approval needs the check code shown on the consumption device (number matching): a wrong one
 *   ends the request at once (`mismatch`, the relying party or the sign-in screen is told), so an
 *   approval the subscriber did not start cannot succeed by a tap or by guessing twice. Then, at
 *   level 3, the PIN (lib/out-of-band/check-device-pin.ts, the sign-in screen's lockout policy).
 * - Only a request whose consumption device is still waiting (`attendedUntil`) can be answered.
 * - The answer is atomic: one conditional update (still pending, not expired, still attended, this
 *   subscriber's) wins and everything else reads "already answered or expired".
 * - Approval completes that one authorization and nothing else: the Session it writes (auth_time,
 *   acr, amr `mca` [+ `pin`] for the code) is bound to no browser and lives only as long as the
 *   stored request, so the consumption device gets no reusable operator session (login CSRF: an
 *   attacker approving on their own phone must not sign a victim's browser in as themselves).
 *   `prompt=mobile` becomes `consented` (the handset showed the scopes); "approve on your phone"
 *   becomes `authenticated` and the screens ask consent as after a verified code.
 * Every answer is audited.
 * A backchannel (CIBA) request is answered by answerBackchannelOnHandset below.
 */
export async function answerDeviceRequest({ device, requestId, decision, pin, checkCode }: {
  device: EnrolledDevice; requestId: string; decision: "approve" | "reject"; pin?: string; checkCode?: string;
}): Promise<AnswerResult> {
  const now = new Date();
  const request = await db.deviceRequest.findUnique({ where: { id: requestId } });
  if (!request || request.subscriberId !== device.subscriberId) return "gone";
  if (request.backchannelRequestId) {
    return answerBackchannelOnHandset({ device, request: { ...request, backchannelRequestId: request.backchannelRequestId },
      decision, pin, now });
  }
  const authorizationRequestId = request.authorizationRequestId;
  if (!authorizationRequestId) return "gone";
  if (request.status !== "pending" || request.expiresAt <= now || !(request.attendedUntil && request.attendedUntil > now)) {
    return "gone";
  }
  const where = { id: request.id, subscriberId: device.subscriberId, status: "pending", expiresAt: { gt: now },
    attendedUntil: { gt: now } };
  const answered = { deviceId: device.id, answeredAt: now };
  const audit = (outcome: "success" | "denied", reason: string) => recordAuditEvent({ type: "approval_answered", outcome,
    subscriberId: device.subscriberId, clientId: request.clientId, detail: { reason, acr: request.acr } });

  if (decision === "reject") return end({ ...request, authorizationRequestId }, where, { status: "rejected", ...answered }, "rejected", audit);
  const typed = (checkCode ?? "").replace(/\s/g, "").slice(0, 8);
  if (!typed) return "check_missing";
  if (!safeEqual(typed, request.checkCode)) return end({ ...request, authorizationRequestId }, where, { status: "mismatch", ...answered }, "mismatch", audit);

  const acr = request.acr === "3" ? "3" : "2";
  if (acr === "3") {
    const pinResult = await checkDevicePin({ subscriberId: device.subscriberId, pin: pin ?? "" });
    if (pinResult) return pinResult;
  }
  const won = await db.$transaction(async (tx) => {
    const done = await tx.deviceRequest.updateMany({ where, data: { status: "approved", ...answered } });
    if (done.count !== 1) return false;
    if (acr === "3" && await lockedSincePinCheck(tx, device.subscriberId, now)) throw LOCKED;
    const authz = await tx.authorizationRequest.findUnique({
      where: { id: authorizationRequestId }, select: { status: true, params: true, expiresAt: true },
    });
    // The browser may have finished another way meanwhile (code typed, cancelled): nothing to approve.
    if (authz?.status !== "pending") throw LOST;
    const session = await tx.session.create({
      data: { id: randomToken(16), browserIdHash: browserIdHash(randomToken(32)), subscriberId: device.subscriberId,
        authTime: now, acr, amr: (acr === "3" ? ["mca", "pin"] : ["mca"]).join(" "), expiresAt: authz.expiresAt },
      select: { id: true },
    });
    const mobile = isPromptMobile(authz.params);
    const moved = await tx.authorizationRequest.updateMany({
      where: { id: authorizationRequestId, status: "pending" },
      data: { status: mobile ? "consented" : "authenticated", sessionId: session.id, subscriberId: device.subscriberId,
        otpHash: null, pinVerified: acr === "3" },
    });
    if (moved.count !== 1) throw LOST;
    await tx.device.update({ where: { id: device.id }, data: { lastSeenAt: now }, select: { id: true } });
    return true;
  }).catch(lostOrLocked(request.id));
  if (won === "locked") {
    recordSignIn(acr, "locked");
    return "locked";
  }
  if (!won) return "gone";
  recordSignIn(acr, "success"); // ois_sign_ins_total: a handset approval is a sign-in at its level
  // Wakes the waiting /authorize or sign-in screen on whichever instance holds it.
  publishDeviceEvent({ kind: "answered", subscriberId: device.subscriberId, requestId: request.id });
  await Promise.all([
    audit("success", "approved"),
    recordAuditEvent({ type: "sign_in", outcome: "success", subscriberId: device.subscriberId, clientId: request.clientId,
      detail: { method: "device", acr } }),
  ]);
  return "approved";
}

/**
 * Ends a request without approving it: `rejected` by the subscriber, or `mismatch` (wrong check
 * code). Atomic like the approval; a `prompt=mobile` request becomes `denied` (access_denied), while
 * "approve on your phone" keeps its sign-in open: the browser returns to the code step.
 */
async function end(
  request: { id: string; authorizationRequestId: string; subscriberId: string | null },
  where: object, data: { status: "rejected" | "mismatch"; deviceId: string; answeredAt: Date },
  result: "rejected" | "mismatch", audit: (outcome: "denied", reason: string) => Promise<void>,
): Promise<AnswerResult> {
  const won = await db.$transaction(async (tx) => {
    const done = await tx.deviceRequest.updateMany({ where, data });
    if (done.count !== 1) return false;
    const authz = await tx.authorizationRequest.findUnique({
      where: { id: request.authorizationRequestId }, select: { params: true },
    });
    const mobile = authz ? isPromptMobile(authz.params) : false;
    if (result === "rejected" || mobile) {
      await tx.authorizationRequest.updateMany({
        where: { id: request.authorizationRequestId, status: "pending" }, data: { status: "denied" },
      });
    }
    return true;
  });
  if (!won) return "gone";
  publishDeviceEvent({ kind: "answered", subscriberId: request.subscriberId!, requestId: request.id });
  await audit("denied", result === "mismatch" ? "number_mismatch" : "rejected");
  return result;
}

/** Whether the stored request (its params JSON) is `prompt=mobile` rather than "approve on your phone". */
function isPromptMobile(params: string): boolean {
  return (JSON.parse(params) as AuthorizationParams).prompt.includes("mobile");
}

/**
 * The handset's answer to a backchannel (CIBA) request: the relying party's own server asked, no browser of the
 * subscriber waits, so there is no check code to type (checkCode ""); the binding message, shown verified (the
 * client authenticated), is the interlock. Level 3 asks the PIN as above (lockout policy, the LOCKED race).
 * The DeviceRequest's conditional update and the BackchannelRequest's settlement (lib/ciba/settle-backchannel-
 * request.ts: approved with acr and amr `mca` [+ `pin`], as the browser flows; or denied) are one transaction: of
 * two answers, or an answer and the text-message link, one wins. Like `prompt=mobile`, no Grant is remembered:
 * the approval covers this one request. The delivery worker is woken after the commit (ping and push).
 */
async function answerBackchannelOnHandset({ device, request, decision, pin, now }: {
  device: EnrolledDevice; decision: "approve" | "reject"; pin?: string; now: Date;
  request: { id: string; backchannelRequestId: string; subscriberId: string | null; clientId: string | null;
    status: string; expiresAt: Date; attendedUntil: Date | null; acr: string };
}): Promise<AnswerResult> {
  if (request.status !== "pending" || request.expiresAt <= now || !(request.attendedUntil && request.attendedUntil > now)) {
    return "gone";
  }
  const where = { id: request.id, subscriberId: device.subscriberId, status: "pending", expiresAt: { gt: now },
    attendedUntil: { gt: now } };
  const answered = { deviceId: device.id, answeredAt: now };
  const acr = request.acr === "3" ? "3" : "2";
  const audit = (outcome: "success" | "denied", reason: string) => recordAuditEvent({ type: "approval_answered", outcome,
    subscriberId: device.subscriberId, clientId: request.clientId, detail: { reason, acr, flow: "ciba" } });
  if (decision === "approve" && acr === "3") {
    const pinResult = await checkDevicePin({ subscriberId: device.subscriberId, pin: pin ?? "" });
    if (pinResult) return pinResult;
  }
  const approve = decision === "approve";
  const won = await db.$transaction(async (tx) => {
    const done = await tx.deviceRequest.updateMany({ where, data: { status: approve ? "approved" : "rejected", ...answered } });
    if (done.count !== 1) return false;
    if (approve && acr === "3" && await lockedSincePinCheck(tx, device.subscriberId, now)) throw LOCKED;
    const settled = await settleBackchannelRequest(tx, { requestId: request.backchannelRequestId, at: now,
      settlement: approve ? { outcome: "approved", acr, amr: acr === "3" ? ["mca", "pin"] : ["mca"] } : { outcome: "denied" } });
    // Ended another way meanwhile (expired, answered through the text-message link): nothing to answer.
    if (!settled) throw LOST;
    await tx.device.update({ where: { id: device.id }, data: { lastSeenAt: now }, select: { id: true } });
    return true;
  }).catch(lostOrLocked(request.id));
  if (won === "locked") return "locked";
  if (!won) return "gone";
  kickBackchannelDelivery();
  publishDeviceEvent({ kind: "answered", subscriberId: device.subscriberId, requestId: request.id });
  if (!approve) {
    await audit("denied", "rejected");
    return "rejected";
  }
  await Promise.all([
    audit("success", "approved"),
    recordAuditEvent({ type: "sign_in", outcome: "success", subscriberId: device.subscriberId, clientId: request.clientId,
      detail: { method: "device", acr, flow: "ciba" } }),
  ]);
  return "approved_backchannel"; // no other screen to return to: the application is told
}

/**
 * What a rolled-back approval reads: `locked` (LOCKED), or false when the request it answers ended another way
 * (LOST); the handset request is then withdrawn so the handset stops listing it. Anything else is rethrown.
 */
function lostOrLocked(deviceRequestId: string) {
  return async (err: unknown): Promise<"locked" | false> => {
    if (err === LOCKED) return "locked";
    if (err !== LOST) throw err;
    await db.deviceRequest.updateMany({ where: { id: deviceRequestId, status: "pending" }, data: { status: "expired" } });
    return false;
  };
}
