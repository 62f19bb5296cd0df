import { OAuthError } from "../oauth/errors";
import { logger } from "../log";
import { randomToken } from "../crypto";
import { withTransportHeaders } from "./security-headers";
import { setHeader, TextBodyResponse } from "./text-body-response";
import { ifDatabaseUnavailable } from "./if-database-unavailable";
import { RETRY_AFTER_SECONDS } from "./is-database-unavailable";
import { currentTraceId } from "../tracing/trace-id";

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

/** A JSON response; `noStore` adds the headers RFC 6749 §5.1 requires on token responses. */
export function json(body: unknown, init: { status?: number; headers?: Record<string, string>; noStore?: boolean } = {}): Response {
  return new TextBodyResponse(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      ...(init.noStore ? NO_STORE : {}),
      ...init.headers,
    },
  });
}

/**
 * Serialises an error once: OAuth errors as themselves, an unavailable database as 503
 * `temporarily_unavailable` with `Retry-After`, anything else as a generic `server_error`.
 */
export function errorResponse(err: unknown, requestId: string): Response {
  if (err instanceof OAuthError) {
    return json(err.toJSON(), { status: err.status, headers: err.headers, noStore: true });
  }
  const unavailable = ifDatabaseUnavailable(err, unavailableResponse, requestId);
  if (unavailable) return unavailable;
  logger.error({ requestId, err }, "unhandled error");
  return json(
    { error: "server_error", error_description: "The server could not complete the request." },
    { status: 500, noStore: true },
  );
}

/**
 * 503 for a database that is unreachable, locked or full (RFC 9110 §15.6.4): the request may be
 * retried unchanged after `Retry-After` seconds. Every write is one transaction, so nothing of the
 * failed request was kept.
 */
function unavailableResponse(): Response {
  return json(
    { error: "temporarily_unavailable",
      error_description: "The service is temporarily unavailable. Please retry shortly." },
    { status: 503, noStore: true, headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } },
  );
}

type Handler = (req: Request, ctx: { requestId: string }) => Promise<Response>;

/** Wraps a JSON endpoint: request id, one access log line, errors turned into responses. */
export function jsonEndpoint(name: string, handler: Handler) {
  return async (req: Request): Promise<Response> => {
    // The trace id when OpenTelemetry traces are on (lib/tracing), as the logs carry it.
    const requestId = currentTraceId() || req.headers.get("x-request-id")?.slice(0, 64) || randomToken(9);
    const started = performance.now();
    let res: Response;
    try {
      res = await handler(req, { requestId });
    } catch (err) {
      res = errorResponse(err, requestId);
    }
    setHeader(res, "X-Request-Id", requestId);
    withTransportHeaders(res);
    logger.debug({ requestId, endpoint: name, method: req.method, status: res.status,
      ms: Math.round((performance.now() - started) * 100) / 100 }, "request");
    return res;
  };
}
