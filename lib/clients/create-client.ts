import { db } from "../db";
import { markSecretVerified } from "../security/verified-client-secret";
import { hashSecret, randomToken } from "../crypto";
import { AdminError } from "../admin/admin-error";
import { isUniqueViolation } from "../store/is-unique-violation";
import {
  checkClientName, checkIdTokenAlg, checkProfile, checkRedirectUri, checkScopes, resolveSectorIdentifier,
} from "./client-fields";
import { toClientRecord, type ClientRecord } from "./client-record";
import { checkClientNameFree, withClientNameHeld } from "./check-client-name-free";
import { invalidateClient } from "./get-client";
import { DEFAULT_PROFILE, defaultExpiresInFormat, type ClientProfile } from "./client-profile";
import { checkSecurityRules, DEFAULT_GRANT_TYPES, securityColumns, type ClientSecurityInput } from "./client-security";
import { sealClientSecret } from "./seal-client-secret";
import { ownSector } from "./own-sector";

export interface CreateClientInput extends ClientSecurityInput {
  name: string;
  redirectUris: readonly string[];
  scopes: readonly string[];
  /** Default `oidc` (lib/clients/client-profile.ts). */
  profile?: ClientProfile;
  /** Default: the profile's (`seconds` for `oidc`, `timestamp` for `mobile-connect`). */
  expiresInFormat?: "timestamp" | "seconds";
  isPublic?: boolean;
  postLogoutRedirectUris?: readonly string[];
  sectorIdentifier?: string;
  /**
   * A sector of the client's own (own-sector.ts) instead of its redirect URIs' host: for self-registered clients
   * that proved no shared sector. Excludes `sectorIdentifier`.
   */
  ownSector?: boolean;
  /** `id_token_signed_response_alg`: RS256 (the default), PS256, ES256 or EdDSA. */
  idTokenSignedResponseAlg?: string;
  /** Fixed credentials, for the documented demo client only; otherwise both are generated. */
  fixedCredentials?: { clientId: string; clientSecret: string };
  /** `dynamic` for clients created by the registration endpoint (RFC 7591). */
  registeredBy?: "admin" | "dynamic";
  /** SHA-256 of the registration access token (RFC 7592), for dynamic clients. */
  registrationAccessTokenHash?: string;
}

/**
 * Registers a relying party. The secret (absent for public clients, which must use PKCE, and for
 * `private_key_jwt` clients, which authenticate with their keys) is returned once; its scrypt hash is
 * stored, and a sealed copy for HS256 request objects (seal-client-secret.ts). Names are unique so
 * `client_name` is unambiguous, and so are their confusable skeletons (check-client-name-free.ts), so no two clients
 * look alike on a subscriber's screen: ClientNameTaken otherwise.
 */
export async function createClient(input: CreateClientInput): Promise<{ client: ClientRecord; clientSecret: string | null }> {
  const name = checkClientName(input.name);
  const redirectUris = [...new Set(input.redirectUris)];
  if (redirectUris.length === 0) throw new AdminError("at least one redirect URI is required");
  const urls = redirectUris.map((u) => checkRedirectUri(u));
  const postLogout = [...new Set(input.postLogoutRedirectUris ?? [])];
  postLogout.forEach((u) => checkRedirectUri(u, "post-logout redirect URI"));
  const scopes = checkScopes(input.scopes);
  if (input.ownSector && input.sectorIdentifier !== undefined) throw new AdminError("a client's own sector excludes a sector identifier");
  const hostSector = input.ownSector ? null : resolveSectorIdentifier(urls, input.sectorIdentifier);
  const isPublic = input.isPublic ?? false;
  const profile = checkProfile(input.profile ?? DEFAULT_PROFILE);
  const idTokenSignedResponseAlg = checkIdTokenAlg(input.idTokenSignedResponseAlg ?? "RS256");
  const security = await securityColumns(input);
  const keyOnly = security.tokenEndpointAuthMethod === "private_key_jwt";
  checkSecurityRules({
    isPublic, hasSecret: !isPublic && !keyOnly, authMethod: input.authMethod ?? null,
    hasJwks: Boolean(security.jwks), hasJwksUri: Boolean(security.jwksUri),
    ciba: { // CIBA (docs/ciba.md)
      grantTypes: typeof security.grantTypes === "string" ? security.grantTypes.split(" ") : DEFAULT_GRANT_TYPES,
      deliveryMode: (security.backchannelTokenDeliveryMode as string | null | undefined) ?? null,
      notificationEndpoint: (security.backchannelClientNotificationEndpoint as string | null | undefined) ?? null,
      signingAlg: (security.backchannelAuthRequestSigningAlg as string | null | undefined) ?? null,
    },
  });

  const nameSkeleton = await checkClientNameFree({ name });
  const id = input.fixedCredentials?.clientId ?? newClientId();
  const sectorIdentifier = hostSector ?? ownSector(id);
  const clientSecret = isPublic || keyOnly ? null : (input.fixedCredentials?.clientSecret ?? randomToken(32));
  const secretHash = clientSecret ? await hashSecret(clientSecret) : null;
  try {
    const row = await withClientNameHeld({ name }, () => db.client.create({
      data: {
        id, name, nameSkeleton, sectorIdentifier, isPublic,
        secretHash,
        secretSealed: clientSecret ? sealClientSecret(clientSecret) : null,
        redirectUris: JSON.stringify(redirectUris),
        postLogoutRedirectUris: JSON.stringify(postLogout),
        allowedScopes: scopes.join(" "),
        profile,
        expiresInFormat: input.expiresInFormat ?? defaultExpiresInFormat(profile),
        idTokenSignedResponseAlg,
        ...security,
        registeredBy: input.registeredBy ?? "admin",
        registrationAccessTokenHash: input.registrationAccessTokenHash ?? null,
      },
    }));
    invalidateClient({ clientId: id });
    // The rightful secret passes even while someone else's failures throttle its address (lib/http/client-auth.ts).
    if (clientSecret && row.secretHash) {
      await markSecretVerified({ clientId: id, secretHash: row.secretHash, secret: clientSecret });
    }
    return { client: toClientRecord(row), clientSecret };
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new AdminError(input.fixedCredentials ? `a client with id ${id} already exists`
        : `a client named like "${name}" was written at the same moment; try again`);
    }
    throw err;
  }
}

/**
 * A new client_id: 144 random bits, base64url, never starting with "-" (the admin CLI, like any
 * command line, would read such an id as an option; 1 in 64 ids did).
 */
export function newClientId(): string {
  for (;;) {
    const id = randomToken(18);
    if (!id.startsWith("-")) return id;
  }
}
