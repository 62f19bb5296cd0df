import type { JWTPayload } from "jose";
import { config } from "../../config";
import { ClientJwtError, verifyClientJwt } from "../../clients/verify-client-jwt";
import type { RegisteredClient } from "../../clients/get-client";
import { ClientDocumentError, fetchClientDocument } from "../../clients/fetch-client-document";
import { reserveJwtId } from "../../security/replay-cache";
import { AuthorizePageError } from "../errors";

/*
 * Signed request objects (RFC 9101, JAR; OpenID Connect Core §6): verified with the client's registered
 * keys (RS256, PS256, ES256) or HS256 keyed by its secret, and turned into the authorization request's
 * parameters. The rules (docs/signed-requests.md):
 * - `iss` = the client_id, `aud` = our issuer, a `client_id` claim equal to the request's client_id;
 * - `exp` and `nbf` checked when present (30 s tolerance): `exp` at most REQUEST_OBJECT_MAX_LIFETIME ahead,
 *   `nbf` at most that far behind (RFC 9101 §10.8, FAPI 2.0 Message Signing: 60 minutes);
 * - `jti` optional, single use when present (the replay cache, kind `request_object`, until `exp`);
 * - `typ`, when present, `oauth-authz-req+jwt` (RFC 9101 §4) or plain `JWT`: other JWT types are refused;
 * - no `request` or `request_uri` inside (RFC 9101 §4).
 * Until the object is verified its redirect_uri cannot be trusted: every refusal here is shown on our
 * error page (AuthorizePageError), never redirected; at the PAR endpoint it is the JSON error.
 */

/** `invalid_request_object` (RFC 9101 §6.3): the request object is not valid. */
export class InvalidRequestObject extends AuthorizePageError {
  constructor(description: string) {
    super("invalid_request_object", description);
  }
}

/** `invalid_request_uri` (RFC 9101 §6.3, RFC 9126 §4): the request_uri cannot be used. */
export class InvalidRequestUri extends AuthorizePageError {
  constructor(description: string) {
    super("invalid_request_uri", description);
  }
}

/** The longest a request object may still be valid for, and how old its `nbf` may be (seconds). */
export const REQUEST_OBJECT_MAX_LIFETIME = 3600;
/** A `request_uri` fetched by reference: the whole exchange and the body's size. */
export const REQUEST_URI_TIMEOUT_MS = 5_000;
export const REQUEST_URI_MAX_BYTES = 64 * 1024;

const TOLERANCE = 30;
/** JWT claims of the object itself, not authorization request parameters. */
const JWT_CLAIMS = new Set(["iss", "aud", "exp", "nbf", "iat", "jti", "sub"]);
const TYPES = new Set(["oauth-authz-req+jwt", "application/oauth-authz-req+jwt", "jwt", "application/jwt"]);

/** Fetches a request object by reference (https; the SSRF rules of lib/clients/fetch-client-document.ts). */
export async function fetchRequestObject(requestUri: string): Promise<string> {
  try {
    const { body } = await fetchClientDocument(requestUri, { timeoutMs: REQUEST_URI_TIMEOUT_MS, maxBytes: REQUEST_URI_MAX_BYTES,
      accept: "application/oauth-authz-req+jwt, application/jwt;q=0.9, */*;q=0.1" });
    return body.trim();
  } catch (err) {
    if (err instanceof ClientDocumentError) throw new InvalidRequestUri(`The request_uri could not be used: ${err.message}`);
    throw err;
  }
}

/**
 * Verifies `client`'s request object and returns its authorization request parameters as name/value
 * pairs (numbers and booleans as text, JSON values such as `claims` as JSON), `client_id` among them.
 * Throws InvalidRequestObject.
 */
export async function requestObjectPairs({ client, jwt }: { client: RegisteredClient; jwt: string }):
  Promise<Array<[string, string]>> {
  let payload: JWTPayload;
  try {
    const verified = await verifyClientJwt(client, jwt, { audience: config().ISSUER, allowHmac: true,
      clockTolerance: TOLERANCE });
    payload = verified.payload;
    const typ = verified.protectedHeader.typ;
    if (typ !== undefined && !TYPES.has(typ.toLowerCase())) throw new ClientJwtError(`the typ ${typ} is not a request object's`);
  } catch (err) {
    if (err instanceof ClientJwtError) throw new InvalidRequestObject(`The request object was refused: ${err.message}`);
    throw err;
  }
  if (payload.iss !== client.id) throw new InvalidRequestObject("The request object's iss must be the client_id");
  if (payload.client_id !== client.id) {
    throw new InvalidRequestObject("The request object's client_id must be the client_id of the request");
  }
  if ("request" in payload || "request_uri" in payload) {
    throw new InvalidRequestObject("A request object must not contain request or request_uri");
  }
  const now = Math.floor(Date.now() / 1000);
  const { exp, nbf, jti } = payload;
  if (exp !== undefined && exp > now + REQUEST_OBJECT_MAX_LIFETIME + TOLERANCE) {
    throw new InvalidRequestObject(`The request object's exp is more than ${REQUEST_OBJECT_MAX_LIFETIME} seconds ahead`);
  }
  if (nbf !== undefined && nbf < now - REQUEST_OBJECT_MAX_LIFETIME - TOLERANCE) {
    throw new InvalidRequestObject(`The request object's nbf is more than ${REQUEST_OBJECT_MAX_LIFETIME} seconds old`);
  }
  if (jti !== undefined) {
    if (typeof jti !== "string" || !jti || jti.length > 256) throw new InvalidRequestObject("The request object's jti is invalid");
    const until = (exp ?? now + REQUEST_OBJECT_MAX_LIFETIME) + TOLERANCE;
    if (!(await reserveJwtId({ kind: "request_object", issuer: client.id, jti, expiresAt: new Date(until * 1000) }))) {
      throw new InvalidRequestObject("The request object has already been used (its jti was seen before)");
    }
  }
  const pairs: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(payload)) {
    if (JWT_CLAIMS.has(name) || value === null || value === undefined) continue;
    pairs.push([name, typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value)]);
  }
  return pairs;
}
