import { config } from "../config";
import { db } from "../db";
import { randomToken } from "../crypto";
import { recordAuditEvent } from "../audit/record-audit-event";
import type { AuthorizationParams } from "../oauth/authorize/types";
import type { EnrolledDevice } from "./find-device";
import { publishDeviceEvent } from "./device-events-bus";
import { checkDevicePin } from "./check-device-pin";

/** Thrown inside the approval transaction to roll it back (the answer, the session) when the request is gone. */
const LOST = new Error("authorization request no longer pending");

export type AnswerResult = "approved" | "rejected" | "gone" | "pin_missing" | "pin_invalid" | "locked";

/**
 * The subscriber's answer on the handset. Approval at level 3 needs the PIN (scrypt; a wrong one
 * counts towards the lockout like on the sign-in screen). The answer is atomic: one conditional
 * update (still pending, not expired, this subscriber's) wins and everything else reads "already
 * answered or expired", so two tabs answering at once cannot both succeed.
 *
 * Approval, in the same transaction, signs the subscriber in on the consumption device: a Session
 * bound to the browser that made the authorization request (acr of the request; amr `mca` - the
 * Mobile Connect authenticator - plus `pin` at level 3, as `mc_amr_values_supported` lists) and the
 * stored request becomes `consented` for that session, so the waiting /authorize issues the code.
 * Rejection makes the stored request `denied` (access_denied).
 */
export async function answerDeviceRequest({ device, requestId, decision, pin }: {
  device: EnrolledDevice; requestId: string; decision: "approve" | "reject"; pin?: string;
}): Promise<AnswerResult> {
  const now = new Date();
  const request = await db.deviceRequest.findUnique({ where: { id: requestId } });
  if (!request || request.subscriberId !== device.subscriberId) return "gone";
  if (request.status !== "pending" || request.expiresAt <= now) return "gone";
  const where = { id: request.id, subscriberId: device.subscriberId, status: "pending", expiresAt: { gt: now } };
  const answered = { deviceId: device.id, answeredAt: now };
  if (decision === "reject") {
    const won = await db.$transaction(async (tx) => {
      const done = await tx.deviceRequest.updateMany({ where, data: { status: "rejected", ...answered } });
      if (done.count !== 1) return false;
      await tx.authorizationRequest.updateMany({
        where: { id: request.authorizationRequestId, status: "pending" }, data: { status: "denied" },
      });
      return true;
    });
    if (won) publishDeviceEvent({ kind: "answered", subscriberId: device.subscriberId, requestId: request.id });
    return won ? "rejected" : "gone";
  }
  const acr = request.acr === "3" ? "3" : "2";
  if (acr === "3") {
    const pinResult = await checkDevicePin({ subscriberId: device.subscriberId, pin: pin ?? "" });
    if (pinResult) return pinResult;
  }
  const won = await db.$transaction(async (tx) => {
    const done = await tx.deviceRequest.updateMany({ where, data: { status: "approved", ...answered } });
    if (done.count !== 1) return false;
    const authz = await tx.authorizationRequest.findUnique({
      where: { id: request.authorizationRequestId }, select: { browserIdHash: true, status: true, params: true },
    });
    // The browser may have finished another way meanwhile (code typed, cancelled): nothing to approve.
    if (authz?.status !== "pending") throw LOST;
    const session = await tx.session.create({
      data: { id: randomToken(16), browserIdHash: authz.browserIdHash, subscriberId: device.subscriberId,
        authTime: now, acr, amr: (acr === "3" ? ["mca", "pin"] : ["mca"]).join(" "),
        expiresAt: new Date(now.getTime() + config().SESSION_TTL * 1000) },
      select: { id: true },
    });
    // prompt=mobile: the handset showed the scopes, so its approval is the consent too. "Approve on
    // your phone" in the browser flow replaces only the one-time code: consent follows on the
    // screens exactly as after a verified code (`authenticated`).
    const mobile = (JSON.parse(authz.params) as AuthorizationParams).prompt.includes("mobile");
    const moved = await tx.authorizationRequest.updateMany({
      where: { id: request.authorizationRequestId, status: "pending" },
      data: { status: mobile ? "consented" : "authenticated", sessionId: session.id, subscriberId: device.subscriberId,
        otpHash: null, pinVerified: acr === "3" },
    });
    if (moved.count !== 1) throw LOST;
    await tx.device.update({ where: { id: device.id }, data: { lastSeenAt: now }, select: { id: true } });
    return true;
  }).catch(async (err: unknown) => {
    if (err !== LOST) throw err;
    // Withdrawn so the handset stops listing it.
    await db.deviceRequest.updateMany({ where: { id: request.id, status: "pending" }, data: { status: "expired" } });
    return false;
  });
  // Wakes the waiting /authorize or sign-in screen on whichever instance holds it.
  if (won) publishDeviceEvent({ kind: "answered", subscriberId: device.subscriberId, requestId: request.id });
  if (!won) return "gone";
  await recordAuditEvent({ type: "sign_in", outcome: "success", subscriberId: device.subscriberId,
    detail: { method: "device", acr } });
  return "approved";
}
