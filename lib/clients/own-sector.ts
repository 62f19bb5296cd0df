/**
 * The pairwise sector of a client alone (OIDC Core §8.1): `client:<client_id>`. A self-registered client gets it
 * unless it proves a shared sector with a sector_identifier_uri (lib/registration/registration-metadata.ts), so no
 * two self-registered clients share pairwise subjects (PCRs) without that proof. It can never equal a host sector:
 * client ids are base64url (upper case, `_`), and a host sector is a lower-case host name with an optional numeric
 * port (client-fields.ts) or an app scheme, neither of which has `:` followed by such an id.
 */
export function ownSector(clientId: string): string {
  return `client:${clientId}`;
}
