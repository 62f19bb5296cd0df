import { db } from "../db";

/** What lib/logout needs of a client registered for Back-Channel or Front-Channel Logout 1.0. */
export interface LogoutClient {
  id: string;
  sectorIdentifier: string;
  backchannelLogoutUri: string | null;
  backchannelLogoutSessionRequired: boolean;
  frontchannelLogoutUri: string | null;
  frontchannelLogoutSessionRequired: boolean;
}

const SELECT = {
  id: true, sectorIdentifier: true, backchannelLogoutUri: true, backchannelLogoutSessionRequired: true,
  frontchannelLogoutUri: true, frontchannelLogoutSessionRequired: true,
} as const;

/**
 * The active clients with a logout URI that a subscriber has signed in to: those holding the
 * subscriber's remembered consent (Grant, indexed on subscriberId), plus `alsoClientIds` (a consent
 * being withdrawn is already deleted). Two queries; none on the token path.
 */
export async function findLogoutClients({ subscriberIds, alsoClientIds = [] }: {
  subscriberIds: readonly string[]; alsoClientIds?: readonly string[];
}): Promise<LogoutClient[]> {
  const grants = subscriberIds.length
    ? await db.grant.findMany({ where: { subscriberId: { in: [...subscriberIds] } }, select: { clientId: true } })
    : [];
  const ids = [...new Set([...grants.map((g) => g.clientId), ...alsoClientIds])];
  if (ids.length === 0) return [];
  return db.client.findMany({
    where: { id: { in: ids }, status: "active",
      OR: [{ backchannelLogoutUri: { not: null } }, { frontchannelLogoutUri: { not: null } }] },
    select: SELECT,
  });
}

/** Which subscribers held consent for which client, for the pairs above (one query). */
export async function findGrantPairs({ subscriberIds, clientIds }: {
  subscriberIds: readonly string[]; clientIds: readonly string[];
}): Promise<Array<{ subscriberId: string; clientId: string }>> {
  if (!subscriberIds.length || !clientIds.length) return [];
  return db.grant.findMany({
    where: { subscriberId: { in: [...subscriberIds] }, clientId: { in: [...clientIds] } },
    select: { subscriberId: true, clientId: true },
  });
}
