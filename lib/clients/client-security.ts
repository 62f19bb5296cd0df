import { importJWK, type JSONWebKeySet, type JWK } from "jose";
import { AdminError } from "../admin/admin-error";
import { CLIENT_CREDENTIALS_SCOPES, SUPPORTED_SCOPES } from "../oauth/scopes";
import { checkRedirectUri } from "./client-fields";
import { CIBA_GRANT_TYPE, DELIVERY_MODES, type DeliveryMode } from "../ciba/ciba";

/**
 * A client's strong-authentication options (issue 19, docs/client-authentication.md): how it
 * authenticates, its public keys, and what it must do (signed request objects, PAR, DPoP). Validation of
 * operator and registration input lives here, one AdminError line per failure, like client-fields.ts.
 */

/** `token_endpoint_auth_method` values a client may be registered with (RFC 7591 §2). */
export const CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"] as const;
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];

/** Asymmetric algorithms accepted for client assertions, request objects and DPoP proofs (never `none`, never HMAC). */
export const CLIENT_KEY_ALGS = ["RS256", "PS256", "ES256"] as const;

/** Grant types a client may be allowed (the token endpoint's GRANTS decide which exist). */
export const CLIENT_GRANT_TYPES = [
  "authorization_code", "refresh_token", "client_credentials", "urn:ietf:params:oauth:grant-type:jwt-bearer",
  "urn:openid:params:grant-type:ciba",
] as const;
export type ClientGrantType = (typeof CLIENT_GRANT_TYPES)[number];
export const DEFAULT_GRANT_TYPES: ClientGrantType[] = ["authorization_code", "refresh_token"];

/** A stored method read back: unknown values (none today) read as null, the secret rules. */
export function toAuthMethod(value: string | null): ClientAuthMethod | null {
  return (CLIENT_AUTH_METHODS as readonly string[]).includes(value ?? "") ? (value as ClientAuthMethod) : null;
}

export function checkAuthMethod(method: string): ClientAuthMethod {
  const found = toAuthMethod(method);
  if (!found) throw new AdminError(`token endpoint auth method must be one of ${CLIENT_AUTH_METHODS.join(", ")}`);
  return found;
}

const MAX_JWKS_BYTES = 64 * 1024;
const MAX_KEYS = 20;

/**
 * A public JSON Web Key Set given by value (JSON text or object): 1-20 keys of kty RSA (≥ 2048 bits) or EC
 * P-256, no private or symmetric material, each importable, `kid`s unique. Returns the set as stored.
 */
export async function checkJwks(value: string | JSONWebKeySet): Promise<JSONWebKeySet> {
  let set: unknown = value;
  if (typeof value === "string") {
    if (value.length > MAX_JWKS_BYTES) throw new AdminError(`jwks must be at most ${MAX_JWKS_BYTES} bytes`);
    try {
      set = JSON.parse(value);
    } catch {
      throw new AdminError("jwks is not valid JSON");
    }
  }
  const keys = (set as { keys?: unknown })?.keys;
  if (!Array.isArray(keys) || keys.length === 0 || keys.length > MAX_KEYS) {
    throw new AdminError(`jwks must be an object with a "keys" array of 1-${MAX_KEYS} keys`);
  }
  const kids = new Set<string>();
  const clean: JWK[] = [];
  for (const [i, key] of (keys as unknown[]).entries()) {
    if (typeof key !== "object" || key === null) throw new AdminError(`jwks key ${i} is not an object`);
    const jwk = key as JWK;
    if (jwk.d !== undefined || jwk.k !== undefined || jwk.p !== undefined) {
      throw new AdminError(`jwks key ${i} holds private or symmetric key material: register public keys only`);
    }
    if (jwk.kty === "RSA") {
      if (typeof jwk.n !== "string" || Buffer.from(jwk.n, "base64url").length * 8 < 2048) {
        throw new AdminError(`jwks key ${i}: RSA keys must have at least 2048 bits`);
      }
    } else if (!(jwk.kty === "EC" && jwk.crv === "P-256")) {
      throw new AdminError(`jwks key ${i}: only RSA and EC P-256 keys are accepted`);
    }
    if (jwk.use !== undefined && jwk.use !== "sig") throw new AdminError(`jwks key ${i}: use must be "sig"`);
    if (jwk.kid !== undefined) {
      if (typeof jwk.kid !== "string" || kids.has(jwk.kid)) throw new AdminError(`jwks key ${i}: kid must be a unique string`);
      kids.add(jwk.kid);
    }
    try {
      await importJWK(jwk, jwk.kty === "EC" ? "ES256" : (jwk.alg ?? "RS256"));
    } catch {
      throw new AdminError(`jwks key ${i} cannot be read as a public key`);
    }
    clean.push(jwk);
  }
  return { keys: clean };
}

