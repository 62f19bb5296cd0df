import type { Prisma } from "@prisma/client";
import { db } from "../db";
import { insertIssuedTokens } from "../tokens/insert-issued-tokens";
import { revokeTokenFamily, revokeTokenFamilyIn } from "../tokens/revoke-token-family";

class LeaseLost extends Error {}
class Inactive extends Error {}

/**
 * Stores the tokens a push attempt minted (CIBA Core §10.3.1; docs/ciba.md "Push"), in one transaction:
 * - the notification still held by this attempt (`attempts` as claimed, neither delivered nor given up: one
 *   conditional UPDATE, which also records the new tokens' family);
 * - the request approved → redeemed at the first attempt (a later attempt finds it redeemed);
 * - the previous attempt's tokens (its family) revoked: only the tokens of the attempt that reached the client live;
 * - the token and audit inserts.
 * - the subscriber still active (a count in the transaction): "inactive" (nothing written) otherwise.
 * Only hashes are at rest: the values exist in this attempt's POST alone. Returns false (nothing written) when the
 * attempt lost its lease.
 */
export async function storePushTokens({ notificationId, attempt, requestId, previousFamilyId, at, accessToken,
  refreshToken, audit }: {
  notificationId: string; attempt: number; requestId: string; previousFamilyId: string | null; at: Date;
  accessToken: Prisma.AccessTokenUncheckedCreateInput & { familyId: string };
  refreshToken?: Prisma.RefreshTokenUncheckedCreateInput;
  audit: Prisma.AuditEventCreateManyInput;
}): Promise<boolean | "inactive"> {
  try {
    await db.$transaction(async (tx) => {
      const held = await tx.backchannelNotification.updateMany({
        where: { id: notificationId, attempts: attempt, deliveredAt: null, failedAt: null },
        data: { tokenFamilyId: accessToken.familyId },
      });
      if (held.count !== 1) throw new LeaseLost();
      if (await tx.subscriber.count({ where: { id: accessToken.subscriberId, status: "active" } }) === 0) throw new Inactive();
      await tx.backchannelRequest.updateMany({ where: { id: requestId, status: "approved" },
        data: { status: "redeemed", redeemedAt: at } });
      if (previousFamilyId) await revokeTokenFamilyIn(tx, { familyId: previousFamilyId, at });
      await insertIssuedTokens(tx, { accessToken, refreshToken, audit });
    });
    return true;
  } catch (err) {
    if (err instanceof LeaseLost) return false;
    if (err instanceof Inactive) return "inactive";
    throw err;
  }
}

/** A push notification given up: the tokens its last attempt minted (never received) are revoked. */
export async function revokePushTokens({ notificationId, at = new Date() }: { notificationId: string; at?: Date }) {
  const row = await db.backchannelNotification.findUnique({ where: { id: notificationId },
    select: { tokenFamilyId: true } });
  if (!row?.tokenFamilyId) return;
  await revokeTokenFamily({ familyId: row.tokenFamilyId, at });
}
