import { randomUUID } from "node:crypto";
import { db } from "../db";
import { randomToken, safeEqual, sha256 } from "../crypto";
import { hashOneTimeCode, MAX_CODE_ATTEMPTS } from "../interaction/one-time-code";

export type EnrolmentResult =
  | { ok: true; secret: string }
  | { ok: false; error: "code_invalid" | "code_expired" };

/**
 * Checks the enrolment code (constant time, before expiry, at most MAX_CODE_ATTEMPTS tries) and
 * registers the handset: a Device row holding SHA-256 of a fresh 256-bit device credential, which
 * the caller sets as the `op_device` cookie. The enrolment is deleted in the same transaction, so a
 * code registers at most one device.
 */
export async function finishEnrolment({ enrolmentId, code, name }: {
  enrolmentId: string; code: string; name: string;
}): Promise<EnrolmentResult> {
  const enrolment = await db.deviceEnrolment.findUnique({ where: { id: enrolmentId } });
  if (!enrolment || enrolment.expiresAt.getTime() <= Date.now() || enrolment.attempts >= MAX_CODE_ATTEMPTS) {
    return { ok: false, error: "code_expired" };
  }
  const ok = safeEqual(hashOneTimeCode({ requestId: enrolment.id, code: code.slice(0, 32) }), enrolment.codeHash);
  const subscriber = ok
    ? await db.subscriber.findUnique({ where: { msisdn: enrolment.msisdn }, select: { id: true, status: true } })
    : null;
  if (!subscriber || subscriber.status !== "active") {
    await db.deviceEnrolment.update({ where: { id: enrolment.id }, data: { attempts: { increment: 1 } } });
    return { ok: false, error: "code_invalid" };
  }
  const secret = randomToken(32);
  await db.$transaction(async (tx) => {
    const gone = await tx.deviceEnrolment.deleteMany({ where: { id: enrolment.id } });
    if (gone.count !== 1) throw new Error("enrolment already used");
    await tx.device.create({
      data: { id: randomUUID(), subscriberId: subscriber.id, name: name.trim().slice(0, 60) || "My phone",
        secretHash: sha256(secret), lastSeenAt: new Date() },
      select: { id: true },
    });
  });
  return { ok: true, secret };
}
