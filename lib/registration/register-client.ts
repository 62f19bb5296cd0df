import type { Client } from "@prisma/client";
import { db } from "../db";
import { randomToken, safeEqual, sha256, verifySecret } from "../crypto";
import { AdminError } from "../admin/admin-error";
import { createClient } from "../clients/create-client";
import {
  ClientNameTaken, LOOKALIKE_RULE, checkClientNameFree, withClientNameHeld,
} from "../clients/check-client-name-free";
import { isUniqueViolation } from "../store/is-unique-violation";
import { deleteClient } from "../clients/delete-client";
import { invalidateClient, toRegisteredClient } from "../clients/get-client";
import { defaultExpiresInFormat } from "../clients/client-profile";
import { securityColumns } from "../clients/client-security";
import { setClientLogout } from "../logout/set-client-logout";
import { recordAuditEvent } from "../audit/record-audit-event";
import { refundInitialAccessToken, reserveInitialAccessToken } from "./initial-access-tokens";
import { PROFILE_FIELD, type RegistrationMetadata } from "./registration-metadata";
import { InvalidClientMetadata, RegistrationTokenRefused } from "./registration-errors";
import { CIBA_GRANT_TYPE } from "../ciba/ciba";
import { checkSectorKept } from "./check-sector-kept";

/** What the registration endpoints answer (RFC 7591 §3.2.1, RFC 7592 §3). */
export type ClientInformation = Record<string, unknown>;

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** The registered metadata of a dynamic client, as stored (what the server holds, not what was asked). */
function information(row: Client, extra: { registrationAccessToken: string; registrationClientUri: string;
  clientSecret?: string | null; sectorIdentifierUri?: string | null }): ClientInformation {
  const c = toRegisteredClient(row);
  return {
    client_id: c.id,
    ...(extra.clientSecret ? { client_secret: extra.clientSecret } : {}),
    client_id_issued_at: seconds(row.createdAt),
    ...(c.secretHash ? { client_secret_expires_at: 0 } : {}),
    registration_access_token: extra.registrationAccessToken,
    registration_client_uri: extra.registrationClientUri,
    client_name: c.name,
    redirect_uris: c.redirectUris,
    post_logout_redirect_uris: c.postLogoutRedirectUris,
    token_endpoint_auth_method: c.authMethod ?? "client_secret_basic",
    grant_types: c.grantTypes,
    response_types: ["code"],
    scope: c.allowedScopes.join(" "),
    subject_type: "pairwise",
    id_token_signed_response_alg: c.idTokenSignedResponseAlg,
    ...(extra.sectorIdentifierUri ? { sector_identifier_uri: extra.sectorIdentifierUri } : {}),
    ...(c.jwks ? { jwks: c.jwks } : {}),
    ...(c.jwksUri ? { jwks_uri: c.jwksUri } : {}),
    require_signed_request_object: c.requireSignedRequestObject,
    require_pushed_authorization_requests: c.requirePushedAuthorizationRequests,
    dpop_bound_access_tokens: c.dpopBoundAccessTokens,
    ...(row.backchannelLogoutUri ? { backchannel_logout_uri: row.backchannelLogoutUri } : {}),
    backchannel_logout_session_required: row.backchannelLogoutSessionRequired,
    ...(row.frontchannelLogoutUri ? { frontchannel_logout_uri: row.frontchannelLogoutUri } : {}),
    frontchannel_logout_session_required: row.frontchannelLogoutSessionRequired,
    [PROFILE_FIELD]: c.profile,
    // CIBA Core §4 (docs/ciba.md): given back when the client has the grant or registered a mode
    ...(c.grantTypes.includes(CIBA_GRANT_TYPE) || row.backchannelTokenDeliveryMode ? {
      backchannel_token_delivery_mode: c.backchannelTokenDeliveryMode,
      ...(c.backchannelClientNotificationEndpoint
        ? { backchannel_client_notification_endpoint: c.backchannelClientNotificationEndpoint } : {}),
      ...(c.backchannelAuthRequestSigningAlg
        ? { backchannel_authentication_request_signing_alg: c.backchannelAuthRequestSigningAlg } : {}),
      backchannel_user_code_parameter: c.backchannelUserCodeParameter,
    } : {}),
  };
}

