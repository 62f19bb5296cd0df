import { BlockList, isIP } from "node:net";
import type { CidrRange } from "../config";

/**
 * Whether an address lies in one of `ranges` (a CIDR list of lib/config.ts: TRUSTED_PROXY,
 * NETWORK_ENRICHMENT_PROXIES). An IPv4-mapped IPv6 address (`::ffff:10.0.0.7`, what a dual-stack socket
 * reports for an IPv4 peer) is matched as its IPv4 address. Anything that is not an address: false.
 */
export function addressMatcher(ranges: readonly CidrRange[]): (address: string | undefined) => boolean {
  if (ranges.length === 0) return () => false;
  const list = new BlockList();
  for (const r of ranges) list.addSubnet(r.address, r.prefix, r.family);
  return (address) => {
    if (!address) return false;
    const version = isIP(address);
    if (!version) return false;
    const mapped = version === 6 ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address) : null;
    return list.check(address, version === 4 ? "ipv4" : "ipv6") || (mapped !== null && list.check(mapped[1]!, "ipv4"));
  };
}
