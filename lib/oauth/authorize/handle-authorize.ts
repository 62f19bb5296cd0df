import { issuerBase } from "../../http/issuer-base";
import { readBrowserId } from "../../sessions/browser-cookie";
import { resolveHints } from "../hints/resolve-hints";
import { PATHS } from "../discovery";
import { checkClientAuthentication } from "./check-client-authentication";
import { checkClientAndRedirect } from "./check-client";
import { collectParams, singleParam } from "./collect-params";
import { continueAuthorization } from "./continue-authorization";
import { readAuthorizationPairs } from "./read-request";
import type { RedirectTarget } from "./redirect-to-client";
import { runAuthorizeStep } from "./respond-with-error";
import { startMobileAuthorization } from "./start-mobile-authorization";
import { validateAuthorizationParams } from "./validate-params";
import type { AuthorizationParams } from "./types";

/**
 * GET / POST {authorization_endpoint} (interface "Authorization endpoint"; OIDC Core §3.1.2).
 * Order: read the request, verify client_id and redirect_uri (errors on our page), then the
 * optional Basic header, every parameter and the hints (errors redirected with state and iss),
 * then decide: the code, the interaction screen, the prompt=none error, or (prompt=mobile) the
 * out-of-band wait for the handset.
 */
export function handleAuthorize(req: Request): Promise<Response> {
  return runAuthorizeStep(req, (ctx) => authorize(req, ctx));
}

async function authorize(req: Request, ctx: { target?: RedirectTarget }): Promise<Response> {
  const pairs = await readAuthorizationPairs(req);
  const raw = collectParams(pairs);
  const { client, redirectUri } = await checkClientAndRedirect(raw);
  ctx.target = { redirectUri, state: singleParam(raw, "state"), status: req.method === "POST" ? 303 : 302 };
  const clientAuthenticated = await checkClientAuthentication({ headers: req.headers, client });
  const browserId = readBrowserId(req.headers.get("cookie"));
  // A cross-site form POST does not carry our SameSite=Lax cookie: re-issue it as a top-level GET
  // (which does) rather than mistake the browser for a new one and orphan its sessions.
  if (req.method === "POST" && !browserId) return asGet(pairs);
  const { hints, ...validated } = validateAuthorizationParams({ raw, client, now: Date.now() });
  const resolved = await resolveHints({ hints, client, promptNone: validated.prompt.includes("none") });
  const params: AuthorizationParams = { ...validated, ...resolved, ...(clientAuthenticated ? { clientAuthenticated } : {}) };
  if (params.prompt.includes("mobile")) {
    return startMobileAuthorization({ req, params, client, browserId });
  }
  return continueAuthorization({ params, client, browserId, target: ctx.target });
}

function asGet(pairs: Array<[string, string]>): Response {
  const url = `${issuerBase()}${PATHS.authorization}?${new URLSearchParams(pairs)}`;
  return new Response(null, { status: 303, headers: { Location: url, "Cache-Control": "no-store" } });
}
