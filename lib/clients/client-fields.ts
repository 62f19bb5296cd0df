import { SUPPORTED_SCOPES } from "../oauth/scopes";
import { isNetworkApiScope, isPurposeScope } from "../network-apis/camara-scopes";
import { AdminError } from "../admin/admin-error";
import { CLIENT_PROFILES, type ClientProfile } from "./client-profile";
import { isSigningAlg, SIGNING_ALGS, type SigningAlg } from "../keys/key-store";
import { isPlainHost } from "../http/uri-host";

// Validation of operator input for client registration. Every failure is one AdminError line.

const NAME = /^[A-Za-z0-9_.-](?:[A-Za-z0-9 _.-]{0,62}[A-Za-z0-9_.-])?$/;
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
// RFC 8252 §7.1: native apps use a private-use scheme in reverse domain name form (`com.example.app:/cb`).
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(?:\.[a-z0-9+-]+)+$/;
const SECTOR = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?(?::\d{1,5})?$/;

/** The short name the client must send as `client_name`: 1-64 of [A-Za-z0-9 _.-], no outer spaces. */
export function checkClientName(name: string): string {
  if (!NAME.test(name)) {
    throw new AdminError("client name must be 1-64 characters of letters, digits, space, '_', '.', '-' (no leading or trailing space)");
  }
  return name;
}

/** A client profile (lib/clients/client-profile.ts): `oidc` or `mobile-connect`. */
export function checkProfile(profile: string): ClientProfile {
  if (!(CLIENT_PROFILES as readonly string[]).includes(profile)) {
    throw new AdminError(`profile must be one of ${CLIENT_PROFILES.join(", ")}`);
  }
  return profile as ClientProfile;
}

/**
 * The id_token signing algorithm (`id_token_signed_response_alg`): RS256, PS256, ES256 or EdDSA, each signed with the
 * service's own key of that algorithm (lib/keys/key-store.ts). `none` (unsigned) is never accepted.
 */
export function checkIdTokenAlg(alg: string): SigningAlg {
  if (!isSigningAlg(alg)) {
    throw new AdminError(`id_token_signed_response_alg must be one of ${SIGNING_ALGS.join(", ")}`
      + (alg === "none" ? " (unsigned ID tokens are not issued)" : ""));
  }
  return alg;
}

/**
 * An exact redirect URI (RFC 6749 §3.1.2, RFC 9700 §2.1): absolute, no fragment, no credentials, no
 * wildcard; https, or http on a loopback host (RFC 8252 §7.3), or a private-use scheme for native apps.
 * Returns the parsed URL; the string itself is stored as typed because matching is exact.
 */
export function checkRedirectUri(uri: string, label = "redirect URI"): URL {
  if (uri.length === 0 || uri.length > 2000) throw new AdminError(`${label} must be 1-2000 characters`);
  if (/[\s*]/.test(uri)) throw new AdminError(`${label} must not contain spaces or wildcards`);
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new AdminError(`${label} ${uri} is not an absolute URI`);
  }
  if (uri.includes("#")) throw new AdminError(`${label} ${uri} must not contain a fragment (RFC 6749 §3.1.2)`);
  if (url.username || url.password) throw new AdminError(`${label} ${uri} must not contain credentials`);
  checkPlainHost(url, label, uri);
  const scheme = url.protocol.slice(0, -1);
  if (scheme === "https" && url.hostname) return url;
  if (scheme === "http") {
    if (LOOPBACK.has(url.hostname)) return url;
    throw new AdminError(`${label} ${uri} must use https (http is allowed only for localhost, 127.0.0.1 and [::1])`);
  }
  if (PRIVATE_USE_SCHEME.test(scheme)) return url;
  throw new AdminError(`${label} ${uri} must use https, http on a loopback host, or a reverse-domain app scheme`);
}

/**
 * Every URI a client registers (redirect, post-logout, logout, jwks, notification, sector identifier) has, if any
 * host, an LDH DNS name or an IP literal (lib/http/uri-host.ts): WHATWG URL accepts `https://0;sandbox/cb`, whose host
 * would otherwise reach a CSP header or a pairwise sector as typed.
 */
export function checkPlainHost(url: URL, label: string, uri: string): void {
  if (url.hostname !== "" && !isPlainHost(url.hostname)) {
    throw new AdminError(`${label} ${uri} must have a DNS host name (letters, digits, hyphens and dots) `
      + "or an IP address");
  }
}

/**
 * The requested scopes, de-duplicated: each one supported (a Mobile Connect / OpenID scope, a network-API scope or
 * a `dpv:` purpose scope, docs/network-apis.md), `openid` among them.
 */
export function checkScopes(scopes: readonly string[]): string[] {
  const list = [...new Set(scopes.flatMap((s) => s.split(" ")).filter(Boolean))];
  const unknown = list.filter((s) => !(SUPPORTED_SCOPES as readonly string[]).includes(s) && !isNetworkApiScope(s)
    && !isPurposeScope(s));
  if (unknown.length) {
    throw new AdminError(`unknown scope ${unknown.join(", ")} (supported: ${SUPPORTED_SCOPES.join(" ")})`);
  }
  if (!list.includes("openid")) throw new AdminError("scopes must include openid");
  return list;
}

/** The sector a redirect URI belongs to: its host (with port), or its scheme for app schemes. */
function sectorOf(url: URL): string {
  return url.host || url.protocol.slice(0, -1);
}

/**
 * The pairwise sector identifier (OIDC Core §8.1): the explicit value, or the host of the first
 * redirect URI, in which case every redirect URI must share that host (one sector, one PCR).
 */
export function resolveSectorIdentifier(urls: readonly URL[], explicit?: string): string {
  if (explicit !== undefined) {
    if (!SECTOR.test(explicit)) throw new AdminError("sector identifier must be a lower-case host name (optionally with :port)");
    return explicit;
  }
  const sector = sectorOf(urls[0]!);
  const other = urls.find((u) => sectorOf(u) !== sector);
  if (other) {
    throw new AdminError(`redirect URIs span several hosts (${sector}, ${sectorOf(other)}); give --sector-identifier explicitly`);
  }
  return sector;
}