/** The CIBA fields of validated metadata as ClientSecurityInput (a replacement clears what it omits). */
function cibaInput(m: RegistrationMetadata) {
  return {
    backchannelTokenDeliveryMode: m.backchannelTokenDeliveryMode,
    backchannelClientNotificationEndpoint: m.backchannelClientNotificationEndpoint,
    backchannelAuthRequestSigningAlg: m.backchannelAuthRequestSigningAlg,
    backchannelUserCodeParameter: m.backchannelUserCodeParameter,
  };
}

/** A name of our rule (client-fields.ts) for a client that gave none, or whose name is taken. */
/**
 * The neutral name of a client registered without client_name: `client-` and random characters, never derived from
 * another client's name (a suffixed copy would be the lookalike the skeleton check exists to refuse).
 */
function generatedName(): string {
  return `client-${randomToken(6).replace(/^[-_]+|[-_]+$/g, "x")}`;
}

/**
 * A name held by another client, as the registration endpoint says it (the other client is not named): one answer
 * for an exact copy and a lookalike (an exact copy looks like it too).
 */
function nameRefused(err: ClientNameTaken): InvalidClientMetadata {
  return new InvalidClientMetadata(`client_name "${err.asked}" looks like the name of another client: `
    + LOOKALIKE_RULE);
}

/**
 * Registers a client (RFC 7591 §3.1) from validated metadata. With an initial access token, one use is
 * reserved first (one conditional UPDATE) and given back if the client is not created. A missing
 * client_name is replaced by a neutral generated one (`client-xxxxxx`): the answer says which. A name that is
 * another client's, or looks like it (the same confusable skeleton, lib/clients/check-client-name-free.ts), is
 * refused: invalid_client_metadata (issue 33: a suffixed copy would itself be a lookalike). Returns the
 * client information with the secret (when one is issued) and the registration access token, both shown once.
 */
export async function registerClient({ metadata, initialAccessToken, clientUri, ip }: {
  metadata: RegistrationMetadata; initialAccessToken: string | null; clientUri: (clientId: string) => string; ip?: string;
}): Promise<ClientInformation> {
  if (initialAccessToken !== null && !(await reserveInitialAccessToken(initialAccessToken))) {
    throw new RegistrationTokenRefused("the initial access token is unknown, used up or expired");
  }
  const registrationAccessToken = randomToken(32);
  let created: { id: string } | null = null;
  try {
    let name = metadata.name ?? generatedName();
    let result: Awaited<ReturnType<typeof createClient>> | undefined;
    for (let attempt = 0; !result; attempt++) {
      try {
        result = await createClient({
          name, redirectUris: metadata.redirectUris, scopes: metadata.scopes, profile: metadata.profile,
          isPublic: metadata.isPublic, postLogoutRedirectUris: metadata.postLogoutRedirectUris,
          ...(metadata.sectorIdentifier === null ? { ownSector: true } : { sectorIdentifier: metadata.sectorIdentifier }),
          authMethod: metadata.authMethod, jwks: metadata.jwks,
          jwksUri: metadata.jwksUri, grantTypes: metadata.grantTypes,
          requireSignedRequestObject: metadata.requireSignedRequestObject,
          requirePushedAuthorizationRequests: metadata.requirePushedAuthorizationRequests,
          dpopBoundAccessTokens: metadata.dpopBoundAccessTokens,
          ...cibaInput(metadata),
          idTokenSignedResponseAlg: metadata.idTokenSignedResponseAlg,
          registeredBy: "dynamic", registrationAccessTokenHash: sha256(registrationAccessToken),
        });
      } catch (err) {
        // A generated name taken meanwhile: another one. A name the client chose that is, or looks like, another
        // client's (its skeleton taken, possibly by a parallel registration) is refused.
        if (err instanceof ClientNameTaken && metadata.name === undefined && attempt < 3) {
          name = generatedName();
          continue;
        }
        if (err instanceof ClientNameTaken) throw nameRefused(err);
        if (err instanceof AdminError) throw new InvalidClientMetadata(err.message);
        throw err;
      }
    }
    created = { id: result.client.id };
    await setClientLogout({ clientId: created.id, changes: metadata.logout });
    const row = await db.client.findUniqueOrThrow({ where: { id: created.id } });
    await recordAuditEvent({ type: "admin_client_registered", outcome: "success", clientId: created.id, ip,
      detail: { registered_by: "dynamic", initial_access_token: initialAccessToken !== null } });
    return information(row, { registrationAccessToken, registrationClientUri: clientUri(created.id),
      clientSecret: result.clientSecret, sectorIdentifierUri: metadata.sectorIdentifierUri });
  } catch (err) {
    if (created) await deleteClient({ clientId: created.id }).catch(() => {});
    if (initialAccessToken !== null) await refundInitialAccessToken(initialAccessToken).catch(() => {});
    throw err;
  }
}

