/**
 * Client profiles (docs/interface.md, "Client profiles"): the set of protocol rules a relying party
 * is held to, chosen at registration.
 *
 * | rule                          | `mobile-connect` (the interface as written) | `oidc` (OIDC Core, RFC 9700)     |
 * |-------------------------------|---------------------------------------------|----------------------------------|
 * | `nonce` at /authorize         | required                                    | optional; checked and echoed     |
 * | `state` at /authorize         | required                                    | required unless PKCE S256 is used |
 * | `expires_in` (default)        | absolute time, a string                     | seconds, a number                |
 *
 * `expires_in` is the client's `expiresInFormat` option: the profile only chooses its value when the
 * client is registered (or its profile changed without naming a format), so an existing client keeps the
 * format it has. Everything else (Mobile Connect scopes, login hints, acr_values 2/3, premium info,
 * displays, the `Authentication` header and JSON token bodies) is the same under both.
 */
export const CLIENT_PROFILES = ["oidc", "mobile-connect"] as const;
export type ClientProfile = (typeof CLIENT_PROFILES)[number];

/** The profile of a client registered by the admin CLI (or any other caller) without naming one. */
export const DEFAULT_PROFILE: ClientProfile = "oidc";

/** The `expires_in` format a profile gives a client that does not choose one. */
export function defaultExpiresInFormat(profile: ClientProfile): "timestamp" | "seconds" {
  return profile === "mobile-connect" ? "timestamp" : "seconds";
}

/**
 * A stored profile value read back. Anything but `oidc` is read as `mobile-connect`, the stricter
 * rules and the column's default (rows written before profiles existed).
 */
export function toClientProfile(value: string): ClientProfile {
  return value === "oidc" ? "oidc" : "mobile-connect";
}
