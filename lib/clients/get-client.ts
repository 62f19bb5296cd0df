import type { Client } from "@prisma/client";
import { db } from "../db";
import { broadcast, onBroadcast } from "../cluster/broadcast";
import type { JSONWebKeySet } from "jose";
import { isSigningAlg, SIGNING_ALG, type SigningAlg } from "../keys/key-store";
import { toClientProfile, type ClientProfile } from "./client-profile";
import { signsInWithFreshCode } from "./account-client-id";
import { toAuthMethod, type ClientAuthMethod, type ClientGrantType } from "./client-security";

export interface RegisteredClient {
  id: string;
  name: string;
  secretHash: string | null;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  allowedScopes: string[];
  sectorIdentifier: string;
  /** The rules the client is held to (lib/clients/client-profile.ts). */
  profile: ClientProfile;
  expiresInFormat: "timestamp" | "seconds";
  isPublic: boolean;
  active: boolean;
  // Strong client authentication and signed requests (lib/clients/client-security.ts)
  /** null: a secret (Basic or post), or `none` for a public client; otherwise only this method is accepted. */
  authMethod: ClientAuthMethod | null;
  /** The client's public keys registered by value, or null. */
  jwks: JSONWebKeySet | null;
  /** Or by reference: fetched and cached by lib/clients/client-keys.ts. */
  jwksUri: string | null;
  /** The client secret sealed with KEY_ENCRYPTION_SECRET (HS256 request objects), or null. */
  secretSealed: string | null;
  requireSignedRequestObject: boolean;
  requirePushedAuthorizationRequests: boolean;
  /** DPoP required at the token endpoint (RFC 9449 §5.2 `dpop_bound_access_tokens`). */
  dpopBoundAccessTokens: boolean;
  grantTypes: ClientGrantType[];
  clientCredentialsScopes: string[];
  consentFreeScopes: string[];
  registeredBy: "admin" | "dynamic";
  // OpenID Connect CIBA (lib/ciba, docs/ciba.md)
  /** How the client receives CIBA results: poll (the default), ping or push. */
  backchannelTokenDeliveryMode: "poll" | "ping" | "push";
  /** Where ping and push notifications go (https). */
  backchannelClientNotificationEndpoint: string | null;
  /** Set: the client's backchannel authentication requests must be signed request objects with this algorithm. */
  backchannelAuthRequestSigningAlg: string | null;
  backchannelUserCodeParameter: boolean;
  /** The operator lets it name a data session (`ipport:`) in CIBA and JWT-bearer (docs/network-authentication.md). */
  networkHintsAllowed: boolean;
  /**
   * OIDC Registration §2 `id_token_signed_response_alg`: the id_token's (and logout token's) alg; RS256 by default.
   * Always set by toRegisteredClient; optional only so hand-built records (test fixtures) mean RS256.
   */
  idTokenSignedResponseAlg?: SigningAlg;
  /**
   * Every authorization of this client is a fresh sign-in with the code sent by text message (the account page's own
   * client, lib/clients/account-client-id.ts): `/authorize` treats it as `prompt=login` whatever the request says
   * (prompt=none is `login_required`, prompt=mobile refused), and it is never signed in by the network nor approved
   * on the handset ("approve on your phone"). Set by toRegisteredClient; optional so hand-built records mean false.
   */
  freshCodeSignIn?: boolean;
}

const words = (value: string) => value.split(" ").filter(Boolean);

/**
 * Client records are read on every protocol request and change rarely: cached for a bounded time (30 s: a
 * change made by another process, the CLI or a second instance, is seen within that). The cache lives on
 * globalThis so the Next.js bundle (the console, which invalidates it) and the lean server bundle (the
 * protocol endpoints) of one process share it: each bundle has its own copy of this module.
 */
export const CLIENT_CACHE_MS = 30_000;
type ClientCache = Map<string, { at: number; client: RegisteredClient | null }>;
const CACHE_KEY = Symbol.for("operator-identity.client-cache");
/**
 * `generation` moves on each invalidation (as the key cache's, lib/keys/key-store.ts), so a read begun before
 * invalidateClient is returned to its caller but not written back: a disable in this process is seen at once.
 */
