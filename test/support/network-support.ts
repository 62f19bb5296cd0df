import { requestFrom } from "./request-from";
import { addNetworkRange } from "@/lib/network/manage-ranges";
import { db } from "@/lib/db";
import { baseUrl as sharedBaseUrl } from "./authorize-support";
import { browserCookieName } from "@/lib/sessions/browser-cookie";

/**
 * Network-based authentication over real HTTP (docs/network-authentication.md): requests sent from a chosen
 * loopback address (127.0.0.x, the socket's `localAddress`) and, when given, source port, so the server sees
 * them as coming from that "data session". Every 127.0.0.0/8 address reaches a server listening on 127.0.0.1.
 */
export interface NetworkCall {
  from: string;
  port?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  baseUrl?: string;
}

/** Sends one request from `from` (and `port`), without following redirects; a fetch-like Response. */
export function fromAddress(pathAndQuery: string, call: NetworkCall): Promise<Response> {
  return requestFrom(new URL(pathAndQuery, call.baseUrl ?? sharedBaseUrl), call);
}

/** GET /authorize with `query` from `from` (optionally with the browser cookie `browserId`). */
export function authorizeFrom(query: Record<string, string>, call: NetworkCall & { browserId?: string }) {
  const headers = { ...call.headers };
  if (call.browserId) headers.cookie = `${browserCookieName()}=${call.browserId}`;
  return fromAddress(`/authorize?${new URLSearchParams(query)}`, { ...call, headers });
}

/** The browser id a response's Set-Cookie gives, if any. */
export function browserIdSet(res: Response): string | null {
  for (const c of res.headers.getSetCookie()) {
    const m = new RegExp(`^${browserCookieName()}=([^;]+)`).exec(c);
    if (m) return m[1]!;
  }
  return null;
}

/** Maps `cidr` (and `ports`) to `msisdn` in the NetworkRange table (lib/network/manage-ranges.ts). */
export function mapRange(cidr: string, msisdn: string, ports?: string) {
  return addNetworkRange({ cidr, msisdn, ports });
}

/** A free-ish source port in [base, base + 999] for tests binding their own port (random to avoid reuse). */
export function sourcePort(base: number): number {
  return base + Math.floor(Math.random() * 1000);
}

/** Removes the ranges of a test (by CIDR), so a later run on the same database starts clean. */
export function unmap(...cidrs: string[]) {
  return db.networkRange.deleteMany({ where: { cidr: { in: cidrs } } });
}
