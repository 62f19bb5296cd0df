import { AdminError } from "../admin/admin-error";
import { randomToken } from "../crypto";
import { db } from "../db";
import { normaliseMsisdn } from "../interaction/normalise-msisdn";
import { parseCidr, parsePortRange, type AddressRange } from "./address";
import { getNetworkResolver } from "./network-resolver";

/** A NetworkRange row as the admin CLI shows it. */
export interface NetworkRangeRecord {
  id: string;
  cidr: string;
  portFrom: number;
  portTo: number;
  msisdn: string;
  createdAt: Date;
}

const RECORD = { id: true, cidr: true, portFrom: true, portTo: true, msisdn: true, createdAt: true } as const;

/** A range to add, validated: the CIDR, the number and the optional port range (`A-B`). */
export function parseRangeInput({ cidr, msisdn, ports }: { cidr: string; msisdn: string; ports?: string }):
  AddressRange & { msisdn: string; portFrom: number; portTo: number } {
  const range = parseCidr(cidr);
  if (!range) {
    throw new AdminError(`not an address range: "${cidr.slice(0, 60)}" (e.g. 10.64.0.0/24, 2001:db8::/64, `
      + "or one address; host bits must be zero)");
  }
  const number = normaliseMsisdn(msisdn.trim(), { strict: true });
  if (!number) throw new AdminError("the number must be an E.164 number, e.g. +33612345678");
  const portRange = ports === undefined ? { portFrom: 0, portTo: 65535 } : parsePortRange(ports);
  if (!portRange) throw new AdminError(`not a port range: "${ports!.slice(0, 20)}" (e.g. 1024-2047, within 0-65535)`);
  return { ...range, msisdn: number, ...portRange };
}

/**
 * Adds a range. A range with the same addresses whose ports overlap an existing one is refused (which subscriber
 * it names would be ambiguous); a narrower range inside a wider one is fine: the most specific prefix wins.
 */
export async function addNetworkRange(input: { cidr: string; msisdn: string; ports?: string }):
  Promise<NetworkRangeRecord> {
  const r = parseRangeInput(input);
  const clash = await db.networkRange.findFirst({ where: { firstAddress: r.firstAddress, prefixLength: r.prefixLength,
    portFrom: { lte: r.portTo }, portTo: { gte: r.portFrom } }, select: { id: true } });
  if (clash) throw new AdminError(`${r.cidr} ports ${r.portFrom}-${r.portTo} overlap range ${clash.id}`);
  return db.networkRange.create({
    // Never starting with "-": the id is typed on the admin command line (`network remove <id>`).
    data: { id: `r${randomToken(12)}`, cidr: r.cidr, firstAddress: r.firstAddress, lastAddress: r.lastAddress,
      prefixLength: r.prefixLength, portFrom: r.portFrom, portTo: r.portTo, msisdn: r.msisdn },
    select: RECORD,
  });
}

/** Every range (or one number's), most specific first. */
export async function listNetworkRanges({ msisdn }: { msisdn?: string } = {}): Promise<NetworkRangeRecord[]> {
  const number = msisdn === undefined ? undefined : normaliseMsisdn(msisdn.trim(), { strict: true });
  if (number === null) throw new AdminError("the number must be an E.164 number, e.g. +33612345678");
  return db.networkRange.findMany({ where: number ? { msisdn: number } : {}, select: RECORD,
    orderBy: [{ firstAddress: "asc" }, { prefixLength: "desc" }, { portFrom: "asc" }] });
}

/** Removes a range by its id (one DELETE); an unknown id is an error. */
export async function removeNetworkRange({ id }: { id: string }): Promise<void> {
  const { count } = await db.networkRange.deleteMany({ where: { id } });
  if (count !== 1) throw new AdminError(`no network range with id ${id.slice(0, 40)}`);
}

/** What the configured resolver says of an address (and port): the operator's check of the table. */
export async function resolveNetworkEndpoint({ address, port }: { address: string; port?: string }):
  Promise<string | null> {
  const parsed = parseCidr(address);
  if (!parsed || (address.includes("/") && !/\/(32|128)$/.test(address))) {
    throw new AdminError(`not an IP address: "${address.slice(0, 60)}"`);
  }
  const range = port === undefined ? null : parsePortRange(port);
  if (port !== undefined && (!range || range.portFrom !== range.portTo)) {
    throw new AdminError(`not a port: "${port.slice(0, 20)}" (0-65535)`);
  }
  return getNetworkResolver().identify({ address: address.split("/")[0]!, port: range?.portFrom });
}

/**
 * Imports `cidr,msisdn[,ports]` lines (blank lines and `#` comments skipped): every line is validated first and
 * nothing is written unless all are valid; then all are inserted in one transaction (a clash with the table or
 * between lines refuses the whole import).
 */
export async function importNetworkRanges(text: string): Promise<{ added: number }> {
  const rows: Array<ReturnType<typeof parseRangeInput>> = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith("#")) return;
    const [cidr = "", msisdn = "", ports, extra] = trimmed.split(",").map((f) => f.trim());
    try {
      if (extra !== undefined) throw new AdminError("expected cidr,msisdn[,ports]");
      rows.push(parseRangeInput({ cidr, msisdn, ports: ports || undefined }));
    } catch (err) {
      throw new AdminError(`line ${i + 1}: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
  for (let i = 0; i < rows.length; i++) {
    for (let j = i + 1; j < rows.length; j++) {
      const a = rows[i]!, b = rows[j]!;
      if (a.firstAddress === b.firstAddress && a.prefixLength === b.prefixLength && a.portFrom <= b.portTo
        && b.portFrom <= a.portTo) throw new AdminError(`${a.cidr} appears twice with overlapping ports`);
    }
  }
  await db.$transaction(async (tx) => {
    for (const r of rows) {
      const clash = await tx.networkRange.findFirst({ where: { firstAddress: r.firstAddress,
        prefixLength: r.prefixLength, portFrom: { lte: r.portTo }, portTo: { gte: r.portFrom } }, select: { id: true } });
      if (clash) throw new AdminError(`${r.cidr} ports ${r.portFrom}-${r.portTo} overlap range ${clash.id}`);
    }
    await tx.networkRange.createMany({ data: rows.map((r) => ({ id: `r${randomToken(12)}`, cidr: r.cidr,
      firstAddress: r.firstAddress, lastAddress: r.lastAddress, prefixLength: r.prefixLength, portFrom: r.portFrom,
      portTo: r.portTo, msisdn: r.msisdn })) });
  });
  return { added: rows.length };
}
