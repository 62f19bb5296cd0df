import { mediaType } from "../../http/media-type";
import { readBodyText } from "../../http/params";
import { AuthorizePageError, RequestTooLarge } from "../errors";
import { MAX_URL_BYTES } from "../../http/security-headers";

/**
 * The name/value pairs of an authorization request: the query of a GET, or the form body of a POST
 * (OIDC Core §3.1.2.1). Anything unreadable or larger than MAX_BODY_BYTES (lib/http/params.ts) is refused on the error
 * page: the client is not known yet, so nothing may be redirected.
 */
export async function readAuthorizationPairs(req: Request): Promise<Array<[string, string]>> {
  if (req.method === "GET" || req.method === "HEAD") {
    const url = new URL(req.url);
    if (url.search.length > MAX_URL_BYTES) throw tooLarge(414);
    return [...url.searchParams];
  }
  if (req.method !== "POST") throw new AuthorizePageError("invalid_request", "Only GET and POST are accepted.", 405);
  const type = mediaType(req);
  if (type !== "application/x-www-form-urlencoded") {
    throw new AuthorizePageError("invalid_request", "The request body must be application/x-www-form-urlencoded.");
  }
  try {
    return [...new URLSearchParams(await readBodyText(req))];
  } catch (e) {
    throw e instanceof RequestTooLarge ? tooLarge(413) : e;
  }
}

/** 413 Content Too Large / 414 URI Too Long (RFC 9110 §15.5.14-15). */
function tooLarge(status: 413 | 414) {
  return new AuthorizePageError("invalid_request", "The authorization request is too large.", status);
}
