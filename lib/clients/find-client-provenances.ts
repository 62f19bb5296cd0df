import { db } from "../db";
import { clientProvenance, type ClientProvenance } from "./client-provenance";

/**
 * The provenance (client-provenance.ts) of some clients, by client_id: only the self-registered ones are in the map.
 * One query.
 */
export async function findClientProvenances({ clientIds }: { clientIds: readonly (string | null)[] }):
  Promise<Map<string, ClientProvenance>> {
  const ids = [...new Set(clientIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await db.client.findMany({ where: { id: { in: ids }, registeredBy: "dynamic" },
    select: { id: true, registeredBy: true, sectorIdentifier: true } });
  return new Map(rows.map((r) => [r.id, clientProvenance(r)!]));
}
