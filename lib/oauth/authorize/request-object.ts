import type { JWTPayload } from "jose";
import { config } from "../../config";
import { ClientJwtError, verifyClientJwt } from "../../clients/verify-client-jwt";
import type { RegisteredClient } from "../../clients/get-client";
import { ClientDocumentError, fetchClientDocument } from "../../clients/fetch-client-document";
import { reserveJwtId } from "../../security/replay-cache";
import { logger } from "../../log";
import { AuthorizePageError } from "../errors";

/*
 * Signed request objects (RFC 9101, JAR; OpenID Connect Core §6): verified with the client's registered
 * keys (RS256, PS256, ES256) or HS256 keyed by its secret, and turned into the authorization request's
 * parameters. The rules (docs/signed-requests.md):
 * - `iss` = the client_id, `aud` = our issuer, a `client_id` claim equal to the request's client_id;
 * - `exp` required (30 s tolerance), at most REQUEST_OBJECT_MAX_LIFETIME ahead, and `exp` − `iat` and
 *   `exp` − `nbf` (each when present) at most that long; `nbf` at most that far behind (RFC 9101 §10.8,
 *   FAPI 2.0 Message Signing: 60 minutes), so an object without a `jti` is replayable for an hour at most;
 * - `jti` optional, single use when present (the replay cache, kind `request_object`, until `exp` + tolerance,
 *   i.e. as long as the object is accepted at all);
 * - `typ`, when present, a string, `oauth-authz-req+jwt` (RFC 9101 §4) or plain `JWT`: other types are refused;
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

/**
 * The one description of every refused `request_uri` by reference: the rule, never why the fetch failed
 * (an HTTP status, a DNS or connection error would make the error page an oracle for internal names).
 */
export const REQUEST_URI_REFUSED = "The request_uri could not be used: it must be an https URL on the origin (scheme, "
  + "host and port) of one of the client's registered redirect URIs or of its jwks_uri, and return the request object.";

/**
 * The origins (scheme, host, port) a client's `request_uri` may be fetched from (RFC 9101 §10.4.1: the server
 * restricts request_uri): those of its registered redirect URIs and of its `jwks_uri`; web origins only
 * (https, or http on a loopback host as registration allows; private-use schemes have none).
 */
export function requestUriOrigins(client: RegisteredClient): Set<string> {
  const origins = new Set<string>();
  for (const uri of client.jwksUri ? [...client.redirectUris, client.jwksUri] : client.redirectUris) {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      continue;
    }
    if (url.protocol === "https:" || url.protocol === "http:") origins.add(url.origin);
  }
  return origins;
}

/**
 * Fetches `client`'s request object by reference: only from one of requestUriOrigins(client), then with the
 * SSRF rules of lib/clients/fetch-client-document.ts (https, public addresses, 5 s, 64 KiB, no redirects).
 * Every refusal is InvalidRequestUri(REQUEST_URI_REFUSED); the detail goes to the log only.
 */
export async function fetchRequestObject(client: RegisteredClient, requestUri: string): Promise<string> {
  let origin: string;
  try {
    origin = new URL(requestUri).origin;
  } catch {
    throw refuseRequestUri(client, "null", "the request_uri is not an absolute URL");
  }
  if (origin === "null" || !requestUriOrigins(client).has(origin)) {
    throw refuseRequestUri(client, origin, "not the origin of a registered redirect URI or of the jwks_uri (not fetched)");
  }
  try {
    const { body } = await fetchClientDocument(requestUri, { timeoutMs: REQUEST_URI_TIMEOUT_MS, maxBytes: REQUEST_URI_MAX_BYTES,
      accept: "application/oauth-authz-req+jwt, application/jwt;q=0.9, */*;q=0.1" });
    return body.trim();
  } catch (err) {
    if (err instanceof ClientDocumentError) throw refuseRequestUri(client, origin, err.message);
    throw err;
  }
}

/** Logs why (the origin only: a path or query may carry anything) and returns the generic refusal. */
function refuseRequestUri(client: RegisteredClient, origin: string, reason: string): InvalidRequestUri {
  logger.info({ clientId: client.id, requestUriOrigin: origin.slice(0, 300), reason }, "request_uri refused");
  return new InvalidRequestUri(REQUEST_URI_REFUSED);
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
    const typ: unknown = verified.protectedHeader.typ;
    if (typ !== undefined && (typeof typ !== "string" || !TYPES.has(typ.toLowerCase()))) {
      throw new ClientJwtError("the typ header is not a request object's (oauth-authz-req+jwt or JWT)");
    }
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
  const { exp, nbf, iat, jti } = payload;
  // jose has checked that exp, nbf and iat are numbers when present, and that exp has not passed.
  if (typeof exp !== "number") {
    throw new InvalidRequestObject(`The request object must have an exp, at most ${REQUEST_OBJECT_MAX_LIFETIME} seconds ahead`);
  }
  if (exp > now + REQUEST_OBJECT_MAX_LIFETIME + TOLERANCE) {
    throw new InvalidRequestObject(`The request object's exp is more than ${REQUEST_OBJECT_MAX_LIFETIME} seconds ahead`);
  }
  for (const [name, start] of [["iat", iat], ["nbf", nbf]] as const) {
    if (typeof start === "number" && exp - start > REQUEST_OBJECT_MAX_LIFETIME) {
      throw new InvalidRequestObject(
        `The request object lives longer than ${REQUEST_OBJECT_MAX_LIFETIME} seconds (exp - ${name})`);
    }
  }
  if (nbf !== undefined && nbf < now - REQUEST_OBJECT_MAX_LIFETIME - TOLERANCE) {
    throw new InvalidRequestObject(`The request object's nbf is more than ${REQUEST_OBJECT_MAX_LIFETIME} seconds old`);
  }
  if (jti !== undefined) {
    if (typeof jti !== "string" || !jti || jti.length > 256) throw new InvalidRequestObject("The request object's jti is invalid");
    // Reserved for as long as the object is accepted (exp plus the clock tolerance jose allowed), never less.
    const until = exp + TOLERANCE;
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
