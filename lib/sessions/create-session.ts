import type { Prisma, Session } from "@prisma/client";
import { config } from "../config";
import { db } from "../db";
import { randomToken } from "../crypto";
import { browserIdHash } from "./browser-cookie";

/**
 * Records a subscriber's successful sign-in in this browser: an operator session bound to SHA-256
 * of the browser cookie, with `auth_time` (now), the `acr` achieved and the methods used (`amr`,
 * RFC 8176 values such as "otp", "sms", "pin"), expiring after SESSION_TTL. Pass `tx` to write it
 * inside a transaction.
 */
export async function createSession({ browserId, subscriberId, acr, amr, tx }: {
  browserId: string; subscriberId: string; acr: "2" | "3"; amr: string[]; tx?: Prisma.TransactionClient;
}): Promise<Session> {
  const now = Date.now();
  return (tx ?? db).session.create({
    data: {
      id: randomToken(16),
      browserIdHash: browserIdHash(browserId),
      subscriberId,
      authTime: new Date(now),
      acr,
      amr: amr.join(" "),
      expiresAt: new Date(now + config().SESSION_TTL * 1000),
    },
  });
}
