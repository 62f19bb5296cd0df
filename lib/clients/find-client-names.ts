import { db } from "../db";

/** The registered names of some clients, by client_id (unknown ids are left out). One query. */
export async function findClientNames({ clientIds }: { clientIds: readonly string[] }): Promise<Map<string, string>> {
  const ids = [...new Set(clientIds)];
  if (ids.length === 0) return new Map();
  const rows = await db.client.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
  return new Map(rows.map((r) => [r.id, r.name]));
}
