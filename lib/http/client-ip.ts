import { config } from "../config";

/** Only characters of IPv4/IPv6 literals; anything else in the header is not an address. */
const ADDRESS = /^[0-9A-Fa-f:.]{2,45}$/;

/**
 * The client's IP address, for per-IP limits and the audit log. Route handlers do not see the
 * socket, so the production server (server/main.ts) hands it over in `X-Forwarded-For`: with
 * TRUSTED_PROXY=false (0) it REPLACES any client-sent header with the socket's peer address, so
 * a client cannot pick its own rate-limit bucket. With TRUSTED_PROXY=N (N reverse proxies in
 * front, each appending its peer, as nginx's `$proxy_add_x_forwarded_for` does) the address is
 * the N-th entry from the right: entries further left were written by the client and are never
 * trusted. Returns "unknown" when there is no usable address.
 */
export function clientIp(headers: Headers, trustedProxies = config().TRUSTED_PROXY): string {
  const entries = (headers.get("x-forwarded-for") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const hops = Math.max(trustedProxies, 1);
  const candidate = entries.length >= hops ? entries[entries.length - hops]! : entries[0];
  const address = candidate?.replace(/^::ffff:(?=\d+\.)/i, "");
  return address && ADDRESS.test(address) ? address : "unknown";
}
