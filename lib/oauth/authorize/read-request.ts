import { MAX_BODY_BYTES } from "../../http/params";
import { MAX_URL_BYTES } from "../../http/security-headers";
import { AuthorizePageError } from "./errors";

/**
 * The name/value pairs of an authorization request: the query of a GET, or the form body of a POST
 * (OIDC Core §3.1.2.1). Anything unreadable or larger than MAX_BODY_BYTES is refused on the error
 * page: the client is not known yet, so nothing may be redirected.
 */
export async function readAuthorizationPairs(req: Request): Promise<Array<[string, string]>> {
  if (req.method === "GET" || req.method === "HEAD") {
    const url = new URL(req.url);
    if (url.search.length > MAX_URL_BYTES) throw tooLarge(414);
    return [...url.searchParams];
  }
  if (req.method !== "POST") throw new AuthorizePageError("invalid_request", "Only GET and POST are accepted.", 405);
  const type = (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw new AuthorizePageError("invalid_request", "The request body must be application/x-www-form-urlencoded.");
  }
  if (Number(req.headers.get("content-length") ?? "0") > MAX_BODY_BYTES) throw tooLarge(413);
  const text = await readLimited(req, MAX_BODY_BYTES);
  return [...new URLSearchParams(text)];
}

/** 413 Content Too Large / 414 URI Too Long (RFC 9110 §15.5.14-15). */
function tooLarge(status: 413 | 414) {
  return new AuthorizePageError("invalid_request", "The authorization request is too large.", status);
}

/** Reads a body but stops as soon as it exceeds `limit` bytes (a missing Content-Length is no bypass). */
async function readLimited(req: Request, limit: number): Promise<string> {
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(413);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
