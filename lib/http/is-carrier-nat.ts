import { BlockList, isIP } from "node:net";
import { config } from "../config";

let ranges: BlockList | undefined;

/**
 * Whether a client address lies in the operator's carrier-grade NAT ranges (`CARRIER_NAT_RANGES`):
 * public addresses shared by thousands of subscribers on mobile data, which get their own, higher
 * per-address limits (lib/security/limits.ts). Node's BlockList matches IPv4 and IPv6 prefixes.
 */
export function isCarrierNat(ip: string): boolean {
  const version = isIP(ip);
  if (!version) return false;
  if (!ranges) {
    ranges = new BlockList();
    for (const r of config().CARRIER_NAT_RANGES) ranges.addSubnet(r.address, r.prefix, r.family);
  }
  return ranges.check(ip, version === 4 ? "ipv4" : "ipv6");
}
