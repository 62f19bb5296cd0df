import { db } from "../../db";

/** The scopes a subscriber has allowed a client with consent remembered, or null (one query). */
export async function findGrantedScopes({ subscriberId, clientId }: { subscriberId: string; clientId: string }):
  Promise<string[] | null> {
  const grant = await db.grant.findUnique({
    where: { subscriberId_clientId: { subscriberId, clientId } }, select: { scope: true },
  });
  return grant ? grant.scope.split(" ").filter(Boolean) : null;
}
