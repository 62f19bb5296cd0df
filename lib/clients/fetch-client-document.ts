import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP } from "node:net";
import { config } from "../config";
import { outboundSpan, tracing } from "../tracing/spans";

/**
 * Fetches a document at a URL a client registered or sent (its `jwks_uri`, a `request_uri` by reference), or
 * POSTs to one (`method: "POST"`: the back-channel logout of a dynamically registered client), as an attacker
 * would want it not to be fetched (docs/client-authentication.md "Fetching jwks_uri"):
 * - https only; http only to a loopback address, and only when ALLOW_LOOPBACK_CLIENT_URLS=true
 *   (development and tests);
 * - the host is resolved first and every address it resolves to must be public (not loopback, private,
 *   link-local, unique-local, carrier-grade NAT, multicast, documentation or reserved); with
 *   ALLOW_LOOPBACK_CLIENT_URLS=true loopback addresses are allowed too, nothing else private. The connection
 *   goes to the address that was checked (no second lookup, so DNS rebinding cannot swap it);
 * - no redirects (a 3xx is a failure), 200 only (POST: any 2xx);
 * - at most `maxBytes` (64 KiB) of body, and the whole exchange within `timeoutMs` (5 s).
 * Failures throw ClientDocumentError with a description fit for an error_description; ClientUrlRefusedError
 * (a subclass) when the URL itself may not be used (its form or its host's addresses), which retrying cannot
 * mend while it stays so.
 */
export class ClientDocumentError extends Error {
  /** The HTTP status, when the failure came after the server answered (a non-2xx status, too large a body). */
  readonly status?: number;
  constructor(message: string, status?: number) {
    super(message);
    if (status !== undefined) this.status = status;
  }
}

/** The URL is refused before any connection: not https, credentials, or a private, loopback or reserved host. */
export class ClientUrlRefusedError extends ClientDocumentError {}

export interface ClientDocument {
  /** 200 for a GET; the 2xx answered for a POST. */
  status: number;
  body: string;
  /** The response's caching headers, as sent. */
  cacheControl: string | null;
  expires: string | null;
  date: string | null;
}

export interface FetchLimits {
  timeoutMs?: number;
  maxBytes?: number;
  accept?: string;
  /** Loopback addresses allowed (default: ALLOW_LOOPBACK_CLIENT_URLS). */
  allowLoopback?: boolean;
  /** Default GET. POST sends `body` with `contentType` (and `Cache-Control: no-store`); any 2xx succeeds. */
  method?: "GET" | "POST";
  body?: string;
  contentType?: string;
  /** POST: an `Authorization` header (a CIBA notification's bearer client_notification_token). */
  authorization?: string;
}

export const CLIENT_DOCUMENT_TIMEOUT_MS = 5_000;
export const CLIENT_DOCUMENT_MAX_BYTES = 64 * 1024;

// IPv4: a deny list of the special-purpose blocks (RFC 6890 and its successors). IPv6: an allow list, global unicast
// 2000::/3 only (RFC 4291 §2.4), less the special-purpose blocks inside it. So every other IPv6 form of an IPv4 address
// (IPv4-compatible ::a.b.c.d, ::/96; IPv4-mapped ::ffff:a.b.c.d; IPv4-translated ::ffff:0:a.b.c.d, RFC 2765; NAT64
// 64:ff9b::/96 and 64:ff9b:1::/48, RFC 6052 / 8215), and unique-local, link-local, multicast, discard and whatever is
// assigned later outside 2000::/3, is never public. Two lists, as Node's BlockList also matches IPv4 addresses
// against IPv4-mapped IPv6 rules.
const NOT_PUBLIC_V4 = new BlockList();
const GLOBAL_UNICAST_V6 = new BlockList();
const NOT_PUBLIC_V6 = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.88.99.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15],
  ["198.51.100.0", 24], ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) NOT_PUBLIC_V4.addSubnet(net, prefix, "ipv4");
GLOBAL_UNICAST_V6.addSubnet("2000::", 3, "ipv6");
// Inside 2000::/3: IETF protocol assignments (Teredo, ORCHID, benchmarking...), documentation (RFC 3849, RFC 9637),
// 6to4 (which embeds any IPv4 address, RFC 3056).
for (const [net, prefix] of [
  ["2001::", 23], ["2001:db8::", 32], ["2002::", 16], ["3fff::", 20],
] as const) NOT_PUBLIC_V6.addSubnet(net, prefix, "ipv6");

const LOOPBACK_V4 = new BlockList();
LOOPBACK_V4.addSubnet("127.0.0.0", 8, "ipv4");

/** True for an address on the public Internet (the only ones fetched unless the flag is on). */
export function isPublicAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return !NOT_PUBLIC_V4.check(address, "ipv4");
  return version === 6 && GLOBAL_UNICAST_V6.check(address, "ipv6") && !NOT_PUBLIC_V6.check(address, "ipv6");
}
const isLoopback = (address: string) =>
  (isIP(address) === 4 && LOOPBACK_V4.check(address, "ipv4")) || (isIP(address) === 6 && address === "::1");

/** Whether a client-chosen URL may connect to `address`: public, or loopback when that is allowed. */
export function isAllowedAddress(address: string, allowLoopback = false): boolean {
  return isPublicAddress(address) || (allowLoopback && isLoopback(address));
}

/** Checks the URL's form: https (or http when loopback is allowed), no credentials. */
function checkUrl(raw: string, allowLoopback: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ClientUrlRefusedError("the URL is not valid");
  }
  if (url.username || url.password) throw new ClientUrlRefusedError("the URL must not carry credentials");
  if (url.protocol === "http:" && !allowLoopback) throw new ClientUrlRefusedError("the URL must use https");
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new ClientUrlRefusedError("the URL must use https");
  return url;
}

