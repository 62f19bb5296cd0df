import { isIP } from "node:net";

/** Only characters of IPv4/IPv6 literals; anything else in the header is not an address. */
const ADDRESS = /^[0-9A-Fa-f:.]{2,45}$/;

/** An IPv4-mapped IPv6 address (`::ffff:10.0.0.7`, a dual-stack socket's IPv4 peer) as its IPv4 address. */
const unmapped = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");

/** A forwarded entry without the port some proxies add (`198.51.100.7:4711`, `[2001:db8::7]:4711`). */
const withoutPort = (entry: string) =>
  /^\[([0-9A-Fa-f:.]+)\](?::\d{1,5})?$/.exec(entry)?.[1] ?? /^(\d+\.\d+\.\d+\.\d+):\d{1,5}$/.exec(entry)?.[1] ?? entry;

/**
 * The client's IP address, for per-IP limits, network-based authentication and the audit log, as every
 * handler reads it, on the lean path and the Next.js path alike. Route handlers do not see the socket, so the
 * production server (server/main.ts) resolves the address once per request (`forwardedClientAddress`, below)
 * and hands it over as the only `X-Forwarded-For` entry, whatever the client sent. Returns "unknown" when there
 * is no usable address. Under `next dev` (no server/main.ts) the header is the client's word.
 */
export function clientIp(headers: Headers): string {
  const address = unmapped((headers.get("x-forwarded-for") ?? "").split(",").pop()!.trim());
  return address && ADDRESS.test(address) ? address : "unknown";
}

/**
 * The client's address from the connection's peer and the `X-Forwarded-For` it sent. A peer that is not one of
 * the configured proxies (TRUSTED_PROXY, checked by `isProxy`) is the client, whatever header it wrote. From a
 * proxy, the header's entries are read from the right (each proxy appends the peer it saw, as nginx's
 * `$proxy_add_x_forwarded_for` does): every entry that is itself a configured proxy is a hop further back, the
 * first one that is not is the client; entries to its left were written by the client and are never read. A port
 * after an entry is dropped; an entry that is not an address ends the walk at the proxy that wrote it. Undefined
 * without a peer.
 */
export function forwardedClientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined,
  isProxy: (address: string) => boolean): string | undefined {
  if (!peer) return undefined;
  let client = unmapped(peer);
  if (!isProxy(client)) return client;
  const entries = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor ?? "").split(",");
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = unmapped(withoutPort(entries[i]!.trim()));
    if (!entry) continue;
    if (!isIP(entry)) break;
    client = entry;
    if (!isProxy(entry)) break;
  }
  return client;
}
