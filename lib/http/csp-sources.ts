import { plainOrigin } from "./uri-host";

/**
 * The one place a Content-Security-Policy source list is built from stored client URIs (the check_session_iframe's
 * `frame-ancestors`, the logout page's `frame-src`, the sign-in screens' `form-action`). Each value is reduced to its
 * origin (`https://host[:port]`) and kept only if that origin is plainly shaped (lib/http/uri-host.ts: an LDH name
 * or an IP literal); with `schemes`, an app's private-use scheme (RFC 8252 §7.1) becomes a scheme-source (`com.x:`).
 * Anything else (a malformed row stored before the registration rules, a host with `;`) is dropped, never copied:
 * one character too many would end the directive and start another (`sandbox`, `report-uri`...). Sorted, without
 * duplicates; `'none'` when nothing is left and no keyword was given.
 */
export function cspSourceList(values: Iterable<string>, { keywords = [], schemes = false }: {
  keywords?: readonly string[]; schemes?: boolean;
} = {}): string {
  const sources = new Set<string>();
  for (const value of values) {
    const source = cspSource(value, schemes);
    if (source) sources.add(source);
  }
  const list = [...keywords, ...[...sources].sort()];
  return list.length ? list.join(" ") : "'none'";
}

function cspSource(value: string, schemes: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol === "http:" || url.protocol === "https:") return plainOrigin(url.origin);
  return schemes && /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) ? url.protocol : null;
}