/** A hash that no token has, compared against when the client is unknown (the same work either way). */
const NO_CLIENT_HASH = sha256("no such client");

/**
 * The dynamic client that `token` is the registration access token of (RFC 7592 §3): constant-time
 * comparison of SHA-256s; an unknown or disabled client, an operator-registered one and a wrong token get one
 * answer.
 */
async function authorizedClient(clientId: string, token: string): Promise<Client> {
  const row = clientId.length <= 200 && token
    ? await db.client.findUnique({ where: { id: clientId } })
    : null;
  // A client the operator disabled is unknown here too (lib/clients/set-client-disabled.ts).
  const stored = row?.registeredBy === "dynamic" && row.status === "active" ? row.registrationAccessTokenHash : null;
  const ok = safeEqual(sha256(token), stored ?? NO_CLIENT_HASH) && stored !== null;
  if (!ok || !row) throw new RegistrationTokenRefused("the registration access token is not valid for this client");
  return row;
}

/** RFC 7592 §2.1: the client's current registration. The presented token is echoed, not rotated. */
export async function readRegistration({ clientId, token, clientUri }: {
  clientId: string; token: string; clientUri: string;
}): Promise<ClientInformation> {
  const row = await authorizedClient(clientId, token);
  return information(row, { registrationAccessToken: token, registrationClientUri: clientUri });
}

/**
 * RFC 7592 §2.2: replaces the client's metadata with `metadata` (validated like a registration). The
 * client_id must be the client's; a client_secret, if sent, must be the current one (the client cannot
 * choose it); the kind of authentication (secret, none, private_key_jwt) and the pairwise sector cannot
 * change (the subject identifiers the client holds depend on it); a client_name that is, or looks like, another
 * client's is refused. The registration access token is not rotated.
 */
