import { config } from "../config";

/**
 * Whether a form POST may come from our own pages. `Origin` (RFC 6454 §7), when it names an origin,
 * must be the issuer's; `Sec-Fetch-Site` (Fetch Metadata), when sent, must be same-origin or none.
 * `Origin: null` is allowed: browsers send it for our own forms because the screens use
 * `Referrer-Policy: no-referrer` (Fetch §3.2.5 "serializing a request origin"); the per-request CSRF
 * token and the browser binding still apply to every POST.
 */
export function isSameOriginPost(req: Request): boolean {
  const origin = req.headers.get("origin");
  if (origin && origin !== "null" && origin !== new URL(config().ISSUER).origin) return false;
  const site = req.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return false;
  return true;
}
