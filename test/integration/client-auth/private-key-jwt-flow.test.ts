import { describe, inject, it } from "vitest";
import { fullFlow, registerKeyClient, testKey } from "./support";

/**
 * oauth4webapi with `PrivateKeyJwt(key)` (its client_assertion: aud = the issuer, exp = iat + 60, a fresh jti)
 * through a whole flow over HTTP: discovery, the authorization request, the subscriber's sign-in and consent on
 * our screens (no browser: test/support/browserless.ts), the code grant, userinfo, premium info, a refresh,
 * introspection and revocation, each client-authenticated endpoint with a new assertion.
 */
describe("private_key_jwt with oauth4webapi: the whole flow (keys registered by value)", () => {
  const baseUrl = inject("baseUrl");

  it.each(["ES256", "PS256"] as const)("%s: sign-in, token, userinfo, premium info, refresh, introspection, revocation",
    async (alg) => {
      const key = await testKey(alg);
      const rp = await registerKeyClient({ jwks: [key, await testKey("ES256")] });
      await fullFlow(baseUrl, rp, key);
    });
});
