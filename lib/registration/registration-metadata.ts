import type { JSONWebKeySet } from "jose";
import { AdminError } from "../admin/admin-error";
import {
  checkClientName, checkIdTokenAlg, checkProfile, checkRedirectUri, checkScopes, resolveSectorIdentifier,
} from "../clients/client-fields";
import { DEFAULT_PROFILE, type ClientProfile } from "../clients/client-profile";
import { config } from "../config";
import {
  CLIENT_KEY_ALGS, checkAuthMethod, checkJwks, checkJwksUri, checkSecurityRules, type ClientAuthMethod,
  type ClientGrantType,
} from "../clients/client-security";
import { checkBackchannelSigningAlg, checkDeliveryMode, checkNotificationEndpoint } from "../clients/client-security";
import { CIBA_GRANT_TYPE, type DeliveryMode } from "../ciba/ciba";
import { SIGNING_ALG, type SigningAlg } from "../keys/key-store";
import { checkLogoutUri, type ClientLogoutSettings } from "../logout/set-client-logout";
import { fetchSectorIdentifier } from "./fetch-sector-identifier";
import { checkPublicHost } from "./internal-address";
import { InvalidClientMetadata, InvalidRedirectUri } from "./registration-errors";

/** The extension field naming the client's profile (lib/clients/client-profile.ts): `oidc` (default) or `mobile-connect`. */
export const PROFILE_FIELD = "client_profile";

/**
 * Grant types a dynamically registered client may ask for (client_credentials and JWT bearer stay with the operator).
 * CIBA is here: each backchannel request is approved by the subscriber on the handset (docs/ciba.md).
 */
export const REGISTRABLE_GRANT_TYPES = ["authorization_code", "refresh_token", CIBA_GRANT_TYPE] as const;

const MAX_REDIRECT_URIS = 20;

/** Fields the service cannot honour: refused rather than ignored, since the client would rely on them. */
const UNSUPPORTED = [
  "id_token_encrypted_response_alg", "id_token_encrypted_response_enc", "userinfo_signed_response_alg",
  "userinfo_encrypted_response_alg", "userinfo_encrypted_response_enc", "request_object_encryption_alg",
  "request_object_encryption_enc", "authorization_signed_response_alg", "authorization_encrypted_response_alg",
  "tls_client_auth_subject_dn", "tls_client_certificate_bound_access_tokens",
];

/** A registration request (RFC 7591 §2, OpenID Connect Registration §2) validated: what createClient needs. */
export interface RegistrationMetadata {
  /** Absent: the server names the client (register-client.ts). */
  name?: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  scopes: string[];
  profile: ClientProfile;
  /** null: not given (client_secret_basic, RFC 7591 §2's default; either secret method is accepted). */
  authMethod: ClientAuthMethod | null;
  isPublic: boolean;
  jwks: JSONWebKeySet | null;
  jwksUri: string | null;
  grantTypes: ClientGrantType[];
  requireSignedRequestObject: boolean;
  requirePushedAuthorizationRequests: boolean;
  dpopBoundAccessTokens: boolean;
  logout: ClientLogoutSettings;
  /**
   * The pairwise sector the client proved with its sector_identifier_uri (that URI's host); null: none given, so
   * the client gets a sector of its own (lib/clients/own-sector.ts), shared with no other client.
   */
  sectorIdentifier: string | null;
  sectorIdentifierUri: string | null;
  // CIBA Core §4 (docs/ciba.md): null when not given (a replacement clears them)
  backchannelTokenDeliveryMode: DeliveryMode | null;
  backchannelClientNotificationEndpoint: string | null;
  backchannelAuthRequestSigningAlg: string | null;
  backchannelUserCodeParameter: boolean;
  /** OIDC Registration §2: RS256 (the default, also when a replacement omits it), PS256, ES256 or EdDSA. */
  idTokenSignedResponseAlg: SigningAlg;
}

type Body = Record<string, unknown>;

function optString(body: Body, field: string): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw new InvalidClientMetadata(`${field} must be a string`);
  return v;
}

function optStrings(body: Body, field: string, Err: new (d: string) => Error = InvalidClientMetadata): string[] | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) throw new Err(`${field} must be an array of strings`);
  if (v.length > MAX_REDIRECT_URIS) throw new Err(`${field} must have at most ${MAX_REDIRECT_URIS} entries`);
  return v as string[];
}

function optBool(body: Body, field: string): boolean {
  const v = body[field];
  if (v === undefined || v === null) return false;
  if (typeof v !== "boolean") throw new InvalidClientMetadata(`${field} must be true or false`);
  return v;
}

/**
 * The operator's allow-list (REGISTRATION_SCOPES, docs/registration.md): a supported scope outside it, such as the
 * national identifier by default, is for clients the operator registers itself.
 */
function checkRegistrableScopes(scopes: readonly string[]): void {
  const allowed = config().REGISTRATION_SCOPES;
  const refused = scopes.filter((s) => !allowed.includes(s));
  if (refused.length) {
    throw new InvalidClientMetadata(`scope ${refused.join(", ")} cannot be registered on this server `
      + `(allowed: ${allowed.join(" ")})`);
  }
}

