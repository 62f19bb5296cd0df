import { createHash, timingSafeEqual } from "node:crypto";
import { BlockList, isIP } from "node:net";
import { config } from "../config";
import { clientIp } from "../http/client-ip";

const KEY = Symbol.for("operator-identity.metrics-networks");

/**
 * Whether a request may read GET /metrics: its client address (lib/http/client-ip.ts: the socket's peer, or behind
 * TRUSTED_PROXY the proxies' X-Forwarded-For entry) is inside METRICS_ALLOWED_NETWORKS, or it carries
 * `Authorization: Bearer <METRICS_TOKEN>` (compared as SHA-256 digests in constant time; the token is never logged).
 */
export function mayScrape(headers: Headers): boolean {
  const token = config().METRICS_TOKEN;
  const auth = headers.get("authorization");
  if (token && auth && /^bearer /i.test(auth)) {
    const sent = createHash("sha256").update(auth.slice(7).trim()).digest();
    if (timingSafeEqual(sent, createHash("sha256").update(token).digest())) return true;
  }
  const ip = clientIp(headers);
  const version = isIP(ip);
  return version !== 0 && allowed().check(ip, version === 4 ? "ipv4" : "ipv6");
}

function allowed(): BlockList {
  const g = globalThis as unknown as Record<symbol, BlockList | undefined>;
  let list = g[KEY];
  if (!list) {
    list = new BlockList();
    for (const r of config().METRICS_ALLOWED_NETWORKS) list.addSubnet(r.address, r.prefix, r.family);
    g[KEY] = list;
  }
  return list;
}
