import { db } from "../db";
import { toClientRecord, type ClientRecord } from "./client-record";

/** Every registered client, oldest first (operator view, no secret hashes). */
export async function listClients(): Promise<ClientRecord[]> {
  const rows = await db.client.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(toClientRecord);
}