/** Runs an admin validator: its AdminError message becomes the error_description of `Err`. */
async function as<T>(Err: new (d: string) => Error, check: () => T | Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (err) {
    if (err instanceof AdminError) throw new Err(err.message);
    throw err;
  }
}

/**
 * Reads and validates a registration (POST) or a replacement (PUT) body with the admin CLI's validators
 * (lib/clients/client-fields.ts, client-security.ts, lib/logout/set-client-logout.ts). Throws
 * InvalidRedirectUri or InvalidClientMetadata with the validator's message. Fetches the
 * sector_identifier_uri when one is given.
 */
export async function readRegistrationMetadata(value: unknown, { allowLoopback }: { allowLoopback: boolean }):
  Promise<RegistrationMetadata> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidClientMetadata("the request body must be a JSON object of client metadata");
  }
  const body = value as Body;
  for (const field of UNSUPPORTED) {
    if (body[field] !== undefined) throw new InvalidClientMetadata(`${field} is not supported by this server`);
  }

  // redirect_uris: required; each an exact URI the admin CLI would accept.
  const redirectUris = [...new Set(optStrings(body, "redirect_uris", InvalidRedirectUri) ?? [])];
  if (redirectUris.length === 0) throw new InvalidRedirectUri("redirect_uris must list at least one redirect URI");
  const urls = await as(InvalidRedirectUri, () => redirectUris.map((u) => checkRedirectUri(u)));

  const clientName = optString(body, "client_name");
  const name = clientName === undefined ? undefined : await as(InvalidClientMetadata, () => checkClientName(clientName));

  const responseTypes = optStrings(body, "response_types") ?? ["code"];
  if (responseTypes.length !== 1 || responseTypes[0] !== "code") {
    throw new InvalidClientMetadata("response_types must be [\"code\"]: the authorization code flow is the only one served");
  }
  const grantTypes = [...new Set(optStrings(body, "grant_types") ?? ["authorization_code"])];
  const other = grantTypes.find((g) => !(REGISTRABLE_GRANT_TYPES as readonly string[]).includes(g));
  if (other) {
    throw new InvalidClientMetadata(`grant type ${other} cannot be registered (allowed: ${REGISTRABLE_GRANT_TYPES.join(", ")})`);
  }
  if (!grantTypes.includes("authorization_code")) {
    throw new InvalidClientMetadata("grant_types must include authorization_code (response type code, RFC 7591 §2.1)");
  }

  // No scope: openid alone (RFC 7591 §2 lets the server choose); anything else must be asked for, and be allowed.
  const scopes = await as(InvalidClientMetadata, () => checkScopes([optString(body, "scope") ?? "openid"]));
  checkRegistrableScopes(scopes);
  const profileValue = optString(body, PROFILE_FIELD);
  const profile = await as(InvalidClientMetadata, () => checkProfile(profileValue ?? DEFAULT_PROFILE));

  // Each value is signed with our own key of that algorithm (docs/keys.md); `none` is refused (we never issue unsigned
  // ID tokens, and the code flow's would be refused by OIDC Core §3.1.3.7 anyway).
  const algValue = optString(body, "id_token_signed_response_alg");
  const idTokenSignedResponseAlg = await as(InvalidClientMetadata, () => checkIdTokenAlg(algValue ?? SIGNING_ALG));
  const subjectType = optString(body, "subject_type");
  if (subjectType !== undefined && subjectType !== "pairwise") {
    throw new InvalidClientMetadata("subject_type must be pairwise, the only subject type");
  }
  for (const field of ["token_endpoint_auth_signing_alg", "request_object_signing_alg"]) {
    const v = optString(body, field);
    const allowed = field === "request_object_signing_alg" ? [...CLIENT_KEY_ALGS, "HS256"] : [...CLIENT_KEY_ALGS];
    if (v !== undefined && !allowed.includes(v)) throw new InvalidClientMetadata(`${field} must be one of ${allowed.join(", ")}`);
  }

  const method = optString(body, "token_endpoint_auth_method");
  const authMethod = method === undefined ? null : await as(InvalidClientMetadata, () => checkAuthMethod(method));
  const isPublic = authMethod === "none";

  const jwksValue = body.jwks;
  if (jwksValue !== undefined && jwksValue !== null && (typeof jwksValue !== "object" || Array.isArray(jwksValue))) {
    throw new InvalidClientMetadata("jwks must be a JSON Web Key Set object");
  }
  const jwks = jwksValue ? await as(InvalidClientMetadata, () => checkJwks(jwksValue as JSONWebKeySet)) : null;
  const jwksUriValue = optString(body, "jwks_uri");
  const jwksUri = jwksUriValue === undefined ? null : await as(InvalidClientMetadata, async () => {
    const uri = checkJwksUri(jwksUriValue);
    await checkPublicHost(uri, "jwks_uri", allowLoopback);
    return uri;
  });
  // CIBA Core §4: the delivery mode is required with the grant; the notification endpoint is a URL the server
  // POSTs to, so it gets the SSRF rules of the logout and jwks URIs.
  const modeValue = optString(body, "backchannel_token_delivery_mode");
  if (modeValue === undefined && grantTypes.includes(CIBA_GRANT_TYPE)) {
    throw new InvalidClientMetadata(`backchannel_token_delivery_mode is required with the ${CIBA_GRANT_TYPE} grant `
      + "(CIBA Core §4)");
  }
  const deliveryMode = modeValue === undefined ? null : await as(InvalidClientMetadata, () => checkDeliveryMode(modeValue));
  const endpointValue = optString(body, "backchannel_client_notification_endpoint");
  const notificationEndpoint = endpointValue === undefined ? null : await as(InvalidClientMetadata, async () => {
    const uri = checkNotificationEndpoint(endpointValue);
    await checkPublicHost(uri, "backchannel_client_notification_endpoint", allowLoopback);
    return uri;
  });
  const signingAlgValue = optString(body, "backchannel_authentication_request_signing_alg");
  const signingAlg = signingAlgValue === undefined
    ? null : await as(InvalidClientMetadata, () => checkBackchannelSigningAlg(signingAlgValue));
  await as(InvalidClientMetadata, () => checkSecurityRules({
    isPublic, hasSecret: !isPublic && authMethod !== "private_key_jwt", authMethod,
    hasJwks: jwks !== null, hasJwksUri: jwksUri !== null,
    ciba: { grantTypes, deliveryMode, notificationEndpoint, signingAlg },
  }));

  const postLogoutRedirectUris = [...new Set(optStrings(body, "post_logout_redirect_uris") ?? [])];
  await as(InvalidClientMetadata, () => postLogoutRedirectUris.forEach((u) => checkRedirectUri(u, "post-logout redirect URI")));

  const logoutUri = (field: string, label: string) => {
    const v = optString(body, field);
    return v === undefined ? null : as(InvalidClientMetadata, async () => {
      const uri = checkLogoutUri(v, label);
      await checkPublicHost(uri, label, allowLoopback);
      return uri;
    });
  };
  const logout: ClientLogoutSettings = {
    backchannel_logout_uri: await logoutUri("backchannel_logout_uri", "backchannel_logout_uri"),
    backchannel_logout_session_required: optBool(body, "backchannel_logout_session_required"),
    frontchannel_logout_uri: await logoutUri("frontchannel_logout_uri", "frontchannel_logout_uri"),
    frontchannel_logout_session_required: optBool(body, "frontchannel_logout_session_required"),
  };

  // The pairwise sector (OpenID Connect Core §8.1, Registration §5): shared only by proof, else the client's own.
  const sectorIdentifierUri = optString(body, "sector_identifier_uri") ?? null;
  const sectorIdentifier = sectorIdentifierUri === null
    ? null : await provedSector({ sectorIdentifierUri, redirectUris, urls, grantTypes, allowLoopback });
  return {
    name, redirectUris, postLogoutRedirectUris, scopes, profile, authMethod, isPublic, jwks, jwksUri,
    grantTypes: grantTypes as ClientGrantType[],
    requireSignedRequestObject: optBool(body, "require_signed_request_object"),
    requirePushedAuthorizationRequests: optBool(body, "require_pushed_authorization_requests"),
    dpopBoundAccessTokens: optBool(body, "dpop_bound_access_tokens"),
    logout, sectorIdentifier, sectorIdentifierUri,
    backchannelTokenDeliveryMode: deliveryMode, backchannelClientNotificationEndpoint: notificationEndpoint,
    backchannelAuthRequestSigningAlg: signingAlg,
    backchannelUserCodeParameter: optBool(body, "backchannel_user_code_parameter"),
    idTokenSignedResponseAlg,
  };
}

