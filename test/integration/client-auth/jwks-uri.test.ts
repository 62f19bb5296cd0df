import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startServer, type RunningServer } from "../../support/server";
import { ASSERTION_TYPE, assertion, fullFlow, post, registerKeyClient, startJwksServer, testKey } from "./support";

/**
 * Clients whose keys are at a jwks_uri, served by a relying party's key server on 127.0.0.1. The shared test
 * server refuses loopback addresses (production rules: assertion-rules.test.ts); this one runs on the same
 * database with ALLOW_LOOPBACK_CLIENT_URLS=true (development and tests), and a low client-authentication
 * failure limit (3 per client and address) to show that failed assertions count like wrong secrets.
 */
let server: RunningServer;
let jwks: Awaited<ReturnType<typeof startJwksServer>>;

beforeAll(async () => {
  jwks = await startJwksServer();
  server = await startServer({ name: "pkjwt-uri", databaseUrl: inject("databaseUrl"),
    env: { ALLOW_LOOPBACK_CLIENT_URLS: "true", CLIENT_AUTH_FAILURE_LIMIT: "3" } });
});
afterAll(async () => {
  await server?.stop();
  await jwks?.close();
});

const introspect = () => `${server.baseUrl}/introspect`;
const form = (jwt: string) => ({ token: "unknown", client_assertion_type: ASSERTION_TYPE, client_assertion: jwt });

async function refused(jwt: string, description: RegExp) {
  const res = await post(introspect(), form(jwt));
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ error: "invalid_client" });
  expect(res.status).toBe(401);
  expect(String(res.body.error_description)).toMatch(description);
}

describe("private_key_jwt with keys at a jwks_uri", () => {
  it("RS256 and ES256 keys fetched once (max-age honoured): the whole flow with oauth4webapi", async () => {
    const key = await testKey("RS256");
    jwks.state.keys = [key.jwk, (await testKey("ES256")).jwk];
    const rp = await registerKeyClient({ jwksUri: `${jwks.base}/jwks/flow` });
    await fullFlow(server.baseUrl, rp, key);
    // Six client authentications, one fetch: the set is cached.
    expect(jwks.hits("/jwks/flow")).toBe(1);
  });

  it("an unknown kid right after a fetch does not fetch again (cooldown): attackers' kids cause no fetch loop", async () => {
    const key = await testKey("ES256");
    jwks.state.keys = [key.jwk];
    const rp = await registerKeyClient({ jwksUri: `${jwks.base}/jwks/kids` });
    expect((await post(introspect(), form(await assertion(key, rp.id, server.baseUrl)))).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      await refused(await assertion(key, rp.id, server.baseUrl, { header: { kid: `attacker-${i}` } }), /no registered key/);
    }
    expect(jwks.hits("/jwks/kids")).toBe(1);
  });

  it("a jwks_uri that never answers: invalid_client after the 5 s timeout, no 5xx", async () => {
    const key = await testKey("ES256");
    const rp = await registerKeyClient({ jwksUri: `${jwks.base}/slow` });
    const started = Date.now();
    await refused(await assertion(key, rp.id, server.baseUrl), /did not answer in time/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it("a jwks_uri that is too big, redirects or is not a JWK Set: invalid_client saying so", async () => {
    const key = await testKey("ES256");
    jwks.state.keys = [key.jwk];
    for (const [path, description] of [
      ["/big", /larger than 64 KiB/], ["/redirect", /redirects are not followed/], ["/missing", /HTTP 404/],
    ] as const) {
      const rp = await registerKeyClient({ jwksUri: `${jwks.base}${path}` });
      await refused(await assertion(key, rp.id, server.baseUrl), description);
    }
    expect(jwks.hits("/jwks")).toBe(0); // the redirect was not followed
  });

  it("failed assertions count against the client-authentication throttle like wrong secrets", async () => {
    const key = await testKey("ES256");
    const rp = await registerKeyClient({ jwks: [key] });
    const bad = () => assertion(key, rp.id, "https://other.example/");
    for (let i = 0; i < 3; i++) await refused(await bad(), /aud/);
    const throttled = await post(introspect(), form(await bad()));
    expect(throttled).toMatchObject({ status: 429, body: { error: "invalid_client" } });
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
    // As with secrets, the throttle does not refuse the rightful client: a valid assertion still passes.
    expect((await post(introspect(), form(await assertion(key, rp.id, server.baseUrl)))).status).toBe(200);
  });
});
