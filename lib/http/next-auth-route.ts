import { NextRequest } from "next/server";
import { logger } from "../log";
import { randomToken } from "../crypto";
import { InvalidRequest, OAuthError, UnsupportedMediaType } from "../oauth/errors";
import { isDatabaseUnavailable } from "./is-database-unavailable";
import { mediaType } from "./media-type";
import { readBodyText } from "./params";
import { errorResponse } from "./respond";
import { appendHeader } from "./text-body-response";
import { withTransportHeaders } from "./security-headers";

/**
 * Wraps a next-auth route handler (the playground's /api/auth/*, the console's /console/auth/*). next-auth v4
 * reads a POST body itself, by its Content-Type (`JSON.parse` for anything naming application/json), and an
 * exception there or anywhere in it became a bare 500. Here, before next-auth sees the request: a POST must be a
 * form post (`application/x-www-form-urlencoded`, what the console's sign-in form and the playground's calls
 * send), else `415 invalid_request`; its body is read here, up to MAX_BODY_BYTES (413 beyond, never buffered
 * unbounded); whatever next-auth throws becomes `400 invalid_request` (a database outage: 503), logged; and its own
 * untyped refusals a standard one (standardRefusal, below).
 */
export function nextAuthRoute<A extends unknown[]>(handler: (req: Request, ...rest: A) => Promise<Response>) {
  return async (req: Request, ...rest: A): Promise<Response> => {
    const requestId = randomToken(9);
    try {
      if (req.method === "POST") {
        if (mediaType(req) !== "application/x-www-form-urlencoded") {
          throw new UnsupportedMediaType("the body must be a form post (Content-Type: application/x-www-form-urlencoded)");
        }
        // Read here, bounded, and handed to next-auth as a request of its own with that text (next-auth reads
        // `nextUrl`, so a NextRequest). Not a clone read in parallel: a tee'd stream's cancel waits for both sides.
        const body = await readBodyText(req);
        return standardRefusal(await handler(new NextRequest(req.url, { method: "POST", headers: req.headers, body }),
          ...rest), requestId);
      }
      return standardRefusal(await handler(req, ...rest), requestId);
    } catch (err) {
      if (!(err instanceof OAuthError) && !isDatabaseUnavailable(err)) {
        logger.warn({ requestId, reason: String((err as Error)?.message ?? err).slice(0, 200) },
          "next-auth could not read a request: answered 400");
        err = new InvalidRequest("the request could not be read");
      }
      return withTransportHeaders(errorResponse(err, requestId));
    }
  };
}

/**
 * next-auth's own refusals come without a media type (v4 sends `{}` as the text "[object Object]" for a session
 * update without a valid csrfToken, plain text for an action it does not know): answered as `400 invalid_request`
 * instead, with next-auth's cookies kept. Its pages, JSON and redirects, and 404/405, pass unchanged.
 */
function standardRefusal(res: Response, requestId: string): Response {
  const type = res.headers.get("content-type") ?? "";
  if (res.status < 400 || res.status === 404 || res.status === 405 || /json|html/.test(type)) return res;
  const out = withTransportHeaders(errorResponse(new InvalidRequest(
    "next-auth refused the request (a missing or invalid csrfToken, or an action it does not offer)"), requestId));
  for (const cookie of res.headers.getSetCookie()) appendHeader(out, "Set-Cookie", cookie);
  return out;
}
