import type { LeanPath } from "../lib/http/endpoints";
import * as authorize from "../app/authorize/route";
import * as bcAuthorize from "../app/bc-authorize/route";
import * as discovery from "../app/.well-known/openid-configuration/route";
import * as health from "../app/api/health/route";
import * as healthLive from "../app/api/health/live/route";
import * as healthReady from "../app/api/health/ready/route";
import * as metrics from "../app/metrics/route";
import * as introspect from "../app/introspect/route";
import * as jwks from "../app/jwks/route";
import * as par from "../app/par/route";
import * as premiuminfo from "../app/premiuminfo/route";
import * as revoke from "../app/revoke/route";
import * as token from "../app/token/route";
import * as userinfo from "../app/userinfo/route";
import * as numberVerificationVerify from "../app/number-verification/v2/verify/route";
import * as devicePhoneNumber from "../app/number-verification/v2/device-phone-number/route";
import * as simSwapCheck from "../app/sim-swap/v2/check/route";
import * as simSwapRetrieveDate from "../app/sim-swap/v2/retrieve-date/route";
import * as kycMatch from "../app/kyc-match/v0.3/match/route";

export type RouteHandler = (req: Request) => Promise<Response>;

/**
 * The endpoints the lean server answers without Next.js: the very route modules Next.js serves
 * (app/**\/route.ts, so both paths run the same code), by exact path and method. Other methods of
 * these paths (HEAD, OPTIONS, 405s) and every other path go to Next.js. The paths are the registry's
 * `lean` endpoints (lib/http/endpoints.ts): the type refuses a missing or an extra one.
 */
const modules: Record<LeanPath, Partial<Record<"GET" | "POST", RouteHandler>>> = {
  "/authorize": authorize,
  "/token": token,
  "/premiuminfo": premiuminfo,
  "/userinfo": userinfo,
  "/jwks": jwks,
  "/.well-known/openid-configuration": discovery,
  "/revoke": revoke,
  "/introspect": introspect,
  "/par": par,
  "/bc-authorize": bcAuthorize,
  "/api/health": health,
  "/api/health/live": healthLive,
  "/api/health/ready": healthReady,
  "/metrics": metrics,
  "/number-verification/v2/verify": numberVerificationVerify,
  "/number-verification/v2/device-phone-number": devicePhoneNumber,
  "/sim-swap/v2/check": simSwapCheck,
  "/sim-swap/v2/retrieve-date": simSwapRetrieveDate,
  "/kyc-match/v0.3/match": kycMatch,
};

export const HOT_PATHS = Object.keys(modules) as LeanPath[];

/** The handler for a path and method, or undefined (then Next.js answers). */
export function hotRoute(path: string, method: string): RouteHandler | undefined {
  const m = modules[path as LeanPath] as (typeof modules)[LeanPath] | undefined;
  if (!m) return undefined;
  return method === "GET" ? m.GET : method === "POST" ? m.POST : undefined;
}
