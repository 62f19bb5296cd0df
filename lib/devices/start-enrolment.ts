import { config } from "../config";
import { db } from "../db";
import { randomToken } from "../crypto";
import { hashOneTimeCode, newOneTimeCode } from "../interaction/one-time-code";
import { getMessagingChannel } from "../messaging/messaging-channel";
import { configuredBrandName } from "../branding/brand";
import { getMessages, type Messages } from "../i18n/get-messages";

/**
 * Starts enrolling a handset for `msisdn` (E.164 digits): stores a pending enrolment and sends a
 * one-time code to the number through the messaging channel. An unknown or suspended number gets
 * an enrolment too but no message, so this step never tells who is a subscriber. The text is in the
 * page's language (`t`) and carries the operator's name when one is configured (lib/branding).
 */
export async function startEnrolment({ msisdn, t = getMessages([]) }: { msisdn: string; t?: Messages }): Promise<string> {
  const id = randomToken(16);
  const code = newOneTimeCode();
  const subscriber = await db.subscriber.findUnique({ where: { msisdn }, select: { status: true } });
  await db.deviceEnrolment.create({
    data: { id, msisdn, codeHash: hashOneTimeCode({ requestId: id, code }),
      expiresAt: new Date(Date.now() + config().OTP_TTL * 1000) },
    select: { id: true },
  });
  if (subscriber?.status === "active") {
    await getMessagingChannel().send({ msisdn, body: t.sms.enrol(code, configuredBrandName(t.lang)) });
  }
  return id;
}
