import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { AdminError } from "../admin/admin-error";
import { bareHost, isInternalAddress } from "./internal-address";

const MAX_BYTES = 50 * 1024;
const TIMEOUT_MS = 5000;
const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1"]);

/**
 * The redirect URIs listed at a `sector_identifier_uri` (OpenID Connect Registration §5, Core §8.1): an
 * https URL answering 200 with a JSON array of strings, fetched once at registration with a 5 s timeout,
 * at most 50 KB, no redirects, and (unless private addresses are allowed) only from public addresses: the
 * address is checked at connection time, after DNS, so a name cannot be rebound to an internal address
 * between the check and the request. With private addresses allowed (development), http on a loopback
 * host is accepted too.
 */
export async function fetchSectorIdentifier(uri: string, allowPrivate: boolean): Promise<{ host: string; uris: string[] }> {
  const label = "sector_identifier_uri";
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new AdminError(`${label} ${uri} is not an absolute URI`);
  }
  const host = bareHost(url);
  const loopbackHttp = allowPrivate && url.protocol === "http:" && LOOPBACK.has(host);
  if ((url.protocol !== "https:" && !loopbackHttp) || url.username || url.password || url.hash || uri.length > 2000) {
    throw new AdminError(`${label} must be an https URL without credentials or fragment`);
  }
  if (!allowPrivate && (isIP(host) ? isInternalAddress(host) : /(^|\.)localhost\.?$/i.test(host) || !host.includes("."))) {
    throw new AdminError(`${label} ${uri} points at a loopback, private or reserved address`);
  }
  const body = await new Promise<string>((resolve, reject) => {
    const fail = (why: string) => reject(new AdminError(`${label} ${uri} could not be read: ${why}`));
    const guardedLookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
        if (err) return callback(err);
        if (!allowPrivate && addresses.some((a) => isInternalAddress(a.address))) {
          return callback(Object.assign(new Error("resolves to an internal address"), { code: "EINTERNAL" }));
        }
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      });
    }) as unknown as typeof dnsLookup;
    const req = (url.protocol === "https:" ? https : http).get(url, {
      lookup: guardedLookup, timeout: TIMEOUT_MS, headers: { accept: "application/json" },
    }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return fail(`HTTP ${res.statusCode}${res.statusCode && res.statusCode >= 300 && res.statusCode < 400 ? " (redirects are not followed)" : ""}`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BYTES) {
          req.destroy();
          return fail(`larger than ${MAX_BYTES / 1024} KB`);
        }
        chunks.push(chunk);
      });
      res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      res.on("error", () => fail("the connection failed"));
    });
    const timer = setTimeout(() => {
      req.destroy();
      fail(`no complete answer within ${TIMEOUT_MS / 1000} s`);
    }, TIMEOUT_MS);
    req.on("close", () => clearTimeout(timer));
    req.on("timeout", () => {
      req.destroy();
      fail(`no answer within ${TIMEOUT_MS / 1000} s`);
    });
    req.on("error", (err: NodeJS.ErrnoException) =>
      fail(err.code === "EINTERNAL" ? "its host resolves to a loopback, private or reserved address" : "the connection failed"));
  });
  let list: unknown;
  try {
    list = JSON.parse(body);
  } catch {
    throw new AdminError(`${label} ${uri} must answer a JSON array of redirect URIs`);
  }
  if (!Array.isArray(list) || !list.every((u) => typeof u === "string")) {
    throw new AdminError(`${label} ${uri} must answer a JSON array of redirect URIs`);
  }
  return { host: url.host.toLowerCase(), uris: list as string[] };
}