/** A `jwks_uri`: https, or http on a loopback host (development and tests), as redirect URIs. */
export function checkJwksUri(uri: string): string {
  const url = checkRedirectUri(uri, "jwks_uri");
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new AdminError("jwks_uri must be an https URL");
  return uri;
}

export function checkGrantTypes(types: readonly string[]): ClientGrantType[] {
  const list = [...new Set(types.flatMap((t) => t.split(/[ ,]/)).filter(Boolean))];
  const unknown = list.filter((t) => !(CLIENT_GRANT_TYPES as readonly string[]).includes(t));
  if (unknown.length) throw new AdminError(`unknown grant type ${unknown.join(", ")} (supported: ${CLIENT_GRANT_TYPES.join(" ")})`);
  if (list.length === 0) throw new AdminError("at least one grant type is required");
  return list as ClientGrantType[];
}

/**
 * A list of scopes from `vocabulary` (the subscriber scopes by default, without the `openid` requirement of the
 * sign-in scopes; CLIENT_CREDENTIALS_SCOPES for clientCredentialsScopes), de-duplicated.
 */
export function checkScopeList(scopes: readonly string[], label: string,
  vocabulary: readonly string[] = SUPPORTED_SCOPES): string[] {
  const list = [...new Set(scopes.flatMap((s) => s.split(" ")).filter(Boolean))];
  const unknown = list.filter((s) => !vocabulary.includes(s));
  if (unknown.length) throw new AdminError(`${label}: unknown scope ${unknown.join(", ")}`);
  return list;
}

// ---- OpenID Connect CIBA client options (CIBA Core 1.0 §4, docs/ciba.md) ----

/** `backchannel_token_delivery_mode`: poll, ping or push. */
export function checkDeliveryMode(mode: string): DeliveryMode {
  if (!(DELIVERY_MODES as readonly string[]).includes(mode)) {
    throw new AdminError(`backchannel token delivery mode must be one of ${DELIVERY_MODES.join(", ")}`);
  }
  return mode as DeliveryMode;
}

/**
 * `backchannel_client_notification_endpoint` (CIBA Core §4): an absolute https URL without fragment or
 * credentials, where ping and push notifications are POSTed; http only on a loopback host, like every other
 * URL a client registers (development and tests). A dynamic client's is also checked against internal
 * addresses (lib/registration/internal-address.ts), and the delivery checks the address again when it connects.
 */
export function checkNotificationEndpoint(uri: string): string {
  const label = "backchannel client notification endpoint";
  const url = checkRedirectUri(uri, label);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new AdminError(`${label} must be an https URL`);
  return uri;
}

/** `backchannel_authentication_request_signing_alg`: one of the client key algorithms (never none, never HMAC). */
export function checkBackchannelSigningAlg(alg: string): string {
  if (!(CLIENT_KEY_ALGS as readonly string[]).includes(alg)) {
    throw new AdminError(`backchannel authentication request signing alg must be one of ${CLIENT_KEY_ALGS.join(", ")}`);
  }
  return alg;
}

/** Options a client may be created or changed with (createClient, updateClient, registration). */
export interface ClientSecurityInput {
  authMethod?: ClientAuthMethod | null;
  jwks?: string | JSONWebKeySet | null;
  jwksUri?: string | null;
  requireSignedRequestObject?: boolean;
  requirePushedAuthorizationRequests?: boolean;
  dpopBoundAccessTokens?: boolean;
  grantTypes?: readonly string[];
  clientCredentialsScopes?: readonly string[];
  consentFreeScopes?: readonly string[];
  // CIBA (docs/ciba.md); null clears
  backchannelTokenDeliveryMode?: string | null;
  backchannelClientNotificationEndpoint?: string | null;
  backchannelAuthRequestSigningAlg?: string | null;
  backchannelUserCodeParameter?: boolean;
  /**
   * The operator's permission to name a data session (`ipport:` login hint in CIBA, `sub` in JWT-bearer;
   * docs/network-authentication.md). Admin only (`client create|set --network-hints`): registration never sets it.
   */
  networkHintsAllowed?: boolean;
}

