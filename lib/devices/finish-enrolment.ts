import { randomUUID } from "node:crypto";
import { db } from "../db";
import { randomToken, safeEqual, sha256 } from "../crypto";
import { hashOneTimeCode, MAX_CODE_ATTEMPTS } from "../interaction/one-time-code";
import { reserveAttempt } from "../security/reserve-attempt";

export type EnrolmentResult =
  | { ok: true; secret: string }
  | { ok: false; error: "code_invalid" | "code_expired" };

/**
 * Checks the enrolment code (constant time, before expiry, at most MAX_CODE_ATTEMPTS tries, each
 * reserved in the database before the code is compared, so parallel submissions get no more) and
 * registers the handset: a Device row holding SHA-256 of a fresh 256-bit device credential, which
 * the caller sets as the `op_device` cookie. The enrolment is deleted in the same transaction, so a
 * code registers at most one device; a parallel submission of the same code reads "expired".
 */
export async function finishEnrolment({ enrolmentId, code, name }: {
  enrolmentId: string; code: string; name: string;
}): Promise<EnrolmentResult> {
  const enrolment = await reserveAttempt(() => db.deviceEnrolment.update({
    where: { id: enrolmentId, expiresAt: { gt: new Date() }, attempts: { lt: MAX_CODE_ATTEMPTS } },
    data: { attempts: { increment: 1 } }, select: { id: true, msisdn: true, codeHash: true },
  }));
  if (!enrolment) return { ok: false, error: "code_expired" };
  const ok = safeEqual(hashOneTimeCode({ requestId: enrolment.id, code: code.slice(0, 32) }), enrolment.codeHash);
  const subscriber = ok
    ? await db.subscriber.findUnique({ where: { msisdn: enrolment.msisdn }, select: { id: true, status: true } })
    : null;
  if (!subscriber || subscriber.status !== "active") return { ok: false, error: "code_invalid" };
  const secret = randomToken(32);
  const registered = await db.$transaction(async (tx) => {
    const gone = await tx.deviceEnrolment.deleteMany({ where: { id: enrolment.id } });
    if (gone.count !== 1) return false;
    await tx.device.create({
      data: { id: randomUUID(), subscriberId: subscriber.id, name: name.trim().slice(0, 60) || "My phone",
        secretHash: sha256(secret), lastSeenAt: new Date() },
      select: { id: true },
    });
    return true;
  });
  return registered ? { ok: true, secret } : { ok: false, error: "code_expired" };
}
