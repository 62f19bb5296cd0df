import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { AdminError } from "../admin/admin-error";

/**
 * Server-side request forgery guard for the URIs a dynamically registered client gives and the server
 * itself fetches or POSTs to (back-channel logout, sector_identifier_uri, jwks_uri): none may point at a
 * loopback, private, link-local, carrier-NAT, multicast or reserved address, unless the operator allows
 * it (REGISTRATION_ALLOW_PRIVATE_ADDRESSES, development only).
 */
const internal = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["198.51.100.0", 24],
  ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) internal.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128], ["::1", 128], ["fc00::", 7], ["fe80::", 10], ["fec0::", 10], ["ff00::", 8], ["64:ff9b::", 96],
  ["64:ff9b:1::", 48], ["100::", 64], ["2001:db8::", 32], ["2002::", 16],
] as const) internal.addSubnet(net, prefix, "ipv6");

/** Whether an IP address (v4 or v6, IPv4-mapped included) is not a public unicast address. */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return internal.check(address, "ipv4");
  if (family !== 6) return true;
  const mapped = /^::ffff:(?:0:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return internal.check(mapped[1]!, "ipv4");
  const hexMapped = /^::ffff:(?:0:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hexMapped) {
    const [hi, lo] = [parseInt(hexMapped[1]!, 16), parseInt(hexMapped[2]!, 16)];
    return internal.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, "ipv4");
  }
  return internal.check(address, "ipv6");
}

/** Host names that name this machine or a private network whatever DNS says. */
const INTERNAL_NAME = /(^|\.)(localhost|local|internal|intranet|home\.arpa|localdomain)\.?$/i;

/** The URL's host without IPv6 brackets. */
export const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");

/**
 * Refuses a URI whose host is, or resolves to, an internal address. Names that do not resolve now are
 * accepted (nothing to reach); names are resolved again when the URI is used (see docs/registration.md).
 */
export async function checkPublicHost(uri: string, label: string, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const url = new URL(uri);
  const host = bareHost(url);
  const refuse = () => new AdminError(`${label} ${uri} points at a loopback, private or reserved address; `
    + "the server would send requests into its own network");
  if (isIP(host)) {
    if (isInternalAddress(host)) throw refuse();
    return;
  }
  if (INTERNAL_NAME.test(host) || !host.includes(".")) throw refuse();
  const addresses = await Promise.race([
    lookup(host, { all: true, verbatim: true }).catch(() => []),
    new Promise<[]>((resolve) => setTimeout(() => resolve([]), 2000).unref()),
  ]);
  if (addresses.some((a) => isInternalAddress(a.address))) throw refuse();
}
