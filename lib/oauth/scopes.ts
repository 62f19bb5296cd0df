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
