import { isIPv6 } from "node:net";

/**
 * The rate-limit subject for a client address: an IPv4 address as it is; an IPv6 address reduced
 * to its /64 prefix, since one subscriber line or one host is given a whole /64 (RFC 6177, RFC 7934)
 * and could otherwise pick a fresh address, and a fresh budget, for every request.
 */
export function addressSubject(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const [head = "", tail] = ip.split("::");
  const groups = (s: string) => (s ? s.split(":").flatMap((g) => (g.includes(".") ? ["0", "0"] : [g])) : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${all.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(":")}::/64`;
}
