/**
 * The network APIs' scopes (CAMARA Security and Interoperability Profile, docs/network-apis.md): API scopes of the
 * form `api-name:[resource:]action`, and purpose scopes `dpv:<Purpose>` (W3C Data Privacy Vocabulary). A request
 * that carries any API scope carries exactly one purpose scope; the fused `dpv:…#scope` form (removed from the
 * profile in May 2024) is not accepted.
 */
export const NETWORK_API_SCOPES = [
  "number-verification:verify",
  "number-verification:device-phone-number:read",
  "sim-swap:check",
  "sim-swap:retrieve-date",
  "kyc-match:match",
] as const;
export type NetworkApiScope = (typeof NETWORK_API_SCOPES)[number];

/** Number Verification's scopes: tokens carrying one are single use, live ≤ 300 s and never come with a refresh. */
export const NUMBER_VERIFICATION_SCOPES: readonly NetworkApiScope[] = [
  "number-verification:verify", "number-verification:device-phone-number:read",
];

/** `dpv:` then a DPV purpose name (letters and digits, starting with a capital), e.g. dpv:FraudPreventionAndDetection. */
export const PURPOSE_PATTERN = /^dpv:[A-Z][A-Za-z0-9]{1,99}$/;

/** Purposes the operator can declare (ApiPurpose) without a typo slipping through: the DPV purposes CAMARA names. */
export const KNOWN_PURPOSES = [
  "dpv:FraudPreventionAndDetection",
  "dpv:IdentityVerification",
  "dpv:ServiceProvision",
  "dpv:RequestedServiceProvision",
  "dpv:AccountManagement",
] as const;

export function isNetworkApiScope(scope: string): scope is NetworkApiScope {
  return (NETWORK_API_SCOPES as readonly string[]).includes(scope);
}

export function isPurposeScope(scope: string): boolean {
  return PURPOSE_PATTERN.test(scope);
}

/** The API scopes and purpose scopes of a scope list (other scopes are ignored). */
export function splitNetworkApiScopes(scopes: readonly string[]): { apiScopes: NetworkApiScope[]; purposes: string[] } {
  return { apiScopes: scopes.filter(isNetworkApiScope), purposes: scopes.filter(isPurposeScope) };
}

/** Whether a token with these scopes is a Number Verification token (single use, short, no refresh). */
export function isNumberVerificationGrant(scopes: readonly string[]): boolean {
  return scopes.some((s) => (NUMBER_VERIFICATION_SCOPES as readonly string[]).includes(s));
}

/**
 * `openid`, API scopes and their purpose, at least one API scope, and nothing else: a network-API request that asks
 * nothing beyond the pairwise sub. Only such a request may be approved without a screen (network-based
 * authentication: /authorize's consent decision, CIBA's silent approval; docs/network-authentication.md).
 */
export function isNetworkApiOnly(scopes: readonly string[]): boolean {
  return scopes.some(isNetworkApiScope) && scopes.every((s) => s === "openid" || isNetworkApiScope(s) || isPurposeScope(s));
}
