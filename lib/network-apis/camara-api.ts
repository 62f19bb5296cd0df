import type { AccessToken } from "../tokens/token-rows";
import type { Subscriber } from "../subscribers/subscriber-row";
import { isAccessTokenActive } from "../tokens/is-token-active";
import { findAccessTokenWithSubscriber } from "../tokens/find-access-token-with-subscriber";
import { findClientAccessToken } from "../tokens/client-access-tokens";
import { randomToken } from "../crypto";
import { logger } from "../log";
import { mediaType } from "../http/media-type";
import { readBodyText } from "../http/params";
import { TextBodyResponse } from "../http/text-body-response";
import { withTransportHeaders } from "../http/security-headers";
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from "../http/is-database-unavailable";
import { logDatabaseUnavailable } from "../http/if-database-unavailable";
import { checkTokenBinding } from "../oauth/resource/check-token-binding";
import { authorizationToken } from "../oauth/resource/read-bearer-token";
import { OAuthError } from "../oauth/errors";
import { parseScope } from "../oauth/scopes";
import { CamaraError, camaraErrors } from "./camara-error";
import { splitNetworkApiScopes, type NetworkApiScope } from "./camara-scopes";

/** CAMARA's `x-correlator` (CAMARA_common.yaml XCorrelator): echoed on every answer, errors included. */
const CORRELATOR = /^[a-zA-Z0-9\-_:;./<>{}]{0,256}$/;

/** The token a network-API request presented, once authenticated (docs/network-apis.md "Access"). */
export interface ApiCaller {
  clientId: string;
  /** The token's scopes (API scopes and its one purpose). */
  scopes: string[];
  /** The one purpose scope (dpv:…) the token carries. */
  purpose: string;
  /**
   * Three-legged: the subscriber the token speaks for, with the token's row (amr, expiry, hash for single use).
   * Two-legged (a client_credentials token): null, and the request must name the phone number.
   */
  subscriber: Subscriber | null;
  token: AccessToken | null;
}

export interface ApiContext<B> {
  req: Request;
  caller: ApiCaller;
  /** The request's JSON body (POST), as the operation's `body` parser returned it. */
  body: B;
  requestId: string;
}

/**
 * One network-API operation (a CAMARA API's path and method), framework-free like the OAuth handlers: the
 * Authorization header (Bearer or DPoP, RFC 6750 / RFC 9449; never a query or body token), the token's scope
 * (`scope`: exactly this operation's), the JSON body (`body` validates it and throws `CamaraError` 400
 * INVALID_ARGUMENT), then `handle`, whose object is the 200 answer. Every answer carries the request's
 * `x-correlator` (when well formed: else 400) and `Cache-Control: no-store`; errors are CAMARA's
 * `{status, code, message}`; an unavailable database is 503 UNAVAILABLE, anything unexpected 500 INTERNAL
 * (logged, never shown).
 */
export function networkApiOperation<B = undefined>({ name, path, scope, twoLegged, body, handle }: {
  /** For logs, e.g. "sim-swap.check". */
  name: string;
  /** The operation's path (PATHS entry): the DPoP proof's `htu`. */
  path: string;
  scope: NetworkApiScope;
  /** Whether a two-legged (client_credentials) token may call it (then the body names the phone number). */
  twoLegged: boolean;
  body?: (json: unknown) => B;
  handle: (ctx: ApiContext<B>) => Promise<Record<string, unknown>>;
}) {
  return async (req: Request): Promise<Response> => {
    const requestId = req.headers.get("x-request-id")?.slice(0, 64) || randomToken(9);
    const correlator = req.headers.get("x-correlator");
    const echo = correlator !== null && CORRELATOR.test(correlator) ? correlator : undefined;
    let res: Response;
    try {
      if (correlator !== null && echo === undefined) throw camaraErrors.invalidArgument("x-correlator is malformed.");
      const caller = await authenticateCaller(req, { path, scope, twoLegged });
      const parsed = body ? body(await readJsonBody(req)) : (undefined as B);
      res = camaraJson(await handle({ req, caller, body: parsed, requestId }), 200);
    } catch (err) {
      res = camaraErrorResponse(err, requestId, name);
    }
    if (echo !== undefined) res.headers.set("x-correlator", echo);
    res.headers.set("X-Request-Id", requestId);
    return withTransportHeaders(res);
  };
}

