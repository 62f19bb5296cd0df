import { ownSector } from "./own-sector";

/**
 * What a subscriber screen says about who registered an app (issue 33): nothing for the operator's own clients;
 * for a self-registered (dynamic, RFC 7591) one, that the operator did not check it, and a host only where one is
 * known to be the app's: on the screens of an authorization request, the host of that request's redirect_uri (where
 * the code really goes); elsewhere (handset CIBA card, text-message link page, account page) the sector the client
 * proved with a sector_identifier_uri, else none ("website not verified"): the redirect URIs a client registers
 * prove nothing by themselves (a CIBA client never uses them), so an app registering another site's redirect URI
 * cannot have that site named for it. Its free text (binding message, context) is shown as unverified.
 */
export interface ClientProvenance {
  /** The host (with port), or a native app's private-use scheme; null: the app's website is not verified. */
  host: string | null;
}

/**
 * The provenance of `client` (null for an operator-registered client): the host of `redirectUri` when the screen
 * serves one authorization request, else its proved sector's host, if any. A self-registered client without a
 * sector_identifier_uri has a sector of its own (own-sector.ts). A self-registered non-CIBA client registered before
 * own sectors kept its redirect URIs' host as its sector (the migration 20261129000000): its codes only ever went
 * there, so that host is shown like a proved one.
 */
export function clientProvenance(client: { id: string; registeredBy: string; sectorIdentifier: string },
  redirectUri?: string): ClientProvenance | null {
  if (client.registeredBy !== "dynamic") return null;
  if (redirectUri !== undefined) return { host: hostOf(redirectUri) || null };
  const sector = client.sectorIdentifier;
  return { host: sector === ownSector(client.id) || sector.startsWith("client:") || sector === "" ? null : sector };
}

function hostOf(uri: string): string {
  try {
    const url = new URL(uri);
    return url.host || url.protocol.slice(0, -1);
  } catch {
    return "";
  }
}
