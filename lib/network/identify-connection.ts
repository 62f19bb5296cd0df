import { config } from "../config";
import { clientIp } from "../http/client-ip";
import { normaliseMsisdn } from "../interaction/normalise-msisdn";
import { parsePort } from "./address";
import { getNetworkResolver } from "./network-resolver";
import { PEER_PORT_HEADER } from "./peer-headers";

/** Who the network says is on the other end of this request, and how it knows. */
export interface NetworkIdentity {
  msisdn: string;
  /** `enrichment`: a trusted proxy's header; `resolver`: the configured resolver from address and port. */
  via: "enrichment" | "resolver";
}

/**
 * The subscriber whose data session this request came over, or null. Header enrichment first (the header is
 * only still present when server/main.ts saw it come from a NETWORK_ENRICHMENT_PROXIES peer: it strips it from
 * every other request), then the resolver with the client address (lib/http/client-ip.ts: the socket's peer,
 * or behind TRUSTED_PROXY the proxy's X-Forwarded-For entry) and source port (PEER_PORT_HEADER). One resolver
 * look-up at most; none when the address is unknown (an in-process request).
 */
export async function identifyConnection(headers: Headers): Promise<NetworkIdentity | null> {
  const c = config();
  if (c.NETWORK_ENRICHMENT_HEADER && c.NETWORK_ENRICHMENT_PROXIES.length > 0) {
    const enriched = headers.get(c.NETWORK_ENRICHMENT_HEADER);
    const msisdn = enriched === null ? null : normaliseMsisdn(enriched.trim(), { strict: true });
    if (msisdn) return { msisdn, via: "enrichment" };
  }
  if (c.NETWORK_RESOLVER === "none") return null;
  const address = clientIp(headers);
  if (address === "unknown") return null;
  const portText = headers.get(PEER_PORT_HEADER);
  const port = portText === null ? undefined : parsePort(portText) ?? undefined;
  const msisdn = await getNetworkResolver().identify({ address, port });
  return msisdn ? { msisdn, via: "resolver" } : null;
}
