import { issuerBase } from "../http/issuer-base";

/**
 * The playground's POST routes act on the browser's next-auth session, so another site must not be able
 * to trigger them (login CSRF, forced logout): the Fetch Metadata header, or else Origin, must say the
 * form came from our own pages. A request with neither header (old browser, curl) is let through.
 */
export function isSameOriginPost(req: Request): boolean {
  const site = req.headers.get("sec-fetch-site");
  if (site) return site === "same-origin" || site === "none";
  const origin = req.headers.get("origin");
  return !origin || origin === new URL(issuerBase()).origin;
}
