import { getHotStore } from "../store/get-hot-store";

/** The scopes a subscriber has allowed a client with consent remembered, or null (one query, lib/store). */
export async function findGrantedScopes({ subscriberId, clientId }: { subscriberId: string; clientId: string }):
  Promise<string[] | null> {
  const scope = await getHotStore().findGrantScope({ subscriberId, clientId });
  return scope === null ? null : scope.split(" ").filter(Boolean);
}