/**
 * A shared pairwise sector, by proof (OpenID Connect Registration §5): the `sector_identifier_uri`, fetched from the
 * sector's host over https, lists every redirect URI, so that host vouches for them; its host (with port) is the
 * sector. Not with the CIBA grant: a backchannel client receives subject identifiers without ever using its redirect
 * URIs, so copying another relying party's redirect URIs and its published list would give it that party's PCRs.
 */
async function provedSector({ sectorIdentifierUri, redirectUris, urls, grantTypes, allowLoopback }: {
  sectorIdentifierUri: string; redirectUris: string[]; urls: URL[]; grantTypes: string[]; allowLoopback: boolean;
}): Promise<string> {
  if (grantTypes.includes(CIBA_GRANT_TYPE)) {
    throw new InvalidClientMetadata(`sector_identifier_uri cannot be registered with the ${CIBA_GRANT_TYPE} grant: a `
      + "backchannel client never uses its redirect URIs, so they prove no sector; it gets a sector of its own "
      + "(the operator can register a client in a shared sector)");
  }
  const listed = await as(InvalidClientMetadata, () => fetchSectorIdentifier(sectorIdentifierUri, allowLoopback));
  const missing = redirectUris.find((u) => !listed.uris.includes(u));
  if (missing) throw new InvalidRedirectUri(`redirect URI ${missing} is not listed at sector_identifier_uri`);
  return as(InvalidClientMetadata, () => resolveSectorIdentifier(urls, listed.host));
}