const GENERATION_KEY = Symbol.for("operator-identity.client-cache-generation");
const shared = globalThis as { [CACHE_KEY]?: ClientCache; [GENERATION_KEY]?: { value: number } };
const cache: ClientCache = (shared[CACHE_KEY] ??= new Map());
const generation = (shared[GENERATION_KEY] ??= { value: 0 });
/** Drops one client (every client when none is named) from this process's cache; a read under way is not kept. */
function dropCached(clientId: string | undefined) {
  generation.value++;
  if (clientId === undefined) cache.clear();
  else cache.delete(clientId);
}
// Another worker of this machine changed a client (lib/cluster/broadcast.ts): drop this process's copy too.
onBroadcast("client-cache", (clientId) => dropCached(typeof clientId === "string" ? clientId : undefined));

export function toRegisteredClient(row: Client): RegisteredClient {
  return {
    id: row.id,
    name: row.name,
    secretHash: row.secretHash,
    redirectUris: JSON.parse(row.redirectUris) as string[],
    postLogoutRedirectUris: JSON.parse(row.postLogoutRedirectUris) as string[],
    allowedScopes: words(row.allowedScopes),
    sectorIdentifier: row.sectorIdentifier,
    profile: toClientProfile(row.profile),
    expiresInFormat: row.expiresInFormat === "seconds" ? "seconds" : "timestamp",
    isPublic: row.isPublic,
    active: row.status === "active",
    authMethod: toAuthMethod(row.tokenEndpointAuthMethod),
    jwks: row.jwks ? (JSON.parse(row.jwks) as JSONWebKeySet) : null,
    jwksUri: row.jwksUri,
    secretSealed: row.secretSealed,
    requireSignedRequestObject: row.requireSignedRequestObject,
    requirePushedAuthorizationRequests: row.requirePushedAuthorizationRequests,
    dpopBoundAccessTokens: row.dpopBoundAccessTokens,
    grantTypes: words(row.grantTypes) as ClientGrantType[],
    clientCredentialsScopes: words(row.clientCredentialsScopes),
    consentFreeScopes: words(row.consentFreeScopes),
    registeredBy: row.registeredBy === "dynamic" ? "dynamic" : "admin",
    backchannelTokenDeliveryMode: row.backchannelTokenDeliveryMode === "ping" || row.backchannelTokenDeliveryMode === "push"
      ? row.backchannelTokenDeliveryMode : "poll",
    backchannelClientNotificationEndpoint: row.backchannelClientNotificationEndpoint,
    backchannelAuthRequestSigningAlg: row.backchannelAuthRequestSigningAlg,
    backchannelUserCodeParameter: row.backchannelUserCodeParameter,
    networkHintsAllowed: row.networkHintsAllowed,
    idTokenSignedResponseAlg: isSigningAlg(row.idTokenSignedResponseAlg) ? row.idTokenSignedResponseAlg : SIGNING_ALG,
    freshCodeSignIn: signsInWithFreshCode(row.id),
  };
}

/**
 * The client registered under `clientId`, or null when unknown. Disabled clients (lib/clients/set-client-disabled.ts)
 * are returned with `active: false` so callers can tell "unknown" from "disabled" in logs but refuse both.
 */
export async function getClient({ clientId }: { clientId: string }): Promise<RegisteredClient | null> {
  if (!clientId || clientId.length > 200) return null;
  const hit = cache.get(clientId);
  if (hit && Date.now() - hit.at < CLIENT_CACHE_MS) return hit.client;
  const started = generation.value;
  const row = await db.client.findUnique({ where: { id: clientId } });
  const client = row ? toRegisteredClient(row) : null;
  if (generation.value !== started) return client;
  cache.set(clientId, { at: Date.now(), client });
  if (cache.size > 10_000) cache.delete(cache.keys().next().value!);
  return client;
}

/** Drops a client from this process's cache (both bundles'; other processes see the change within CLIENT_CACHE_MS). */
export function invalidateClient({ clientId }: { clientId: string }) {
  dropCached(clientId);
  broadcast("client-cache", clientId); // the other workers of this machine (a no-op with WORKERS=1)
}