/** The one address to connect to: every address of the host must be allowed, the first is used. */
async function resolveAllowed(url: URL, allowLoopback: boolean): Promise<{ address: string; family: 4 | 6 }> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses: LookupAddress[] = isIP(host)
    ? [{ address: host, family: isIP(host) as 4 | 6 }]
    : await new Promise((resolve, reject) => {
      dnsLookup(host, { all: true, verbatim: true }, (err, list) => (err ? reject(err) : resolve(list)));
    }).catch(() => {
      throw new ClientDocumentError(`the host ${host.slice(0, 100)} does not resolve`);
    }) as LookupAddress[];
  if (addresses.length === 0) throw new ClientDocumentError(`the host ${host.slice(0, 100)} does not resolve`);
  for (const a of addresses) {
    if (!isAllowedAddress(a.address, allowLoopback)) {
      throw new ClientUrlRefusedError("the URL's host is a private, loopback or reserved address");
    }
    if (url.protocol === "http:" && !isLoopback(a.address)) {
      throw new ClientUrlRefusedError("the URL must use https (http only to a loopback address)");
    }
  }
  return { address: addresses[0]!.address, family: addresses[0]!.family as 4 | 6 };
}

/**
 * GETs (or POSTs to) the URL under the rules above and returns the status, body (UTF-8) and caching headers.
 * With traces on (lib/tracing), a CLIENT span (method, host and path; never the query nor the body).
 */
export async function fetchClientDocument(raw: string, limits: FetchLimits = {}): Promise<ClientDocument> {
  if (!tracing.on) return fetchDocument(raw, limits);
  return outboundSpan(limits.method === "POST" ? "POST" : "GET", raw, async (span) => {
    try {
      const doc = await fetchDocument(raw, limits);
      span.setAttribute("http.response.status_code", doc.status);
      return doc;
    } catch (err) {
      if (err instanceof ClientDocumentError && err.status !== undefined) span.setAttribute("http.response.status_code", err.status);
      throw err;
    }
  });
}

async function fetchDocument(raw: string, limits: FetchLimits): Promise<ClientDocument> {
  const timeoutMs = limits.timeoutMs ?? CLIENT_DOCUMENT_TIMEOUT_MS;
  const maxBytes = limits.maxBytes ?? CLIENT_DOCUMENT_MAX_BYTES;
  const allowLoopback = limits.allowLoopback ?? config().ALLOW_LOOPBACK_CLIENT_URLS;
  const post = limits.method === "POST";
  const payload = post ? Buffer.from(limits.body ?? "", "utf8") : null;
  const headers: Record<string, string> = payload
    ? { "content-type": limits.contentType ?? "application/x-www-form-urlencoded", "cache-control": "no-store",
      "content-length": String(payload.length), ...(limits.accept ? { accept: limits.accept } : {}),
      ...(limits.authorization ? { authorization: limits.authorization } : {}) }
    : { accept: limits.accept ?? "application/json" };
  const url = checkUrl(raw, allowLoopback);
  const deadline = AbortSignal.timeout(timeoutMs);
  const target = await Promise.race([
    resolveAllowed(url, allowLoopback),
    new Promise<never>((_, reject) => deadline.addEventListener("abort", () => reject(timedOut()), { once: true })),
  ]);
  return new Promise<ClientDocument>((resolve, reject) => {
    const transport = url.protocol === "https:" ? https : http;
    const req = transport.request(url, {
      method: post ? "POST" : "GET",
      headers: { ...headers, "user-agent": "operator-identity-service" },
      // The checked address, never a second lookup (DNS rebinding); TLS still verifies the host name.
      lookup: (_host, options, cb) => {
        if ((options as { all?: boolean }).all) cb(null, [{ address: target.address, family: target.family }]);
        else (cb as (e: null, a: string, f: number) => void)(null, target.address, target.family);
      },
      agent: false,
    }, (res) => {
      const status = res.statusCode ?? 0;
      if (post ? status < 200 || status >= 300 : status !== 200) {
        res.destroy();
        return reject(new ClientDocumentError(status >= 300 && status < 400
          ? "the URL redirects; redirects are not followed" : `the URL answered HTTP ${status}`, status));
      }
      const length = Number(res.headers["content-length"]);
      if (Number.isFinite(length) && length > maxBytes) {
        res.destroy();
        return reject(tooBig(maxBytes, status));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          res.destroy();
          reject(tooBig(maxBytes, status));
        } else chunks.push(chunk);
      });
      res.on("error", () => reject(new ClientDocumentError("reading the URL failed")));
      res.on("close", () => reject(new ClientDocumentError("the connection closed before the end of the document")));
      res.on("end", () => resolve({
        status,
        body: Buffer.concat(chunks).toString("utf8"),
        cacheControl: header(res.headers["cache-control"]),
        expires: header(res.headers.expires),
        date: header(res.headers.date),
      }));
    });
    const onAbort = () => {
      req.destroy();
      reject(timedOut());
    };
    deadline.addEventListener("abort", onAbort, { once: true });
    req.on("close", () => deadline.removeEventListener("abort", onAbort));
    req.on("error", (err) => reject(deadline.aborted ? timedOut()
      : new ClientDocumentError(`the URL could not be fetched (${(err as NodeJS.ErrnoException).code ?? "error"})`)));
    req.end(payload ?? undefined);
  });
}

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(", ") : (v ?? null));
const timedOut = () => new ClientDocumentError("the URL did not answer in time");
const tooBig = (max: number, status: number) =>
  new ClientDocumentError(`the document is larger than ${max / 1024} KiB`, status);
