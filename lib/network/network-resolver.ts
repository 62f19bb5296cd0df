import { config } from "../config";
import { createTableResolver } from "./table-resolver";

/** A data session's end as the service sees it: the subscriber's address and, when known, their source port. */
export interface NetworkEndpoint {
  /** An IPv4 or IPv6 literal (IPv4-mapped IPv6 included), as received. */
  address: string;
  /** The source port (after carrier-grade NAT: the port the subscriber's connection was given), when known. */
  port?: number;
}

/**
 * Which subscriber a data session belongs to: what the operator's packet gateway (the GGSN/PGW/SMF's address
 * allocation, its RADIUS accounting or CGNAT port-block records) knows. A real source plugs in here: implement
 * `identify`, add its name to `NETWORK_RESOLVER` in lib/config.ts and return it from `getNetworkResolver`.
 */
export interface NetworkResolver {
  /** The MSISDN (E.164 digits, no '+') using `endpoint` now, or null when the network does not know it. */
  identify(endpoint: NetworkEndpoint): Promise<string | null>;
}

const NONE: NetworkResolver = { identify: async () => null };

let resolver: NetworkResolver | undefined;

/**
 * The configured resolver: `table` (the default) looks the endpoint up in the NetworkRange table the admin CLI
 * manages (`npm run admin -- network …`); `none` identifies nobody (network-based authentication off, except
 * header enrichment when configured).
 */
export function getNetworkResolver(): NetworkResolver {
  resolver ??= config().NETWORK_RESOLVER === "table" ? createTableResolver() : NONE;
  return resolver;
}
