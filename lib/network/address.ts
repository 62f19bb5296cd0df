import { isIP } from "node:net";

/**
 * Addresses as the NetworkRange table stores them: the 128-bit IPv6 form as 32 lower-case hex digits, an IPv4
 * address as its IPv4-mapped IPv6 form (::ffff:a.b.c.d), so one string comparison orders every address and an
 * IPv4 client reaching the server over IPv6 (`::ffff:10.0.0.1`) is the same address as over IPv4.
 */
export type HexAddress = string;

/** A parsed range: the CIDR as written (normalised), its first and last address, the prefix of the IPv6 form. */
export interface AddressRange {
  cidr: string;
  firstAddress: HexAddress;
  lastAddress: HexAddress;
  prefixLength: number;
}

/** The 32-hex-digit form of an IPv4 or IPv6 literal (zone index refused), or null when it is not one. */
export function toHexAddress(text: string): HexAddress | null {
  if (text.length > 45 || text.includes("%")) return null;
  const version = isIP(text);
  if (version === 4) return "00000000000000000000ffff" + ipv4Hex(text);
  if (version !== 6) return null;
  let body = text.toLowerCase();
  let tail: string[] = [];
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (dotted) {
    const hex = ipv4Hex(dotted[2]!);
    body = dotted[1]!.endsWith("::") ? dotted[1]! : dotted[1]!.slice(0, -1);
    tail = [hex.slice(0, 4), hex.slice(4)];
  }
  const [head = "", rest] = body.split("::");
  const left = head ? head.split(":") : [];
  const right = rest ? rest.split(":").filter(Boolean) : [];
  const groups = rest === undefined
    ? [...left, ...tail]
    : [...left, ...Array<string>(8 - left.length - right.length - tail.length).fill("0"), ...right, ...tail];
  if (groups.length !== 8) return null;
  return groups.map((g) => g.padStart(4, "0")).join("");
}

function ipv4Hex(text: string): string {
  return text.split(".").map((o) => Number(o).toString(16).padStart(2, "0")).join("");
}

/** The readable form of a stored address: dotted IPv4 for the IPv4-mapped block, compressed IPv6 otherwise. */
export function fromHexAddress(hex: HexAddress): string {
  if (hex.startsWith("00000000000000000000ffff")) {
    return [0, 2, 4, 6].map((i) => parseInt(hex.slice(24 + i, 26 + i), 16)).join(".");
  }
  const groups = Array.from({ length: 8 }, (_, i) => parseInt(hex.slice(i * 4, i * 4 + 4), 16).toString(16));
  // RFC 5952: the longest run (of two or more) of zero groups becomes "::".
  let best = -1, bestLen = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === "0") j++;
    if (j - i > bestLen) { best = i; bestLen = j - i; }
    i = j === i ? i + 1 : j;
  }
  if (best < 0) return groups.join(":");
  return `${groups.slice(0, best).join(":")}::${groups.slice(best + bestLen).join(":")}`;
}

/**
 * `10.64.0.0/24`, `2001:db8::/64`, or a lone address (a /32 or /128). Host bits set in the address are refused
 * (10.64.0.1/24 is a typo more often than a range). Null when it is not a range.
 */
export function parseCidr(text: string): AddressRange | null {
  const [address = "", bits, extra] = text.trim().split("/");
  const hex = toHexAddress(address);
  if (!hex || extra !== undefined) return null;
  const v4 = isIP(address) === 4 || hex.startsWith("00000000000000000000ffff") && address.includes(".");
  const max = v4 ? 32 : 128;
  if (bits !== undefined && !/^\d{1,3}$/.test(bits)) return null;
  const prefix = bits === undefined ? max : Number(bits);
  if (prefix > max) return null;
  const prefixLength = v4 ? prefix + 96 : prefix;
  const value = BigInt(`0x${hex}`);
  const hostMask = (1n << BigInt(128 - prefixLength)) - 1n;
  if ((value & hostMask) !== 0n) return null;
  const last = (value | hostMask).toString(16).padStart(32, "0");
  const cidr = `${fromHexAddress(hex)}/${prefix}`;
  return { cidr, firstAddress: hex, lastAddress: last, prefixLength };
}

/** A port as the table stores it (0-65535), or null. */
export function parsePort(text: string): number | null {
  if (!/^\d{1,5}$/.test(text)) return null;
  const port = Number(text);
  return port <= 65535 ? port : null;
}

/** `A-B` or a lone port `A`: the inclusive range, or null when malformed or reversed. */
export function parsePortRange(text: string): { portFrom: number; portTo: number } | null {
  const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(text.trim());
  if (!m) return null;
  const portFrom = parsePort(m[1]!);
  const portTo = parsePort(m[2] ?? m[1]!);
  if (portFrom === null || portTo === null || portTo < portFrom) return null;
  return { portFrom, portTo };
}

