import { db } from "../db";

/**
 * The handset request of a stored authorization request while it waits for an answer (pending, not
 * expired): the check code the consumption device shows and the relying party's binding message.
 * Null when there is none, or it was answered, withdrawn or has expired.
 */
export async function findWaitingRequest({ authorizationRequestId, now = Date.now() }: {
  authorizationRequestId: string; now?: number;
}): Promise<{ checkCode: string; bindingMessage?: string } | null> {
  const row = await db.deviceRequest.findUnique({
    where: { authorizationRequestId },
    select: { status: true, expiresAt: true, checkCode: true, bindingMessage: true },
  });
  const live = row?.status === "pending" && row.expiresAt.getTime() > now;
  return live ? { checkCode: row.checkCode, bindingMessage: row.bindingMessage ?? undefined } : null;
}
