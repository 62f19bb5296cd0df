import { htmlErrorPage } from "../../http/html";
import { withTransportHeaders } from "../../http/security-headers";
import { setHeader } from "../../http/text-body-response";
import { ifDatabaseUnavailable } from "../../http/if-database-unavailable";
import { unavailablePage } from "../../http/unavailable-page";
import { logger } from "../../log";
import { randomToken } from "../../crypto";
import { currentTraceId } from "../../tracing/trace-id";
import { OAuthError } from "../errors";
import { requestMessages } from "../../i18n/request-language";
import { errorPageBrand } from "../../branding/error-page-brand";
import { redirectError, type RedirectTarget } from "./redirect-to-client";

/**
 * The one place authorization errors become responses. An OAuth error goes to the client's redirect
 * URI with `state` and `iss` when it may be redirected (`redirectable`) and the target is verified;
 * else it is shown on our HTML error page, never redirected (RFC 6749 §4.1.2.1): with its own status
 * for a page-only error (`AuthorizePageError`), 400 for an error meant for the client. An unavailable
 * database is `temporarily_unavailable`; unexpected failures are logged and become `server_error`.
 * The page speaks plain words in the request's language (`ui_locales` of its query, else
 * `Accept-Language`, else English); the error code and its description are in a details section.
 */
export function respondWithError(err: unknown, target: RedirectTarget | undefined, requestId: string,
  req?: Request): Response {
  if (err instanceof OAuthError) {
    if (err.redirectable && target) return redirectError(target, err.error, err.description);
    return errorPage(req, err.redirectable ? 400 : err.status, false, err.error, err.description, requestId);
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
  return errorPage(req, 500, true, "server_error", text, requestId);
}

function errorPage(req: Request | undefined, status: number, ours: boolean, error: string, description: string,
  requestId: string): Response {
  const { lang, t } = requestMessages(req);
  const m = t.authorizeError;
  return htmlErrorPage({ status, lang, title: ours ? m.serverTitle : m.title, message: ours ? m.serverMessage : m.message,
    hint: m.back, error, description, requestId,
    labels: { details: m.detailsLabel, errorCode: m.errorCode, reference: m.reference }, brand: errorPageBrand(t) });
}

/** Where a step stores the redirect target once it is verified, so errors after that are redirected. */
export type StepContext = { target?: RedirectTarget };

/**
 * Runs one authorization step (`/authorize`, `/authorize/resume/{id}`, `/authorize/wait/{id}`) with
 * a request id and the one error mapping above. The request id is the trace id when OpenTelemetry
 * traces are on (lib/tracing), so a reference on an error page finds the trace; otherwise the
 * caller's X-Request-Id, else a random one.
 */
export async function runAuthorizeStep(req: Request, step: (ctx: StepContext) => Promise<Response>): Promise<Response> {
  const requestId = currentTraceId() || req.headers.get("x-request-id")?.slice(0, 64) || randomToken(9);
  const ctx: StepContext = {};
  let res: Response;
  try {
    res = await step(ctx);
  } catch (err) {
    res = respondWithError(err, ctx.target, requestId, req);
  }
  setHeader(res, "X-Request-Id", requestId);
  return withTransportHeaders(res);
}
