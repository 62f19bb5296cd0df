import { db } from "../../db";

/** The usernames of some staff members, by Staff.id, for the audit log's "who" (one query; unknown ids left out). */
export async function staffUsernames({ staffIds }: { staffIds: ReadonlyArray<string | null> }):
  Promise<Map<string, string>> {
  const ids = [...new Set(staffIds.filter((id): id is string => typeof id === "string"))];
  if (ids.length === 0) return new Map();
  const rows = await db.staff.findMany({ where: { id: { in: ids } }, select: { id: true, username: true } });
  return new Map(rows.map((r) => [r.id, r.username]));
}
