import { isIP } from "node:net";

/** One DNS label of letters, digits and hyphens (RFC 1123 §2.1), not starting or ending with a hyphen. */
const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * Whether a URL's host (as `new URL()` parsed it: lower-cased, IDNs in punycode, IPv4 normalised) is a plain host:
 * an LDH DNS name (RFC 1123, at most 253 characters), an IPv4 literal or a bracketed IPv6 literal. Anything else
 * (`;`, `'`, `,`, `*`, `_`, `%`, `!`..., which WHATWG URL lets through in a host) is not: such a host copied into a
 * header (a CSP source list, docs/security.md) could end a directive and start another.
 */
export function isPlainHost(hostname: string): boolean {
  if (hostname.startsWith("[")) return /^\[[0-9a-f:.]+\]$/i.test(hostname) && isIP(hostname.slice(1, -1)) === 6;
  if (isIP(hostname) === 4) return true;
  return hostname.length > 0 && hostname.length <= 253 && hostname.split(".").every((label) => LDH_LABEL.test(label));
}

/**
 * A web origin's serialisation with a plain host (above), `http(s)://host[:port]`, or null: what may be copied
 * into a CSP source list (lib/http/csp-sources.ts).
 */
export function plainOrigin(value: string): string | null {
  const m = /^(https?):\/\/([^/:]+|\[[0-9a-fA-F:.]+\])(?::(\d{1,5}))?$/.exec(value);
  if (!m || !isPlainHost(m[2]!) || (m[3] !== undefined && Number(m[3]) > 65535)) return null;
  return value;
}
