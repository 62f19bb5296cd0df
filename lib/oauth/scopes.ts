import { KNOWN_PURPOSES } from "../network-apis/camara-scopes";

/** Every scope the interface names (authorization endpoint, `scope` row). */
export const SUPPORTED_SCOPES = [
  "openid",
  "mc_authn",
  "mc_authz",
  "mc_identity_signup",
  "mc_identity_phonenumber",
  "mc_identity_nationalid",
  "profile",
  "email",
  "address",
  "phone",
  "offline_access",
] as const;

export type Scope = (typeof SUPPORTED_SCOPES)[number];

/** Scopes that unlock the premium info record. */
export const IDENTITY_SCOPES = ["mc_identity_signup", "mc_identity_phonenumber", "mc_identity_nationalid"] as const;

/** Profile versions accepted in `version` (spec default plus the values the operator SDKs send). */
export const SUPPORTED_VERSIONS = ["mc_v1.1", "mc_v1.2", "mc_v2.0", "mc_v2_0", "mc_di_r2_v2.3", "mc_di_v3.0"] as const;

export const ACR_VALUES = ["2", "3"] as const;
export const DISPLAY_VALUES = ["page", "popup", "touch", "wap"] as const;
export const LOGIN_HINT_METHODS = ["MSISDN", "ENCR_MSISDN", "PCR"] as const;
export const UI_LOCALES = ["en", "fr"] as const;

/** Parses a space-delimited scope string into a de-duplicated list (order kept). */
export function parseScope(scope: string): string[] {
  return [...new Set(scope.split(" ").filter(Boolean))];
}

/**
 * Scopes a `client_credentials` token may carry (RFC 6749 §4.4, docs/grants.md). Such a token names no
 * subscriber, so none of SUPPORTED_SCOPES (each one releases or concerns a subscriber's data) makes sense on it:
 * client-credential scopes are their own vocabulary, of what a server may do for itself. The operator gives a
 * client some of them (Client.clientCredentialsScopes, validated against this list); nothing else is ever granted.
 * - `introspection`: the token may call the introspection endpoint as a bearer token (RFC 7662 §2.1), for a
 *   resource server that holds no client secret of its own there.
 * - Network APIs (issue 21, docs/network-apis.md), two-legged: SIM Swap and KYC Match (never Number Verification,
 *   which is about the line the request comes from), with one purpose scope; only where the operator's declared
 *   basis for the purpose is not `consent` (checked at the token endpoint: client-credentials-grant.ts).
 */
export const CLIENT_CREDENTIALS_SCOPES = [
  "introspection", "sim-swap:check", "sim-swap:retrieve-date", "kyc-match:match", ...KNOWN_PURPOSES,
] as const;
