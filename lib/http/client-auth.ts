import { decodeJwt } from "jose";
import { ClientAuthThrottled, InvalidClient, InvalidRequest, OAuthError } from "../oauth/errors";
import { knownClientAuthThrottle, recordClientAuthFailure, reserveClientAuthAttempt } from "../security/throttle-client-auth";
import { isSecretMarkedVerified, markSecretVerified } from "../security/verified-client-secret";
import { getClient, type RegisteredClient } from "../clients/get-client";
import { sha256, verifySecret } from "../crypto";
import { ClientJwtError, verifyClientJwt } from "../clients/verify-client-jwt";
import { reserveJwtId } from "../security/replay-cache";
import { config } from "../config";
import { clientIp } from "./client-ip";
import { PATHS } from "./endpoints";
import { issuerBase } from "./issuer-base";
import type { Params } from "./params";

/** RFC 7523 §2.2: the one `client_assertion_type` accepted (private_key_jwt, OpenID Connect Core §9). */
export const JWT_BEARER_CLIENT_ASSERTION = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

export interface PresentedCredentials {
  clientId: string;
  clientSecret?: string;
  /** The `client_assertion` (a JWT) for private_key_jwt. */
  assertion?: string;
  method: "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "none";
}

function invalidClient(description: string) {
  const err = new InvalidClient(description);
  const quoted = description.replace(/["\\]/g, "'").replace(/[^\x20-\x7e]/g, "?");
  err.headers["WWW-Authenticate"] = `Basic realm="token", error="invalid_client", error_description="${quoted}"`;
  return err;
}

/** Parses `Basic base64(id:secret)`; id and secret are form-encoded per RFC 6749 §2.3.1. */
function parseBasic(value: string): { id: string; secret: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(value);
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
  const i = decoded.indexOf(":");
  if (i < 0) return null;
  try {
    const dec = (s: string) => decodeURIComponent(s.replace(/\+/g, " "));
    return { id: dec(decoded.slice(0, i)), secret: dec(decoded.slice(i + 1)) };
  } catch {
    return null;
  }
}

/**
 * Reads client credentials from, in order: the interface's `Authentication: Basic` header, the
 * standard `Authorization: Basic` header, or `client_id`/`client_secret` in the body. Credentials
 * repeated in the body beside a header must agree with it.
 */
export function presentedCredentials(headers: Headers, params: Params): PresentedCredentials | null {
  const header = [headers.get("authentication"), headers.get("authorization")].find((h) => h && /^Basic\s/i.test(h));
  const bodyId = params.get("client_id");
  const bodySecret = params.get("client_secret");
  if (params.get("client_assertion") !== undefined || params.get("client_assertion_type") !== undefined) {
    return presentedAssertion({ params, header, bodyId, bodySecret });
  }
  if (header) {
    const basic = parseBasic(header);
    if (!basic) throw invalidClient("malformed Basic credentials");
    if ((bodyId !== undefined && bodyId !== basic.id) || (bodySecret !== undefined && bodySecret !== basic.secret)) {
      throw invalidClient("client credentials in the body disagree with the Authorization header");
    }
    return { clientId: basic.id, clientSecret: basic.secret, method: "client_secret_basic" };
  }
  if (bodyId !== undefined && bodySecret !== undefined) {
    return { clientId: bodyId, clientSecret: bodySecret, method: "client_secret_post" };
  }
  if (bodyId !== undefined) return { clientId: bodyId, method: "none" };
  return null;
}

/**
 * private_key_jwt (RFC 7523 §2.2, §3): `client_assertion_type` + `client_assertion`, and `client_id` only if it
 * names the assertion's issuer. One method per request (RFC 6749 §2.3): a Basic header or a client_secret
 * beside an assertion is `invalid_request`. The assertion's `iss` and `sub` name the client (read here
 * without verification, to find its keys; checkAssertion verifies them).
 */
function presentedAssertion({ params, header, bodyId, bodySecret }: {
  params: Params; header: string | null | undefined; bodyId?: string; bodySecret?: string;
}): PresentedCredentials {
  if (header || bodySecret !== undefined) {
    throw new InvalidRequest("the client authenticated with more than one method: send either client_assertion "
      + `or ${header ? "a Basic Authorization header" : "client_secret"}, not both (RFC 6749 section 2.3)`);
  }
  const type = params.get("client_assertion_type");
  const assertion = params.get("client_assertion");
  if (type !== JWT_BEARER_CLIENT_ASSERTION) throw invalidClient(`client_assertion_type must be ${JWT_BEARER_CLIENT_ASSERTION}`);
  if (!assertion) throw invalidClient("client_assertion is missing");
  let claims: { iss?: unknown; sub?: unknown };
  try {
    claims = decodeJwt(assertion);
  } catch {
    throw invalidClient("client_assertion is not a JWT");
  }
  if (typeof claims.iss !== "string" || !claims.iss || claims.sub !== claims.iss) {
    throw invalidClient("client_assertion: iss and sub must both be the client_id");
  }
  if (bodyId !== undefined && bodyId !== claims.iss) throw invalidClient("client_id does not match the client_assertion's iss and sub");
  return { clientId: claims.iss, assertion, method: "private_key_jwt" };
}

/** An endpoint where clients authenticate, by its name in the endpoint registry (lib/http/endpoints.ts). */
export type ClientAuthEndpoint = keyof typeof PATHS;

/**
 * Authenticates the client of a request (RFC 6749 §2.3). Confidential clients need a secret,
 * compared in constant time against its scrypt hash; public clients may present only client_id.
 * Any failure is `401 invalid_client` with a WWW-Authenticate header. Failures are counted per
 * (client_id, address) and per address (lib/security/throttle-client-auth.ts); an scrypt check is
 * reserved as a failure in both BEFORE it runs and given back when the secret is right. While either is
 * over its limit, the right secret still passes if it verifies without an scrypt (this process's
 * cache, or its mark: lib/security/verified-client-secret.ts); anything else gets 429
 * `invalid_client` with Retry-After and costs no scrypt. A success whose secret is in the verified
 * cache runs no database statement beyond the (cached) client lookup.
 *
 * A client registered for private_key_jwt authenticates only with a signed client_assertion (checkAssertion)
 * and is refused any secret; a client registered for a secret (or with no method: the default) is refused
 * assertions. `endpoint` is the endpoint serving the request: its URL is, with the issuer, an accepted `aud`.
 * A failed assertion counts against the same throttle as a wrong secret.
 */
export async function authenticateClient({ headers, params, endpoint }: {
  headers: Headers; params: Params; endpoint: ClientAuthEndpoint;
}): Promise<RegisteredClient> {
  const ip = clientIp(headers);
  let clientId: string | undefined;
  try {
    const creds = presentedCredentials(headers, params);
    if (!creds) throw invalidClient("client authentication is required");
    clientId = creds.clientId.slice(0, 200);
    return await checkCredentials(creds, { clientId, ip }, endpoint);
  } catch (err) {
    if (!(err instanceof OAuthError) || err.error !== "invalid_client" || err instanceof ClientAuthThrottled) throw err;
    if (counted.has(err)) throw err;
    throw (await recordClientAuthFailure({ clientId, ip })) ?? err;
  }
}

async function checkCredentials(creds: PresentedCredentials, who: { clientId: string; ip: string },
  endpoint: ClientAuthEndpoint): Promise<RegisteredClient> {
  const client = await getClient({ clientId: creds.clientId });
  if (!client || !client.active) {
    if (creds.clientSecret) {
      const reservation = await reserveAttempt(who);
      if ("throttle" in reservation) throw reservation.throttle;
      await verifySecret(creds.clientSecret, DUMMY_HASH); // same cost as a real check
      await reservation.attempt.failed();
      throw countedFailure(invalidClient("client authentication failed"));
    }
    throw invalidClient("client authentication failed");
  }
  if (creds.assertion !== undefined) return checkAssertion(client, creds.assertion, endpoint);
  if (client.authMethod === "private_key_jwt") {
    throw invalidClient("this client authenticates with private_key_jwt (a signed client_assertion): secrets are not accepted");
  }
  if (client.isPublic && !client.secretHash) {
    if (creds.method !== "none") throw invalidClient("public clients do not have a secret");
    return client;
  }
  if (!creds.clientSecret || !client.secretHash) throw invalidClient("client authentication failed");
  if (isVerifiedCached(creds.clientSecret, client.secretHash)) return client;
  const secret = { clientId: client.id, secretHash: client.secretHash, secret: creds.clientSecret };
  // The scrypt is reserved first. Someone's failures throttle this pair or address: no scrypt, but a marked secret
  // still passes.
  const reservation = await reserveAttempt(who);
  if ("throttle" in reservation) {
    if (!(await isSecretMarkedVerified(secret))) throw reservation.throttle;
    rememberVerified(creds.clientSecret, client.secretHash);
    return client;
  }
  if (!(await verifySecret(creds.clientSecret, client.secretHash))) {
    await reservation.attempt.failed();
    throw countedFailure(invalidClient("client authentication failed"));
  }
  await reservation.attempt.succeeded();
  rememberVerified(creds.clientSecret, client.secretHash);
  await markSecretVerified(secret);
  return client;
}

/** This process's memory of a throttle first (no I/O), else a reservation in the database. */
async function reserveAttempt(who: { clientId: string; ip: string }) {
  const known = knownClientAuthThrottle(who);
  return known ? { throttle: known } : reserveClientAuthAttempt(who);
}

/** Failures already counted by their reservation, which authenticateClient must not count again. */
const counted = new WeakSet<Error>();
function countedFailure(err: OAuthError): OAuthError {
  counted.add(err);
  return err;
}

/** At most this many seconds between the assertion's iat and exp (and, without iat, from now to exp). */
export const MAX_ASSERTION_LIFETIME_SECONDS = 300;
const TOLERANCE_SECONDS = 30;

/**
 * Verifies a private_key_jwt client assertion (OpenID Connect Core §9, RFC 7523 §3): signed RS256, PS256 or
 * ES256 by a registered key (never none, never HMAC: lib/clients/verify-client-jwt.ts); iss = sub = client_id;
 * aud the issuer or this endpoint's URL; exp required, exp - iat at most 300 s; jti required and used once
 * (the database replay cache, reserved last so that only a valid assertion consumes its jti).
 */
async function checkAssertion(client: RegisteredClient, assertion: string, endpoint: ClientAuthEndpoint):
  Promise<RegisteredClient> {
  if (client.authMethod !== "private_key_jwt") {
    throw invalidClient(client.isPublic ? "public clients do not authenticate: send client_id only"
      : "this client is registered for a client secret: client assertions are not accepted");
  }
  const issuer = config().ISSUER;
  let payload;
  try {
    ({ payload } = await verifyClientJwt(client, assertion, {
      audience: [issuer, `${issuerBase(issuer)}${PATHS[endpoint]}`], requiredClaims: ["exp", "jti"], assertion: true,
      clockTolerance: TOLERANCE_SECONDS,
    }));
  } catch (err) {
    if (err instanceof ClientJwtError) throw invalidClient(`client_assertion: ${err.message}`);
    throw err;
  }
  const { iss, sub, exp, iat, jti } = payload;
  if (iss !== client.id || sub !== client.id) throw invalidClient("client_assertion: iss and sub must both be the client_id");
  const now = Date.now() / 1000;
  if (typeof iat === "number" && iat > now + TOLERANCE_SECONDS) throw invalidClient("client_assertion: iat is in the future");
  if (exp! - (typeof iat === "number" ? iat : now) > MAX_ASSERTION_LIFETIME_SECONDS) {
    throw invalidClient(`client_assertion: exp must be at most ${MAX_ASSERTION_LIFETIME_SECONDS} seconds after iat `
      + "(after now when there is no iat)");
  }
  if (typeof jti !== "string" || jti.length === 0 || jti.length > 512) throw invalidClient("client_assertion: jti must be a string");
  const fresh = await reserveJwtId({ kind: "client_assertion", issuer: client.id, jti,
    expiresAt: new Date((exp! + TOLERANCE_SECONDS) * 1000) });
  if (!fresh) throw invalidClient("client_assertion: its jti was used before (an assertion is single use)");
  return client;
}

const DUMMY_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

/**
 * scrypt costs ~50 ms by design; a client presents the same secret on every token request, so a
 * successful (secret, hash) pair is remembered in memory as a SHA-256 digest (never the secret)
 * for a short time. A rotated secret changes the hash and so misses the cache.
 */
const verified = new Map<string, number>();
const VERIFIED_MS = 5 * 60_000;
const cacheKey = (secret: string, hash: string) => sha256(`${hash}\n${secret}`);

function isVerifiedCached(secret: string, hash: string): boolean {
  const at = verified.get(cacheKey(secret, hash));
  return at !== undefined && Date.now() - at < VERIFIED_MS;
}

function rememberVerified(secret: string, hash: string) {
  verified.set(cacheKey(secret, hash), Date.now());
  if (verified.size > 10_000) verified.delete(verified.keys().next().value!);
}
