import { db } from "../db";
import { AdminError } from "../admin/admin-error";
import { toClientRecord, type ClientRecord } from "./client-record";
import { invalidateClient } from "./get-client";
import { defaultExpiresInFormat, type ClientProfile } from "./client-profile";
import { checkProfile } from "./client-fields";

export interface ClientChanges {
  /**
   * The client's rules (lib/clients/client-profile.ts). Changing it without `expiresInFormat` also
   * sets the new profile's `expires_in` format.
   */
  profile?: ClientProfile;
  /** `timestamp`: the interface's absolute `expires_in`; `seconds`: RFC 6749 §5.1 (what the SDKs read). */
  expiresInFormat?: "timestamp" | "seconds";
  status?: "active" | "disabled";
}

/** Changes a client's token options or status; returns the updated record. */
export async function updateClient({ clientId, changes }: { clientId: string; changes: ClientChanges }): Promise<ClientRecord> {
  const data: ClientChanges = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  if (Object.keys(data).length === 0) throw new AdminError("nothing to change (give --profile, --expires-in or --status)");
  if (data.profile !== undefined) {
    data.profile = checkProfile(data.profile);
    data.expiresInFormat ??= defaultExpiresInFormat(data.profile);
  }
  try {
    const row = await db.client.update({ where: { id: clientId }, data });
    return toClientRecord(row);
  } catch (err) {
    // P2025: no row matched the where clause.
    if ((err as { code?: unknown }).code === "P2025") throw new AdminError(`unknown client ${clientId}`);
    throw err;
  } finally {
    invalidateClient({ clientId });
  }
}
