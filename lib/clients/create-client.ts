import { db } from "../db";
import { markSecretVerified } from "../security/verified-client-secret";
import { hashSecret, randomToken } from "../crypto";
import { AdminError } from "../admin/admin-error";
import { isUniqueViolation } from "../store/is-unique-violation";
import { checkClientName, checkProfile, checkRedirectUri, checkScopes, resolveSectorIdentifier } from "./client-fields";
import { toClientRecord, type ClientRecord } from "./client-record";
import { invalidateClient } from "./get-client";
import { DEFAULT_PROFILE, defaultExpiresInFormat, type ClientProfile } from "./client-profile";

export interface CreateClientInput {
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
  /** Fixed credentials, for the documented demo client only; otherwise both are generated. */
  fixedCredentials?: { clientId: string; clientSecret: string };
}

/**
 * Registers a relying party. The secret (absent for public clients, which must use PKCE) is
 * returned once; only its scrypt hash is stored. Names are unique so `client_name` is unambiguous.
 */
export async function createClient(input: CreateClientInput): Promise<{ client: ClientRecord; clientSecret: string | null }> {
  const name = checkClientName(input.name);
  const redirectUris = [...new Set(input.redirectUris)];
  if (redirectUris.length === 0) throw new AdminError("at least one redirect URI is required");
  const urls = redirectUris.map((u) => checkRedirectUri(u));
  const postLogout = [...new Set(input.postLogoutRedirectUris ?? [])];
  postLogout.forEach((u) => checkRedirectUri(u, "post-logout redirect URI"));
  const scopes = checkScopes(input.scopes);
  const sectorIdentifier = resolveSectorIdentifier(urls, input.sectorIdentifier);
  const isPublic = input.isPublic ?? false;
  const profile = checkProfile(input.profile ?? DEFAULT_PROFILE);

  if (await db.client.findFirst({ where: { name }, select: { id: true } })) {
    throw new AdminError(`a client named "${name}" already exists`);
  }
  const id = input.fixedCredentials?.clientId ?? newClientId();
  const clientSecret = isPublic ? null : (input.fixedCredentials?.clientSecret ?? randomToken(32));
  try {
    const row = await db.client.create({
      data: {
        id, name, sectorIdentifier, isPublic,
        secretHash: clientSecret ? await hashSecret(clientSecret) : null,
        redirectUris: JSON.stringify(redirectUris),
        postLogoutRedirectUris: JSON.stringify(postLogout),
        allowedScopes: scopes.join(" "),
        profile,
        expiresInFormat: input.expiresInFormat ?? defaultExpiresInFormat(profile),
      },
    });
    invalidateClient({ clientId: id });
    // The rightful secret passes even while someone else's failures throttle its address (lib/http/client-auth.ts).
    if (clientSecret && row.secretHash) {
      await markSecretVerified({ clientId: id, secretHash: row.secretHash, secret: clientSecret });
    }
    return { client: toClientRecord(row), clientSecret };
  } catch (err) {
    if (isUniqueViolation(err)) throw new AdminError(`a client with id ${id} already exists`);
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
