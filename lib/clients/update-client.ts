import { db } from "../db";
import { AdminError } from "../admin/admin-error";
import { toClientRecord, type ClientRecord } from "./client-record";
import { invalidateClient } from "./get-client";
import { defaultExpiresInFormat, type ClientProfile } from "./client-profile";
import { checkClientName, checkIdTokenAlg, checkProfile, checkRedirectUri, checkScopes } from "./client-fields";
import { checkClientNameFree, withClientNameHeld } from "./check-client-name-free";
import { isUniqueViolation } from "../store/is-unique-violation";
import { checkSecurityRules, securityColumns, toAuthMethod, type ClientSecurityInput } from "./client-security";

export interface ClientChanges extends ClientSecurityInput {
  /** A new name (client-fields.ts's rule), refused when it is, or looks like, another client's (ClientNameTaken). */
  name?: string;
  /**
   * The client's rules (lib/clients/client-profile.ts). Changing it without `expiresInFormat` also
   * sets the new profile's `expires_in` format.
   */
  profile?: ClientProfile;
  /** `timestamp`: the interface's absolute `expires_in`; `seconds`: RFC 6749 §5.1 (what the SDKs read). */
  expiresInFormat?: "timestamp" | "seconds";
  /**
   * Exact redirect URIs (at least one). The pairwise sector stays as registered: the subject identifiers the
   * client holds depend on it.
   */
  redirectUris?: readonly string[];
  postLogoutRedirectUris?: readonly string[];
  /** Allowed scopes (openid among them). */
  scopes?: readonly string[];
  /** `id_token_signed_response_alg`: RS256, PS256, ES256 or EdDSA (new id_tokens and logout tokens use it). */
  idTokenSignedResponseAlg?: string;
}

/**
 * Changes a client's name, redirect and post-logout URIs, scopes, token options, strong-authentication options
 * (client-security.ts); disabling and enabling are lib/clients/set-client-disabled.ts (they revoke tokens);
 * returns the updated record. The options are checked together with the ones the client keeps.
 */
export async function updateClient({ clientId, changes }: { clientId: string; changes: ClientChanges }): Promise<ClientRecord> {
  const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as ClientChanges;
  if (Object.keys(given).length === 0) throw new AdminError("nothing to change");
  const { name, profile, expiresInFormat, redirectUris, postLogoutRedirectUris, scopes, idTokenSignedResponseAlg,
    ...securityInput } = given;
  const data: Record<string, unknown> = { ...(await securityColumns(securityInput)) };
  if (name !== undefined) data.name = checkClientName(name);
  if (idTokenSignedResponseAlg !== undefined) data.idTokenSignedResponseAlg = checkIdTokenAlg(idTokenSignedResponseAlg);
  if (redirectUris !== undefined) {
    const unique = [...new Set(redirectUris)];
    if (unique.length === 0) throw new AdminError("at least one redirect URI is required");
    unique.forEach((u) => checkRedirectUri(u));
    data.redirectUris = JSON.stringify(unique);
  }
  if (postLogoutRedirectUris !== undefined) {
    const unique = [...new Set(postLogoutRedirectUris)];
    unique.forEach((u) => checkRedirectUri(u, "post-logout redirect URI"));
    data.postLogoutRedirectUris = JSON.stringify(unique);
  }
  if (scopes !== undefined) data.allowedScopes = checkScopes(scopes).join(" ");
  if (expiresInFormat !== undefined) data.expiresInFormat = expiresInFormat;
  if (profile !== undefined) {
    data.profile = checkProfile(profile);
    data.expiresInFormat ??= defaultExpiresInFormat(data.profile as ClientProfile);
  }
  const current = await db.client.findUnique({ where: { id: clientId } });
  if (!current) throw new AdminError(`unknown client ${clientId}`);
  // A rename is checked against the other clients' names (an unchanged name is not: a row kept by the skeleton
  // migration with a lookalike name stays editable).
  const rename = name !== undefined && name !== current.name ? name : undefined;
  if (rename === undefined) delete data.name;
  else data.nameSkeleton = await checkClientNameFree({ name: rename, exceptId: clientId });
  const next = { ...current, ...data } as typeof current;
  checkSecurityRules({
    isPublic: next.isPublic, hasSecret: next.secretHash !== null, authMethod: toAuthMethod(next.tokenEndpointAuthMethod),
    hasJwks: next.jwks !== null, hasJwksUri: next.jwksUri !== null,
    ciba: { // CIBA (docs/ciba.md)
      grantTypes: next.grantTypes.split(" "), deliveryMode: next.backchannelTokenDeliveryMode,
      notificationEndpoint: next.backchannelClientNotificationEndpoint, signingAlg: next.backchannelAuthRequestSigningAlg,
    },
  });
  try {
    const write = () => db.client.update({ where: { id: clientId }, data });
    const row = rename === undefined ? await write()
      : await withClientNameHeld({ name: rename, exceptId: clientId }, write);
    return toClientRecord(row);
  } catch (err) {
    // P2025: no row matched the where clause (deleted meanwhile).
    if ((err as { code?: unknown }).code === "P2025") throw new AdminError(`unknown client ${clientId}`);
    if (isUniqueViolation(err)) {
      throw new AdminError(`a client named like "${rename}" was written at the same moment; try again`);
    }
    throw err;
  } finally {
    invalidateClient({ clientId });
  }
}
