import { createLocalJWKSet, createRemoteJWKSet, type JWSHeaderParameters, type FlattenedJWSInput } from "jose";
import type { RegisteredClient } from "./get-client";

type KeyResolver = (header: JWSHeaderParameters, token: FlattenedJWSInput) => Promise<CryptoKey>;

/**
 * The key that verifies a JWS from a client (a client assertion, a request object, a JWT-bearer
 * assertion): from its registered `jwks`, or from its `jwks_uri`. Throws (jose's JWKSNoMatchingKey and
 * friends) when none matches. Resolvers are kept per client and per registered value, so a changed
 * registration starts afresh.
 */
export async function clientVerificationKey(client: RegisteredClient, header: JWSHeaderParameters, token: FlattenedJWSInput) {
  return resolverFor(client)(header, token);
}

/** True when the client has registered public keys (by value or by reference). */
export function hasClientKeys(client: RegisteredClient): boolean {
  return client.jwks !== null || client.jwksUri !== null;
}

const resolvers = new Map<string, { source: string; resolve: KeyResolver }>();

function resolverFor(client: RegisteredClient): KeyResolver {
  const source = client.jwks ? JSON.stringify(client.jwks) : (client.jwksUri ?? "");
  const hit = resolvers.get(client.id);
  if (hit && hit.source === source) return hit.resolve;
  const resolve: KeyResolver = client.jwks
    ? createLocalJWKSet(client.jwks)
    : client.jwksUri
      ? createRemoteJWKSet(new URL(client.jwksUri), { timeoutDuration: 5_000, cooldownDuration: 30_000, cacheMaxAge: 600_000 })
      : () => Promise.reject(new Error("the client has no registered keys"));
  resolvers.set(client.id, { source, resolve });
  if (resolvers.size > 10_000) resolvers.delete(resolvers.keys().next().value!);
  return resolve;
}
