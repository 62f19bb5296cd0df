import { db } from "../db";

/** The stored parameters (JSON) of the authorization request with this id, or null. One read, no write. */
export async function findRequestParams({ id }: { id: string }): Promise<string | null> {
  const row = await db.authorizationRequest.findUnique({ where: { id }, select: { params: true } });
  return row?.params ?? null;
}
