import { config } from "../config";
import { db } from "../db";
import { randomToken, verifySecret } from "../crypto";
import type { EnrolledDevice } from "./find-device";

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
    return won ? "rejected" : "gone";
  }
  const acr = request.acr === "3" ? "3" : "2";
  if (acr === "3") {
    const pinResult = await checkPin(device.subscriberId, pin ?? "");
    if (pinResult) return pinResult;
  }
  const won = await db.$transaction(async (tx) => {
    const done = await tx.deviceRequest.updateMany({ where, data: { status: "approved", ...answered } });
    if (done.count !== 1) return false;
    const authz = await tx.authorizationRequest.findUnique({
      where: { id: request.authorizationRequestId }, select: { browserIdHash: true },
    });
    if (!authz) return false;
    const session = await tx.session.create({
      data: { id: randomToken(16), browserIdHash: authz.browserIdHash, subscriberId: device.subscriberId,
        authTime: now, acr, amr: (acr === "3" ? ["mca", "pin"] : ["mca"]).join(" "),
        expiresAt: new Date(now.getTime() + config().SESSION_TTL * 1000) },
      select: { id: true },
    });
    await tx.authorizationRequest.updateMany({
      where: { id: request.authorizationRequestId, status: "pending" },
      data: { status: "consented", sessionId: session.id, subscriberId: device.subscriberId },
    });
    await tx.device.update({ where: { id: device.id }, data: { lastSeenAt: now }, select: { id: true } });
    return true;
  });
  return won ? "approved" : "gone";
}

/** Verifies the PIN (scrypt); a wrong PIN is counted on the subscriber, as on the sign-in screen. */
async function checkPin(subscriberId: string, pin: string): Promise<AnswerResult | null> {
  if (!pin) return "pin_missing";
  const subscriber = await db.subscriber.findUnique({
    where: { id: subscriberId }, select: { pinHash: true, lockedUntil: true },
  });
  if (subscriber?.lockedUntil && subscriber.lockedUntil.getTime() > Date.now()) return "locked";
  if (subscriber?.pinHash && await verifySecret(pin.slice(0, 64), subscriber.pinHash)) return null;
  await db.subscriber.update({ where: { id: subscriberId }, data: { failedPinAttempts: { increment: 1 } } });
  return "pin_invalid";
}
