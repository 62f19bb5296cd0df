import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { AdminError } from "../admin/admin-error";
import { isAllowedAddress } from "../clients/fetch-client-document";

/**
 * Server-side request forgery guard, at registration, for the URIs a dynamically registered client gives
 * and the server itself fetches or POSTs to (back-channel logout, sector_identifier_uri, jwks_uri): none may
 * point at a loopback, private, link-local, carrier-NAT, multicast or reserved address (the address rules of
 * lib/clients/fetch-client-document.ts, which checks again when it connects); loopback only with
 * ALLOW_LOOPBACK_CLIENT_URLS (development and tests).
 */

/** Host names that name this machine or a private network whatever DNS says. */
const INTERNAL_NAME = /(^|\.)(localhost|local|internal|intranet|home\.arpa|localdomain)\.?$/i;

/** The URL's host without IPv6 brackets. */
export const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");

/**
 * Refuses a URI whose host is, or resolves to, an address that is not allowed. Names that do not resolve
 * now are accepted (nothing to reach); names are resolved again when the URI is used (docs/registration.md).
 */
export async function checkPublicHost(uri: string, label: string, allowLoopback: boolean): Promise<void> {
  const url = new URL(uri);
  const host = bareHost(url);
  const refuse = () => new AdminError(`${label} ${uri} points at a loopback, private or reserved address; `
    + "the server would send requests into its own network");
  if (isIP(host)) {
    if (!isAllowedAddress(host, allowLoopback)) throw refuse();
    return;
  }
  const loopbackName = allowLoopback && /^localhost\.?$/i.test(host);
  if (!loopbackName && (INTERNAL_NAME.test(host) || !host.includes("."))) throw refuse();
  const addresses = await Promise.race([
    lookup(host, { all: true, verbatim: true }).catch(() => []),
    new Promise<[]>((resolve) => setTimeout(() => resolve([]), 2000).unref()),
  ]);
  if (addresses.some((a) => !isAllowedAddress(a.address, allowLoopback))) throw refuse();
}
