import { db } from "../db";

export interface SubscriberGrant {
  clientId: string;
  scopes: string[];
  /** When the subscriber first allowed this app (remembered consent), and when it last grew. */
  createdAt: Date;
  updatedAt: Date;
}

/** A subscriber's remembered consents (the apps they have allowed), most recent first. */
export async function listSubscriberGrants({ subscriberId }: { subscriberId: string }): Promise<SubscriberGrant[]> {
  const rows = await db.grant.findMany({
    where: { subscriberId }, orderBy: { updatedAt: "desc" }, take: 200,
    select: { clientId: true, scope: true, createdAt: true, updatedAt: true },
  });
  return rows.map((r) => ({ clientId: r.clientId, scopes: r.scope.split(" ").filter(Boolean), createdAt: r.createdAt,
    updatedAt: r.updatedAt }));
}
