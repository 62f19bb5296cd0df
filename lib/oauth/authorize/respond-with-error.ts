import { htmlErrorPage } from "../../http/html";
import { withTransportHeaders } from "../../http/security-headers";
import { isDatabaseUnavailable } from "../../http/is-database-unavailable";
import { logDatabaseUnavailable } from "../../http/respond";
import { unavailablePage } from "../../http/unavailable-page";
import { logger } from "../../log";
import { randomToken } from "../../crypto";
import { OAuthError } from "../errors";
import { AuthorizePageError } from "./errors";
import { redirectError, type RedirectTarget } from "./redirect-to-client";

/**
 * The one place authorization errors become responses. Without a verified redirect target (unknown
 * client, unregistered redirect URI, unreadable request) or for a page-only failure: our HTML
 * error page, never a redirect (RFC 6749 §4.1.2.1). Otherwise the error goes to the client's
 * redirect URI with `state` and `iss`. Unexpected failures are logged and become `server_error`.
 */
export function respondWithError(err: unknown, target: RedirectTarget | undefined, requestId: string): Response {
  if (err instanceof AuthorizePageError) {
    return htmlErrorPage({ status: err.status, title: "This sign-in request cannot be processed",
      message: err.description, error: err.error, requestId });
  }
  if (err instanceof OAuthError) {
    if (target) return redirectError(target, err.error, err.description);
    return htmlErrorPage({ status: 400, title: "This sign-in request cannot be processed", message: err.description,
      error: err.error, requestId });
  }
  if (isDatabaseUnavailable(err)) {
    // RFC 6749 §4.1.2.1 temporarily_unavailable: to the client once its redirect URI is verified
    // (from the client cache), else our 503 page. Nothing was written: retrying is safe.
    logDatabaseUnavailable(err, requestId);
    if (target) return redirectError(target, "temporarily_unavailable", "The service is temporarily unavailable.");
    return unavailablePage({ requestId });
  }
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
