import { decodeProtectedHeader, jwtVerify, errors, type JWTPayload, type JWTHeaderParameters } from "jose";
import type { RegisteredClient } from "./get-client";
import { clientVerificationKey, hasClientKeys, JwksUriError } from "./client-keys";
import { CLIENT_KEY_ALGS } from "./client-security";
import { unsealClientSecret } from "./seal-client-secret";

/** Why a client's JWT was refused; callers map it to their endpoint's error code. */
export class ClientJwtError extends Error {}

export interface ClientJwtRules {
  /** Accepted `aud` values (any one of them must be in the token's `aud`). */
  audience: string | string[];
  /** Required `typ` header, if any (e.g. `oauth-authz-req+jwt` may be required by policy). */
  typ?: string;
  /** HS256 keyed by the client secret (OpenID Connect Core §6.1, request objects only). */
  allowHmac?: boolean;
  /** Refuse tokens whose `exp` − `iat` exceeds this (seconds); both claims are then required. */
  maxLifetimeSeconds?: number;
  /** Claims that must be present. */
  requiredClaims?: string[];
  /** Clock tolerance, seconds (default 30). */
  clockTolerance?: number;
  /**
   * An assertion (private_key_jwt, the JWT-bearer grant): `aud` must be one value, not an array of several
   * (the 2025 audience-injection advisory: an assertion a client made for another server that lists our
   * URL among others is refused), and `typ`, when present, `JWT` or `client-authentication+jwt`, so that
   * a request object or a DPoP proof the client signed cannot be replayed as its credentials.
   */
  assertion?: boolean;
}

const ASSERTION_TYPES = new Set(["jwt", "client-authentication+jwt", "application/client-authentication+jwt"]);

/**
 * Verifies a JWT signed by a client: with one of its registered public keys for RS256, PS256 or ES256,
 * or, where allowed, HS256 keyed by its (sealed) secret. Never `none`, never an HMAC keyed by a public
 * key (the algorithm picks the key type, and only registered keys are used). Checks signature, `aud`,
 * `exp`/`nbf` (with a small tolerance) and the lifetime rule; `iss`/`sub`/`jti` rules are the caller's.
 */
export async function verifyClientJwt(client: RegisteredClient, jwt: string, rules: ClientJwtRules):
  Promise<{ payload: JWTPayload; protectedHeader: JWTHeaderParameters }> {
  let alg: string | undefined;
  try {
    alg = decodeProtectedHeader(jwt).alg;
  } catch {
    throw new ClientJwtError("the JWT is malformed");
  }
  const tolerance = rules.clockTolerance ?? 30;
  const options = {
    audience: rules.audience, typ: rules.typ, clockTolerance: tolerance, requiredClaims: rules.requiredClaims,
  };
  let result: { payload: JWTPayload; protectedHeader: JWTHeaderParameters };
  try {
    if (alg === "HS256") {
      const secret = rules.allowHmac && client.authMethod !== "private_key_jwt" ? unsealClientSecret(client.secretSealed) : null;
      if (!secret) throw new ClientJwtError("HS256 is not accepted for this client");
      result = await jwtVerify(jwt, new TextEncoder().encode(secret), { ...options, algorithms: ["HS256"] });
    } else if (alg && (CLIENT_KEY_ALGS as readonly string[]).includes(alg)) {
      if (!hasClientKeys(client)) throw new ClientJwtError("the client has no registered public keys");
      result = await jwtVerify(jwt, (header, token) => clientVerificationKey(client, header, token),
        { ...options, algorithms: [...CLIENT_KEY_ALGS] });
    } else {
      throw new ClientJwtError(`the signing algorithm ${String(alg)} is not accepted`);
    }
  } catch (err) {
    if (err instanceof ClientJwtError) throw err;
    throw new ClientJwtError(describe(err));
  }
  if (rules.assertion) {
    const { typ } = result.protectedHeader;
    if (typ !== undefined && (typeof typ !== "string" || !ASSERTION_TYPES.has(typ.toLowerCase()))) {
      throw new ClientJwtError(`a JWT of type ${String(typ).slice(0, 40)} is not an assertion`);
    }
    const { aud } = result.payload;
    if (Array.isArray(aud) && aud.length !== 1) throw new ClientJwtError("the JWT's aud must be a single value");
  }
  const { iat, exp } = result.payload;
  if (rules.maxLifetimeSeconds !== undefined) {
    if (typeof iat !== "number" || typeof exp !== "number") throw new ClientJwtError("the JWT must have iat and exp");
    if (exp - iat > rules.maxLifetimeSeconds) {
      throw new ClientJwtError(`the JWT lives longer than ${rules.maxLifetimeSeconds} seconds (exp - iat)`);
    }
    if (iat > Date.now() / 1000 + tolerance) throw new ClientJwtError("the JWT is issued in the future");
  }
  return result;
}

function describe(err: unknown): string {
  if (err instanceof JwksUriError) return err.message;
  if (err instanceof errors.JWTExpired) return "the JWT has expired";
  if (err instanceof errors.JWTClaimValidationFailed) return `the JWT's ${err.claim} claim is not valid`;
  if (err instanceof errors.JWSSignatureVerificationFailed) return "the JWT's signature does not verify";
  if (err instanceof errors.JWKSNoMatchingKey) return "no registered key of the client matches the JWT";
  if (err instanceof errors.JOSEAlgNotAllowed) return "the JWT's algorithm is not accepted";
  if (err instanceof errors.JWKSTimeout) return "the client's jwks_uri did not answer in time";
  if (err instanceof errors.JWTInvalid || err instanceof errors.JWSInvalid) return "the JWT is malformed";
  return "the JWT could not be verified";
}
