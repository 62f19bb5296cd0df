import { issuerBase } from "./issuer-base";

/**
 * Whether a form POST may come from our own pages (cross-site request forgery defence).
 * `Sec-Fetch-Site`, when sent, must be `same-origin` or `none`; `Origin` (RFC 6454 §7), when it
 * names an origin, must be the issuer's. A request with neither header (old browser, curl) passes.
 *
 * Every page is served with `Referrer-Policy: no-referrer`, so browsers send `Origin: null` for our
 * own forms (Fetch §3.2.5 "serializing a request origin"). The callers treat that differently:
 * - default (sign-in screens, device pages): Origin is checked on every POST and `null` passes; the
 *   per-request CSRF token and the browser binding still apply to every POST.
 * - `fetchMetadataFirst` (the playground, which has no CSRF token): a `Sec-Fetch-Site` header alone
 *   decides (Origin is then not looked at, so `null` passes too); only without it is Origin checked,
 *   and then `null` is refused, as a sandboxed frame of another site sends it as well.
 */
export function isSameOriginPost(req: Request, { fetchMetadataFirst = false }: { fetchMetadataFirst?: boolean } = {}):
  boolean {
  const site = req.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return false;
  if (site && fetchMetadataFirst) return true;
  const origin = req.headers.get("origin");
  if (!origin || origin === new URL(issuerBase()).origin) return true;
  return origin === "null" && !fetchMetadataFirst;
}