export async function updateRegistration({ clientId, token, body, metadata, clientUri }: {
  clientId: string; token: string; body: Record<string, unknown>; metadata: RegistrationMetadata; clientUri: string;
}): Promise<ClientInformation> {
  const row = await authorizedClient(clientId, token);
  if (body.client_id !== clientId) throw new InvalidClientMetadata("client_id must be given and be this client's (RFC 7592 §2.2)");
  if (body.client_secret !== undefined) {
    const same = typeof body.client_secret === "string" && row.secretHash !== null
      && (await verifySecret(body.client_secret, row.secretHash));
    if (!same) throw new InvalidClientMetadata("client_secret is issued by the server and cannot be changed here");
  }
  const current = toRegisteredClient(row);
  const kind = (m: string | null, isPublic: boolean) =>
    isPublic || m === "none" ? "none" : m === "private_key_jwt" ? "private_key_jwt" : "client secret";
  if (kind(current.authMethod, current.isPublic) !== kind(metadata.authMethod, metadata.isPublic)) {
    throw new InvalidClientMetadata(`token_endpoint_auth_method cannot change from ${kind(current.authMethod, current.isPublic)} `
      + `to ${kind(metadata.authMethod, metadata.isPublic)}: register a new client`);
  }
  checkSectorKept({ row, metadata });
  const name = metadata.name ?? row.name;
  let nameSkeleton: string | undefined;
  try {
    if (name !== row.name) nameSkeleton = await checkClientNameFree({ name, exceptId: clientId });
  } catch (err) {
    if (err instanceof ClientNameTaken) throw nameRefused(err);
    throw err;
  }
  const security = await securityColumns({
    authMethod: metadata.authMethod, jwks: metadata.jwks, jwksUri: metadata.jwksUri, grantTypes: metadata.grantTypes,
    requireSignedRequestObject: metadata.requireSignedRequestObject,
    requirePushedAuthorizationRequests: metadata.requirePushedAuthorizationRequests,
    dpopBoundAccessTokens: metadata.dpopBoundAccessTokens,
    ...cibaInput(metadata),
  });
  const { count } = await withRenameHeld(name, clientId, () => db.client.updateMany({
    where: { id: clientId, registrationAccessTokenHash: row.registrationAccessTokenHash },
    data: {
      name, ...(nameSkeleton !== undefined ? { nameSkeleton } : {}),
      redirectUris: JSON.stringify(metadata.redirectUris),
      postLogoutRedirectUris: JSON.stringify(metadata.postLogoutRedirectUris), allowedScopes: metadata.scopes.join(" "),
      profile: metadata.profile,
      ...(metadata.profile !== current.profile ? { expiresInFormat: defaultExpiresInFormat(metadata.profile) } : {}),
      ...security,
      idTokenSignedResponseAlg: metadata.idTokenSignedResponseAlg,
      backchannelLogoutUri: metadata.logout.backchannel_logout_uri,
      backchannelLogoutSessionRequired: metadata.logout.backchannel_logout_session_required,
      frontchannelLogoutUri: metadata.logout.frontchannel_logout_uri,
      frontchannelLogoutSessionRequired: metadata.logout.frontchannel_logout_session_required,
    },
  }));
  invalidateClient({ clientId });
  if (count === 0) throw new RegistrationTokenRefused("the registration access token is not valid for this client");
  const updated = await db.client.findUniqueOrThrow({ where: { id: clientId } });
  return information(updated, { registrationAccessToken: token, registrationClientUri: clientUri,
    sectorIdentifierUri: metadata.sectorIdentifierUri });
}

/** The replacement's write; a lookalike name written meanwhile by another request (the unique skeleton) is refused. */
async function withRenameHeld<T>(name: string, clientId: string, write: () => Promise<T>): Promise<T> {
  try {
    return await withClientNameHeld({ name, exceptId: clientId }, write);
  } catch (err) {
    if (err instanceof ClientNameTaken) throw nameRefused(err);
    if (isUniqueViolation(err)) throw new InvalidClientMetadata(`client_name "${name}" was taken at the same moment`);
    throw err;
  }
}

/** RFC 7592 §2.3: removes the client like `client delete` (its tokens revoked, its grants and codes gone). */
export async function deleteRegistration({ clientId, token, ip }: { clientId: string; token: string; ip?: string }) {
  await authorizedClient(clientId, token);
  try {
    await deleteClient({ clientId });
  } catch (err) {
    if (err instanceof AdminError) throw new RegistrationTokenRefused("the registration access token is not valid for this client");
    throw err;
  }
  await recordAuditEvent({ type: "admin_client_unregistered", outcome: "success", clientId, ip,
    detail: { registered_by: "dynamic" } });
}
