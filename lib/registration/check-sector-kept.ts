import type { Client } from "@prisma/client";
import { AdminError } from "../admin/admin-error";
import { CIBA_GRANT_TYPE } from "../ciba/ciba";
import { resolveSectorIdentifier } from "../clients/client-fields";
import { ownSector } from "../clients/own-sector";
import type { RegistrationMetadata } from "./registration-metadata";
import { InvalidClientMetadata } from "./registration-errors";

/**
 * The pairwise sector cannot change on a replacement (the subject identifiers the client holds depend on it), and it
 * is proved again: a client's own sector takes no sector_identifier_uri; a shared one (proved at registration, or the
 * redirect URIs' host of a client registered before own sectors) needs its sector_identifier_uri again, or, for the
 * latter, redirect URIs that all stay on that host. The CIBA grant only with a sector of the client's own
 * (registration-metadata.ts).
 */
export function checkSectorKept({ row, metadata }: { row: Pick<Client, "id" | "sectorIdentifier">; metadata: RegistrationMetadata }): void {
  const stored = row.sectorIdentifier;
  if (stored === ownSector(row.id)) {
    if (metadata.sectorIdentifier !== null) {
      throw new InvalidClientMetadata("the pairwise sector cannot change (this client has a sector of its own; "
        + "sector_identifier_uri would give " + `${metadata.sectorIdentifier}): subject identifiers depend on it`);
    }
    return;
  }
  if (metadata.grantTypes.includes(CIBA_GRANT_TYPE)) {
    throw new InvalidClientMetadata(`the ${CIBA_GRANT_TYPE} grant needs a sector of the client's own and this client's `
      + `is shared (${stored}): register a new client`);
  }
  let given = metadata.sectorIdentifier;
  if (given === null) {
    try {
      given = resolveSectorIdentifier(metadata.redirectUris.map((u) => new URL(u)));
    } catch (err) {
      if (!(err instanceof AdminError)) throw err;
    }
  }
  if (given !== stored) {
    throw new InvalidClientMetadata(`the pairwise sector cannot change (it is ${stored}; the redirect URIs or `
      + `sector_identifier_uri give ${given ?? "several hosts"}): subject identifiers depend on it`);
  }
}
