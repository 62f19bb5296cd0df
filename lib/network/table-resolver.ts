import { db } from "../db";
import { toHexAddress } from "./address";
import type { NetworkResolver } from "./network-resolver";

/**
 * The NetworkRange table as a resolver: the most specific range (longest prefix) holding the address whose port
 * range holds the port. Without a port only ranges covering every port (0-65535) answer: a range split by port
 * (several subscribers behind one NAT address) cannot name anyone from the address alone. One statement.
 */
export function createTableResolver(): NetworkResolver {
  return {
    async identify({ address, port }) {
      const hex = toHexAddress(address);
      if (!hex) return null;
      const ports = port === undefined ? { portFrom: 0, portTo: 65535 } : { portFrom: { lte: port }, portTo: { gte: port } };
      const row = await db.networkRange.findFirst({
        where: { firstAddress: { lte: hex }, lastAddress: { gte: hex }, ...ports },
        orderBy: [{ prefixLength: "desc" }, { portFrom: "desc" }, { createdAt: "desc" }],
        select: { msisdn: true },
      });
      return row?.msisdn ?? null;
    },
  };
}
