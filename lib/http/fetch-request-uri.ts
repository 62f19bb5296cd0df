import http from "node:http";
import https from "node:https";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP } from "node:net";

/** Why a URL given by a client was not fetched; the caller maps it to its error code. */
export class RemoteFetchError extends Error {}

export interface RemoteFetchLimits {
  /** Whole request, connection to last byte (default 5 s). */
  timeoutMs?: number;
  /** Largest body accepted (default 64 KiB). */
  maxBytes?: number;
  /**
   * Loopback addresses (127.0.0.0/8, ::1, `localhost`) allowed, over http as well: development and tests
   * only (REQUEST_URI_ALLOW_LOOPBACK). Every other private or special address stays refused.
   */
  allowLoopback?: boolean;
}

/**
 * Addresses a URL chosen by a client must never reach (SSRF): this host, private networks, link-local
 * (cloud metadata at 169.254.169.254), carrier-grade NAT, multicast, reserved and documentation ranges,
 * and their IPv6 forms (IPv4-mapped addresses are checked against the IPv4 rules by BlockList).
 */
const PRIVATE = new BlockList();
for (const [net, bits] of [["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16],
  ["172.16.0.0", 12], ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.88.99.0", 24], ["192.168.0.0", 16],
  ["198.18.0.0", 15], ["198.51.100.0", 24], ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4]] as const) {
  PRIVATE.addSubnet(net, bits, "ipv4");
}
for (const [net, bits] of [["::", 128], ["::1", 128], ["64:ff9b::", 96], ["64:ff9b:1::", 48], ["100::", 64],
  ["2001::", 23], ["2001:db8::", 32], ["2002::", 16], ["fc00::", 7], ["fe80::", 10], ["fec0::", 10], ["ff00::", 8]] as const) {
  PRIVATE.addSubnet(net, bits, "ipv6");
}
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

const family = (address: string) => (isIP(address) === 6 ? "ipv6" : "ipv4");

/** Whether a client-chosen URL may connect to `address`. */
export function isAllowedAddress(address: string, allowLoopback = false): boolean {
  if (!isIP(address)) return false;
  if (allowLoopback && LOOPBACK.check(address, family(address))) return true;
  return !PRIVATE.check(address, family(address));
}

/**
 * GETs a URL a client registered or sent (a `request_uri`), as a hostile server would be answered:
 * https only; every address the name resolves to must be public, checked in the connection's own DNS
 * lookup (so a name cannot resolve to a public address for the check and a private one for the
 * connection); no redirects followed (a 3xx is refused); `timeoutMs` for the whole exchange; a body
 * longer than `maxBytes` is cut off and refused. Returns the body as UTF-8 text.
 */
export function fetchRemoteText(url: string, limits: RemoteFetchLimits = {}): Promise<string> {
  const { timeoutMs = 5_000, maxBytes = 64 * 1024, allowLoopback = false } = limits;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.reject(new RemoteFetchError("the URL is not valid"));
  }
  const host = target.hostname.replace(/^\[|\]$/g, "");
  const loopbackHost = host === "localhost" || (isIP(host) !== 0 && LOOPBACK.check(host, family(host)));
  if (target.protocol !== "https:" && !(allowLoopback && loopbackHost && target.protocol === "http:")) {
    return Promise.reject(new RemoteFetchError("the URL must use https"));
  }
  if (target.username || target.password) return Promise.reject(new RemoteFetchError("the URL must not carry credentials"));
  if (isIP(host) && !isAllowedAddress(host, allowLoopback)) {
    return Promise.reject(new RemoteFetchError("the URL points at a private or reserved address"));
  }
  const lookup = guardedLookup(allowLoopback);
  return new Promise<string>((resolve, reject) => {
    const client = target.protocol === "https:" ? https : http;
    const req = client.request(target, { method: "GET", lookup, headers: {
      accept: "application/oauth-authz-req+jwt, application/jwt;q=0.9, */*;q=0.1", "user-agent": "operator-identity" },
    agent: false }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        fail(new RemoteFetchError(`the URL answered HTTP ${res.statusCode ?? "?"} (redirects are not followed)`));
        return;
      }
      const declared = Number(res.headers["content-length"]);
      if (declared > maxBytes) return fail(new RemoteFetchError(`the response is larger than ${maxBytes} bytes`));
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > maxBytes) return fail(new RemoteFetchError(`the response is larger than ${maxBytes} bytes`));
        chunks.push(chunk);
      });
      res.on("end", () => {
        clearTimeout(timer);
        resolve(Buffer.concat(chunks).toString("utf8"));
      });
      res.on("error", () => fail(new RemoteFetchError("the response could not be read")));
    });
    const timer = setTimeout(() => fail(new RemoteFetchError(`the URL did not answer within ${timeoutMs} ms`)), timeoutMs);
    function fail(err: Error) {
      clearTimeout(timer);
      req.destroy();
      reject(err);
    }
    req.on("error", (err) => fail(err instanceof RemoteFetchError ? err : new RemoteFetchError("the URL could not be reached")));
    req.end();
  });
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that refuses a name when any of its addresses is not allowed (the connection uses only these). */
function guardedLookup(allowLoopback: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback) => {
    dnsLookup(hostname, { all: true, family: options.family as 0 | 4 | 6 | undefined }, (err, addresses) => {
      if (err) return callback(err, []);
      if (addresses.length === 0 || addresses.some((a) => !isAllowedAddress(a.address, allowLoopback))) {
        return callback(new RemoteFetchError("the URL's host resolves to a private or reserved address"), []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