function camaraJson(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new TextBodyResponse(JSON.stringify(body), { status, headers: {
    "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers } });
}

/** Any failure as a CAMARA error body (never a stack trace). */
export function camaraErrorResponse(err: unknown, requestId: string, name: string): Response {
  if (err instanceof CamaraError) return camaraJson(err.toJSON(), err.status, err.headers);
  if (err instanceof OAuthError && err.status === 413) {
    return camaraJson(new CamaraError(413, "INVALID_ARGUMENT", "The request body is too large.").toJSON(), 413);
  }
  if (isDatabaseUnavailable(err)) {
    logDatabaseUnavailable(err, requestId);
    const e = camaraErrors.unavailable(RETRY_AFTER_SECONDS);
    return camaraJson(e.toJSON(), e.status, e.headers);
  }
  logger.error({ requestId, err, endpoint: name }, "unhandled error");
  return camaraJson(camaraErrors.internal().toJSON(), 500);
}

/**
 * The caller behind the Authorization header: an access token of ours (three-legged: AccessToken with its
 * subscriber; two-legged: a client_credentials token, when the operation allows it), active, sender-constrained
 * as issued (DPoP), carrying `scope` and exactly one purpose. 401 UNAUTHENTICATED for a missing, unknown, expired or
 * revoked token (or its subscriber no longer active); 403 PERMISSION_DENIED for a token without the scope.
 */
async function authenticateCaller(req: Request, { path, scope, twoLegged }: {
  path: string; scope: NetworkApiScope; twoLegged: boolean;
}): Promise<ApiCaller> {
  const presented = authorizationToken(req.headers.get("authorization"));
  if (!presented || presented === "malformed") throw camaraErrors.unauthenticated();
  const found = await findAccessTokenWithSubscriber({ token: presented.token });
  let caller: ApiCaller;
  if (found) {
    if (!isAccessTokenActive(found.token, new Date())) throw camaraErrors.unauthenticated();
    await bound(req, found.token, presented, path);
    if (!found.subscriber || found.subscriber.status !== "active") throw camaraErrors.unauthenticated();
    caller = callerOf(found.token.clientId, found.token.scope, found.subscriber, found.token);
  } else {
    const client = await findClientAccessToken({ token: presented.token });
    if (!client || client.revokedAt || client.expiresAt.getTime() <= Date.now()) throw camaraErrors.unauthenticated();
    await bound(req, client, presented, path);
    caller = callerOf(client.clientId, client.scope, null, null);
    if (!twoLegged && caller.scopes.includes(scope)) {
      throw camaraErrors.permissionDenied("This operation needs a three-legged access token (the subscriber's).");
    }
  }
  if (!caller.scopes.includes(scope) || !caller.purpose) throw camaraErrors.permissionDenied();
  return caller;
}

function callerOf(clientId: string, scope: string, subscriber: Subscriber | null, token: AccessToken | null): ApiCaller {
  const scopes = parseScope(scope);
  const { purposes } = splitNetworkApiScopes(scopes);
  return { clientId, scopes, purpose: purposes.length === 1 ? purposes[0]! : "", subscriber, token };
}

async function bound(req: Request, row: { dpopJkt: string | null }, presented: { token: string; scheme: "bearer" | "dpop" },
  path: string) {
  try {
    await checkTokenBinding({ req, row, token: presented.token, scheme: presented.scheme, path });
  } catch (err) {
    if (err instanceof OAuthError) {
      throw camaraErrors.unauthenticated(err.description, err.headers["WWW-Authenticate"]);
    }
    throw err;
  }
}

/** The POST body as a JSON object: 415 for another media type, 400 INVALID_ARGUMENT for anything not an object. */
async function readJsonBody(req: Request): Promise<Record<string, unknown>> {
  if (mediaType(req) !== "application/json") throw camaraErrors.unsupportedMediaType();
  let value: unknown;
  try {
    value = JSON.parse(await readBodyText(req));
  } catch (err) {
    if (err instanceof SyntaxError) throw camaraErrors.invalidArgument("The request body is not valid JSON.");
    throw err;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw camaraErrors.invalidArgument("The request body must be a JSON object.");
  }
  return value as Record<string, unknown>;
}

/** E.164 with `+` as CAMARA writes it (`^\+[1-9][0-9]{4,14}$`). */
export const CAMARA_PHONE_NUMBER = /^\+[1-9][0-9]{4,14}$/;

/**
 * The subscriber number an operation is about (CAMARA API Design Guide, "Identifying the device / phone number
 * from the access token"): with a three-legged token, the token's subscriber; an explicit `phoneNumber` that
 * differs is 403 INVALID_TOKEN_CONTEXT (the same number is accepted). With a two-legged token the body must name
 * it: none is 422 MISSING_IDENTIFIER. Returns E.164 digits without `+` (our MSISDN form).
 */
export function subjectNumber(caller: ApiCaller, phoneNumber: unknown): string {
  if (phoneNumber !== undefined && (typeof phoneNumber !== "string" || !CAMARA_PHONE_NUMBER.test(phoneNumber))) {
    throw camaraErrors.invalidArgument("phoneNumber must be an E.164 number with a leading +.");
  }
  const explicit = phoneNumber === undefined ? undefined : (phoneNumber as string).slice(1);
  if (caller.subscriber) {
    if (explicit !== undefined && explicit !== caller.subscriber.msisdn) throw camaraErrors.invalidTokenContext();
    return caller.subscriber.msisdn;
  }
  if (explicit === undefined) throw camaraErrors.missingIdentifier();
  return explicit;
}
