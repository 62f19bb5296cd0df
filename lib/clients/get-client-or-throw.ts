import { db } from "../db";
import { AdminError } from "../admin/admin-error";
import { toClientRecord, type ClientRecord } from "./client-record";

/** The client registered under `clientId`, read from the database (not the protocol cache); throws when unknown. */
export async function getClientOrThrow({ clientId }: { clientId: string }): Promise<ClientRecord> {
  const row = await db.client.findUnique({ where: { id: clientId } });
  if (!row) throw new AdminError(`unknown client ${clientId}`);
  return toClientRecord(row);
}
