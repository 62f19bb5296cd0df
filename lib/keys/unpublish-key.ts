import { db } from "../db";
import { AdminError } from "../admin/admin-error";
import { invalidateKeyCache } from "./key-store";

/**
 * Ends the publication of a retired key early (the console's "remove from JWKS"): its `removeAfter` becomes now,
 * so it leaves /jwks at once in this process and within the key cache's 60 s elsewhere. The row is kept (the
 * record of what signed what). Only a retired key still published qualifies: the active and next keys leave
 * the JWKS by rotating. The consequence, which the console makes the operator confirm: tokens it signed (id
 * tokens, logout tokens, signed userinfo) no longer verify at relying parties that refetch the JWKS, and for
 * an `enc` key, hints encrypted to it (ENCR_MSISDN, login_hint_token) can no longer be read.
 */
export async function unpublishKey({ kid }: { kid: string }): Promise<{ kid: string; use: string }> {
  const now = new Date();
  const row = await db.key.findUnique({ where: { kid }, select: { kid: true, use: true, status: true, removeAfter: true } });
  if (!row) throw new AdminError(`unknown key ${kid}`);
  if (row.status !== "retired") throw new AdminError(`key ${kid} is ${row.status}: only a retired key can be removed (rotate first)`);
  if (!row.removeAfter || row.removeAfter <= now) throw new AdminError(`key ${kid} is no longer published`);
  const { count } = await db.key.updateMany({ where: { kid, status: "retired", removeAfter: { gt: now } }, data: { removeAfter: now } });
  invalidateKeyCache();
  if (count === 0) throw new AdminError(`key ${kid} is no longer published`);
  return { kid: row.kid, use: row.use };
}
