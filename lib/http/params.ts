import { InvalidRequest, RequestTooLarge, UriTooLong } from "../oauth/errors";
import { PROTOCOL_TABLE } from "../parameters/parameter-table";
import { readPairs, type ParameterFaults } from "../parameters/read-parameters";
import { mediaType } from "./media-type";
import { MAX_URL_BYTES } from "./security-headers";

/** Largest POST body accepted by the protocol and form endpoints (413 beyond, RFC 9110 §15.5.14). */
export const MAX_BODY_BYTES = 16 * 1024;

export type Params = Map<string, string>;

/** A request whose body has already been read into memory (the production server's LeanRequest). */
export const BUFFERED_BODY = Symbol.for("operator-identity.buffered-body");
export type BufferedBody = { [BUFFERED_BODY](): Buffer | null };

/** How the protocol endpoints refuse a repeated or over-long parameter: `400 invalid_request` (RFC 6749 §5.2). */
const PROTOCOL_FAULTS: ParameterFaults = {
  repeated: (name) => new InvalidRequest(`parameter ${name} is included more than once`),
  tooLong: (name) => new InvalidRequest(`parameter ${name} is too long`),
};

/**
 * Turns name/value pairs into a map with the one parameter reader (lib/parameters/read-parameters.ts),
 * refusing repeated names (RFC 6749 §3.1) and over-long values.
 */
export function toParams(pairs: Iterable<[string, string]>): Params {
  return readPairs(pairs, PROTOCOL_TABLE, PROTOCOL_FAULTS);
}

/** Parameters of a URL's query string (414 beyond MAX_URL_BYTES, RFC 9110 §15.5.15). */
export function queryParams(url: URL | string): Params {
  const u = typeof url === "string" ? new URL(url) : url;
  if (u.pathname.length + u.search.length > MAX_URL_BYTES) throw new UriTooLong("the request URL is too long");
  return toParams(u.searchParams);
}

/**
 * The body as UTF-8 text, refused with 413 as soon as it exceeds MAX_BODY_BYTES: a declared
 * Content-Length is checked before reading, a chunked body is cut off at the first chunk past the
 * limit (so an unbounded body is never buffered). Invalid UTF-8 becomes U+FFFD (RFC 8259 §8.1,
 * form bodies are percent-encoded ASCII anyway).
 */
export async function readBodyText(req: Request): Promise<string> {
  const declared = req.headers.get("content-length");
  if (declared !== null && !(Number(declared) <= MAX_BODY_BYTES)) {
    throw new RequestTooLarge("the request body is too large");
  }
  // The production server's requests arrive with the body already in memory (server/lean-request.ts):
  // the same limit, without a ReadableStream around the bytes.
  const buffered = (req as Partial<BufferedBody>)[BUFFERED_BODY]?.();
  if (buffered !== undefined) {
    if (buffered === null) return "";
    if (buffered.byteLength > MAX_BODY_BYTES) throw new RequestTooLarge("the request body is too large");
    return buffered.toString("utf8");
  }
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw new RequestTooLarge("the request body is too large");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A lone UTF-16 surrogate (a well-formed pair is one supplementary code point, not category Cs). */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Parameters of a POST body: `application/x-www-form-urlencoded` (RFC 6749) or, as the interface
 * specifies for the token endpoint, a JSON object of strings. Anything else is `invalid_request`.
 */
export async function bodyParams(req: Request, { json = true } = {}): Promise<Params> {
  const type = mediaType(req);
  const text = await readBodyText(req);
  if (type === "application/x-www-form-urlencoded") return toParams(new URLSearchParams(text));
  if (json && type === "application/json") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new InvalidRequest("the request body is not valid JSON");
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new InvalidRequest("the request body must be a JSON object");
    }
    const pairs: Array<[string, string]> = [];
    for (const [k, v] of Object.entries(parsed)) {
      if (v === null || v === undefined) continue;
      if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") {
        throw new InvalidRequest(`parameter ${k} must be a string`);
      }
      // A `\ud800`-style escape decodes to half a surrogate pair: no Unicode text (RFC 8259 §8.2),
      // and not storable or comparable as one (Prisma refuses to serialise it).
      if (LONE_SURROGATE.test(k) || (typeof v === "string" && LONE_SURROGATE.test(v))) {
        throw new InvalidRequest("the request body contains a string that is not valid Unicode (an unpaired surrogate escape)");
      }
      pairs.push([k, String(v)]);
    }
    return toParams(pairs);
  }
  if (!text && !type) return new Map();
  throw new InvalidRequest(
    json ? "the body must be application/x-www-form-urlencoded or application/json"
      : "the body must be application/x-www-form-urlencoded",
  );
}
