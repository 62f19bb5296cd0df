import type { JWTPayload } from "jose";
import type { RegisteredClient } from "../../clients/get-client";
import { ClientJwtError, verifyClientJwt } from "../../clients/verify-client-jwt";
import { config } from "../../config";
import { toParams, type Params } from "../../http/params";
import { REQUEST_OBJECT_MAX_LIFETIME } from "../../oauth/authorize/request-object";
import { InvalidRequest } from "../../oauth/errors";
import { reserveJwtId } from "../../security/replay-cache";

const TOLERANCE = 30;
/** The request's JWT claims, not authentication request parameters. */
const JWT_CLAIMS = new Set(["iss", "aud", "exp", "nbf", "iat", "jti", "sub"]);
/** `typ`, when present: a request object's (RFC 9101 §4) or plain JWT, as at /authorize. */
const TYPES = new Set(["oauth-authz-req+jwt", "application/oauth-authz-req+jwt", "jwt", "application/jwt"]);
/** The parameters a client authenticates with: they stay in the body beside a signed request (CIBA Core §7.1.1). */
const CLIENT_AUTH_PARAMS = ["client_id", "client_secret", "client_assertion", "client_assertion_type"];

const refuse = (why: string) => new InvalidRequest(`the signed authentication request was refused: ${why}`);

/**
 * A signed authentication request (CIBA Core §7.1.1): the `request` parameter is a JWT the client signed with one of
 * its registered keys (RS256, PS256, ES256: never `none`, never HMAC, lib/clients/verify-client-jwt.ts); `aud` our
 * issuer, `iss` the client_id, `exp`, `iat`, `nbf` and `jti` required; it lives at most
 * REQUEST_OBJECT_MAX_LIFETIME (60 minutes, as request objects at /authorize: `exp` − `iat` and `exp` − `nbf`) and its
 * `jti` is single use for every instance (the replay cache, kind `backchannel_request`, until `exp` + tolerance).
 * A client registered with `backchannel_authentication_request_signing_alg` must sign, with that algorithm.
 * Every refusal is `invalid_request`. Returns the parameters of the request: the JWT's claims only (numbers as text),
 * with the client authentication parameters of the body.
 */
export async function backchannelRequestParams({ client, params }: { client: RegisteredClient; params: Params }):
  Promise<Params> {
  const jwt = params.get("request");
  const required = client.backchannelAuthRequestSigningAlg;
  if (jwt === undefined || jwt === "") {
    if (required) throw new InvalidRequest(`this client's authentication requests must be signed (${required}): send request`);
    return params;
  }
  let payload: JWTPayload;
  try {
    const verified = await verifyClientJwt(client, jwt, { audience: config().ISSUER, clockTolerance: TOLERANCE,
      requiredClaims: ["iss", "aud", "exp", "iat", "nbf", "jti"] });
    if (required && verified.protectedHeader.alg !== required) {
      throw new ClientJwtError(`it must be signed with ${required}`);
    }
    const typ: unknown = verified.protectedHeader.typ;
    if (typ !== undefined && (typeof typ !== "string" || !TYPES.has(typ.toLowerCase()))) {
      throw new ClientJwtError("the typ header is not a request object's (oauth-authz-req+jwt or JWT)");
    }
    payload = verified.payload;
  } catch (err) {
    if (err instanceof ClientJwtError) throw refuse(err.message);
    throw err;
  }
  const { iss, exp, iat, nbf, jti } = payload;
  if (iss !== client.id) throw refuse("iss must be the client_id");
  if (payload.client_id !== undefined && payload.client_id !== client.id) throw refuse("client_id is not this client's");
  if ("request" in payload || "request_uri" in payload) throw refuse("it must not contain request or request_uri");
  const now = Math.floor(Date.now() / 1000);
  // jose has checked that exp, iat and nbf are numbers, exp not passed, nbf not ahead.
  if (exp! > now + REQUEST_OBJECT_MAX_LIFETIME + TOLERANCE || exp! - iat! > REQUEST_OBJECT_MAX_LIFETIME
    || exp! - nbf! > REQUEST_OBJECT_MAX_LIFETIME) {
    throw refuse(`it must live at most ${REQUEST_OBJECT_MAX_LIFETIME} seconds (exp - iat, exp - nbf)`);
  }
  if (iat! > now + TOLERANCE) throw refuse("iat is in the future");
  if (typeof jti !== "string" || !jti || jti.length > 256) throw refuse("jti must be a non-empty string");
  // Last, so that only a valid request consumes its jti; one INSERT decides between parallel presentations.
  if (!(await reserveJwtId({ kind: "backchannel_request", issuer: client.id, jti,
    expiresAt: new Date((exp! + TOLERANCE) * 1000) }))) {
    throw refuse("its jti was used before (a signed request is single use)");
  }
  const pairs: Array<[string, string]> = [];
  for (const name of CLIENT_AUTH_PARAMS) {
    const value = params.get(name);
    if (value !== undefined) pairs.push([name, value]);
  }
  for (const [name, value] of Object.entries(payload)) {
    if (JWT_CLAIMS.has(name) || CLIENT_AUTH_PARAMS.includes(name) || value === null || value === undefined) continue;
    pairs.push([name, typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value)]);
  }
  return toParams(pairs); // the same length rules as a form
}
