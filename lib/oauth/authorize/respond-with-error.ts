import { htmlErrorPage } from "../../http/html";
import { withTransportHeaders } from "../../http/security-headers";
import { ifDatabaseUnavailable } from "../../http/if-database-unavailable";
import { unavailablePage } from "../../http/unavailable-page";
import { logger } from "../../log";
import { randomToken } from "../../crypto";
import { OAuthError } from "../errors";
import { redirectError, type RedirectTarget } from "./redirect-to-client";

const TITLE = "This sign-in request cannot be processed";

/**
 * The one place authorization errors become responses. An OAuth error goes to the client's redirect
 * URI with `state` and `iss` when it may be redirected (`redirectable`) and the target is verified;
 * else it is shown on our HTML error page, never redirected (RFC 6749 §4.1.2.1): with its own status
 * for a page-only error (`AuthorizePageError`), 400 for an error meant for the client. An unavailable
 * database is `temporarily_unavailable`; unexpected failures are logged and become `server_error`.
 */
export function respondWithError(err: unknown, target: RedirectTarget | undefined, requestId: string): Response {
  if (err instanceof OAuthError) {
    if (err.redirectable && target) return redirectError(target, err.error, err.description);
    return htmlErrorPage({ status: err.redirectable ? 400 : err.status, title: TITLE, message: err.description,
      error: err.error, requestId });
  }
  // RFC 6749 §4.1.2.1 temporarily_unavailable: to the client once its redirect URI is verified
  // (from the client cache), else our 503 page. Nothing was written: retrying is safe.
  const unavailable = ifDatabaseUnavailable(err, () => target
    ? redirectError(target, "temporarily_unavailable", "The service is temporarily unavailable.")
    : unavailablePage({ requestId }), requestId);
  if (unavailable) return unavailable;
  logger.error({ requestId, err }, "authorization request failed");
  const text = "The server could not complete the request.";
  if (target) return redirectError(target, "server_error", text);
  return htmlErrorPage({ status: 500, title: "Something went wrong", message: text, error: "server_error", requestId });
}

/** Where a step stores the redirect target once it is verified, so errors after that are redirected. */
export type StepContext = { target?: RedirectTarget };

/**
 * Runs one authorization step (`/authorize`, `/authorize/resume/{id}`, `/authorize/wait/{id}`) with
 * a request id and the one error mapping above.
 */
export async function runAuthorizeStep(req: Request, step: (ctx: StepContext) => Promise<Response>): Promise<Response> {
  const requestId = req.headers.get("x-request-id")?.slice(0, 64) || randomToken(9);
  const ctx: StepContext = {};
  let res: Response;
  try {
    res = await step(ctx);
  } catch (err) {
    res = respondWithError(err, ctx.target, requestId);
  }
  res.headers.set("X-Request-Id", requestId);
  return withTransportHeaders(res);
}