/** The validated columns for ClientSecurityInput (only the fields given); consistency of the whole is checked by checkSecurityRules. */
export async function securityColumns(input: ClientSecurityInput) {
  const data: Record<string, string | boolean | null> = {};
  if (input.authMethod !== undefined) data.tokenEndpointAuthMethod = input.authMethod === null ? null : checkAuthMethod(input.authMethod);
  if (input.jwks !== undefined) data.jwks = input.jwks === null ? null : JSON.stringify(await checkJwks(input.jwks));
  if (input.jwksUri !== undefined) data.jwksUri = input.jwksUri === null ? null : checkJwksUri(input.jwksUri);
  if (input.requireSignedRequestObject !== undefined) data.requireSignedRequestObject = input.requireSignedRequestObject;
  if (input.requirePushedAuthorizationRequests !== undefined) {
    data.requirePushedAuthorizationRequests = input.requirePushedAuthorizationRequests;
  }
  if (input.dpopBoundAccessTokens !== undefined) data.dpopBoundAccessTokens = input.dpopBoundAccessTokens;
  if (input.grantTypes !== undefined) data.grantTypes = checkGrantTypes(input.grantTypes).join(" ");
  if (input.clientCredentialsScopes !== undefined) {
    data.clientCredentialsScopes = checkScopeList(input.clientCredentialsScopes, "client credentials scopes",
      CLIENT_CREDENTIALS_SCOPES).join(" ");
  }
  if (input.consentFreeScopes !== undefined) data.consentFreeScopes = checkScopeList(input.consentFreeScopes, "consent-free scopes").join(" ");
  if (input.backchannelTokenDeliveryMode !== undefined) {
    data.backchannelTokenDeliveryMode = input.backchannelTokenDeliveryMode === null
      ? null : checkDeliveryMode(input.backchannelTokenDeliveryMode);
  }
  if (input.backchannelClientNotificationEndpoint !== undefined) {
    data.backchannelClientNotificationEndpoint = input.backchannelClientNotificationEndpoint === null
      ? null : checkNotificationEndpoint(input.backchannelClientNotificationEndpoint);
  }
  if (input.backchannelAuthRequestSigningAlg !== undefined) {
    data.backchannelAuthRequestSigningAlg = input.backchannelAuthRequestSigningAlg === null
      ? null : checkBackchannelSigningAlg(input.backchannelAuthRequestSigningAlg);
  }
  if (input.backchannelUserCodeParameter !== undefined) data.backchannelUserCodeParameter = input.backchannelUserCodeParameter;
  if (input.networkHintsAllowed !== undefined) data.networkHintsAllowed = input.networkHintsAllowed;
  return data;
}

/** The rules a client's options must satisfy together (after a create or a change). */
export function checkSecurityRules(c: {
  isPublic: boolean; hasSecret: boolean; authMethod: ClientAuthMethod | null; hasJwks: boolean; hasJwksUri: boolean;
  /** CIBA (docs/ciba.md): absent for callers that change none of it. */
  ciba?: CibaRuleInput;
}) {
  if (c.hasJwks && c.hasJwksUri) throw new AdminError("give jwks or jwks_uri, not both (RFC 7591 §2)");
  if (c.authMethod === "private_key_jwt" && !c.hasJwks && !c.hasJwksUri) {
    throw new AdminError("private_key_jwt needs the client's public keys: give jwks or jwks_uri");
  }
  if (c.authMethod === "none" && !c.isPublic) throw new AdminError("auth method none is for public clients only");
  if (c.isPublic && c.authMethod !== null && c.authMethod !== "none") {
    throw new AdminError("a public client has no credentials: its auth method is none");
  }
  if ((c.authMethod === "client_secret_basic" || c.authMethod === "client_secret_post") && !c.hasSecret) {
    throw new AdminError(`${c.authMethod} needs a client secret`);
  }
  if (c.ciba) checkCibaRules({ ...c.ciba, isPublic: c.isPublic, hasKeys: c.hasJwks || c.hasJwksUri });
}

/** A client's CIBA options as stored or asked (grant types and the four backchannel fields). */
export interface CibaRuleInput {
  grantTypes: readonly string[];
  deliveryMode: string | null;
  notificationEndpoint: string | null;
  signingAlg: string | null;
}

/**
 * The CIBA rules (CIBA Core §4): the grant is for confidential clients (a backchannel request is made by the
 * relying party's server, always client-authenticated); ping and push need a notification endpoint; signed
 * authentication requests need the client's public keys.
 */
export function checkCibaRules(c: CibaRuleInput & { isPublic: boolean; hasKeys: boolean }) {
  if (c.grantTypes.includes(CIBA_GRANT_TYPE) && c.isPublic) {
    throw new AdminError(`the ${CIBA_GRANT_TYPE} grant needs a confidential client (public clients cannot authenticate)`);
  }
  if ((c.deliveryMode === "ping" || c.deliveryMode === "push") && !c.notificationEndpoint) {
    throw new AdminError(`${c.deliveryMode} mode needs a backchannel client notification endpoint`);
  }
  if (c.signingAlg && !c.hasKeys) {
    throw new AdminError("signed backchannel authentication requests need the client's public keys: give jwks or jwks_uri");
  }
}
