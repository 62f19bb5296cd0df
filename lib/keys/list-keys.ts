import { db } from "../db";

/** Public facts about a key; private material is never selected. */
export interface KeyRecord {
  kid: string;
  use: string;
  alg: string;
  status: string;
  createdAt: Date;
  activatedAt: Date | null;
  retiredAt: Date | null;
  removeAfter: Date | null;
  /** Whether the key is in the JWKS now (next, active, or retired but not yet past removeAfter). */
  published: boolean;
}

/** Every stored key, oldest first, without its private part. */
export async function listKeys(): Promise<KeyRecord[]> {
  const rows = await db.key.findMany({
    select: { kid: true, use: true, alg: true, status: true, createdAt: true, activatedAt: true, retiredAt: true, removeAfter: true },
    orderBy: [{ use: "asc" }, { createdAt: "asc" }],
  });
  const now = Date.now();
  return rows.map((r) => ({
    ...r, published: r.status !== "retired" || (r.removeAfter !== null && r.removeAfter.getTime() > now),
  }));
}
