import type { Prisma } from "@prisma/client";
import { db } from "../db";
import { insertIssuedTokens } from "./insert-issued-tokens";

class NotRedeemed extends Error {}

/**
 * Redeems an approved backchannel request at the token endpoint (CIBA Core §10.1, poll and ping) and stores its
 * tokens, atomically: one conditional UPDATE approved → redeemed (still unexpired) and the token and audit inserts in
 * one transaction, so of concurrent redemptions exactly one gets tokens. Returns false, having written nothing, when
 * the request was no longer approved (redeemed meanwhile) or had expired.
 */
export async function redeemBackchannelRequest({ requestId, at, accessToken, refreshToken, audit }: {
  requestId: string;
  at: Date;
  accessToken: Prisma.AccessTokenUncheckedCreateInput;
  refreshToken?: Prisma.RefreshTokenUncheckedCreateInput;
  audit: Prisma.AuditEventCreateManyInput;
}): Promise<boolean> {
  try {
    await db.$transaction(async (tx) => {
      const done = await tx.backchannelRequest.updateMany({ where: { id: requestId, status: "approved", expiresAt: { gt: at } },
        data: { status: "redeemed", redeemedAt: at } });
      if (done.count !== 1) throw new NotRedeemed();
      await insertIssuedTokens(tx, { accessToken, refreshToken, audit });
    });
    return true;
  } catch (err) {
    if (err instanceof NotRedeemed) return false;
    throw err;
  }
}
