import { mediaType } from "../../http/media-type";
import { bodyParams, queryParams, type Params } from "../../http/params";
import { InvalidRequest, InvalidToken } from "../errors";

const BEARER = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i;
const DPOP = /^DPoP\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i;

/** How the token came: `Authorization: DPoP` (RFC 9449 §7.1) or any of RFC 6750's bearer methods. */
export type TokenScheme = "bearer" | "dpop";
const BODY_TYPES = new Set(["application/x-www-form-urlencoded", "application/json"]);

/**
 * The access token in an `Authorization` header value: `Bearer` (RFC 6750 §2.1) or `DPoP` (RFC 9449 §7.1);
 * `malformed` when the scheme is one of those but the rest is not a token; null for any other header.
 */
export function authorizationToken(value: string | null): { token: string; scheme: TokenScheme } | "malformed" | null {
  if (value && /^Bearer(\s|$)/i.test(value)) {
    const m = BEARER.exec(value);
    return m ? { token: m[1]!, scheme: "bearer" } : "malformed";
  }
  if (value && /^DPoP(\s|$)/i.test(value)) {
    const m = DPOP.exec(value);
    return m ? { token: m[1]!, scheme: "dpop" } : "malformed";
  }
  return null;
}

/**
 * Reads the access token of a protected-resource request (RFC 6750 §2): `Authorization: Bearer`,
 * a POST body `access_token` (form, or the interface's JSON), or one of the query parameters
 * `queryNames` (the interface's `?token=`), or `Authorization: DPoP` (RFC 9449 §7.1, reported as `scheme`).
 * Exactly one method may be used (RFC 6750 §2).
 * A request without any token is 401 `invalid_token` "No Access Token" (issue 4: missing, unknown,
 * expired and revoked tokens all read `invalid_token`), carried in the header the field's
 * SDKs look for.
 */
export async function readBearerToken(req: Request, { queryNames = [] as string[] } = {}):
  Promise<{ token: string; body: Params; scheme: TokenScheme }> {
  const found: string[] = [];
  let scheme: TokenScheme = "bearer";
  const authorization = req.headers.get("authorization");
  const header = authorizationToken(authorization);
  if (header === "malformed") {
    // RFC 9449 §7.1: a DPoP-bound token, with its proof in the DPoP header (lib/oauth/resource/check-token-binding.ts).
    throw new InvalidRequest(`malformed ${/^DPoP/i.test(authorization!) ? "DPoP" : "Bearer"} authorization header`);
  }
  if (header) {
    found.push(header.token);
    scheme = header.scheme;
  }
  const query = queryParams(req.url);
  for (const name of queryNames) {
    const v = query.get(name);
    if (v !== undefined) found.push(v);
  }
  const body = await readBody(req);
  const fromBody = body.get("access_token");
  if (fromBody !== undefined) found.push(fromBody);

  if (found.length > 1) {
    throw new InvalidRequest("the access token must be sent by exactly one method (RFC 6750 section 2)");
  }
  if (!found[0]) throw new InvalidToken("No Access Token");
  return { token: found[0], body, scheme };
}

/** Body parameters of a POST whose content type can carry them; other bodies are not read. */
async function readBody(req: Request): Promise<Params> {
  if (req.method !== "POST") return new Map();
  const type = mediaType(req);
  return BODY_TYPES.has(type) ? bodyParams(req) : new Map();
}
