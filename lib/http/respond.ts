import { OAuthError } from "../oauth/errors";
import { logger } from "../log";
import { randomToken } from "../crypto";

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

/** A JSON response; `noStore` adds the headers RFC 6749 §5.1 requires on token responses. */
export function json(body: unknown, init: { status?: number; headers?: Record<string, string>; noStore?: boolean } = {}) {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      ...(init.noStore ? NO_STORE : {}),
      ...init.headers,
    },
  });
}

/** Serialises an error once: OAuth errors as themselves, anything else as a generic `server_error`. */
export function errorResponse(err: unknown, requestId: string): Response {
  if (err instanceof OAuthError) {
    return json(err.toJSON(), { status: err.status, headers: err.headers, noStore: true });
  }
  logger.error({ requestId, err }, "unhandled error");
  return json(
    { error: "server_error", error_description: "The server could not complete the request." },
    { status: 500, noStore: true },
  );
}

type Handler = (req: Request, ctx: { requestId: string }) => Promise<Response>;

/** Wraps a JSON endpoint: request id, one access log line, errors turned into responses. */
export function jsonEndpoint(name: string, handler: Handler) {
  return async (req: Request): Promise<Response> => {
    const requestId = req.headers.get("x-request-id")?.slice(0, 64) || randomToken(9);
    const started = performance.now();
    let res: Response;
    try {
      res = await handler(req, { requestId });
    } catch (err) {
      res = errorResponse(err, requestId);
    }
    res.headers.set("X-Request-Id", requestId);
    logger.debug({ requestId, endpoint: name, method: req.method, status: res.status,
      ms: Math.round((performance.now() - started) * 100) / 100 }, "request");
    return res;
  };
}
