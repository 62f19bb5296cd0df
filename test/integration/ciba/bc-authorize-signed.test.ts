import { beforeAll, describe, expect, it } from "vitest";
import { SignJWT } from "jose";
import { randomToken, sha256 } from "@/lib/crypto";
import { db } from "@/lib/db";
import { createTestSubscriber, type Subscriber } from "../../support/authorize-support";
import { enrolledDevice } from "../../support/mobile-support";
import { assertion, ASSERTION_TYPE, post, registerKeyClient, testKey, type TestKey } from "../client-auth/support";
import { allowCiba, baseUrl } from "./bc-support";

/** Signed authentication requests at /bc-authorize (CIBA Core §7.1.1): verified, single use, required per client. */

let alice: Subscriber;
let key: TestKey;
let other: TestKey;
let client: { id: string };

beforeAll(async () => {
  alice = await createTestSubscriber();
  await enrolledDevice(alice);
  key = await testKey("ES256");
  other = await testKey("PS256");
  client = await registerKeyClient({ jwks: [key, other] });
  await allowCiba(client.id);
});

/** A signed request of `claims` (defaults: every required claim, a login_hint naming alice). */
async function signedRequest(signer: TestKey, clientId: string, over: Record<string, unknown> = {},
  header: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = { iss: clientId, aud: baseUrl, iat: now, nbf: now, exp: now + 300,
    jti: randomToken(12), scope: "openid", login_hint: `MSISDN:${alice.msisdn}`, binding_message: "Signed 1", ...over };
  for (const [k, v] of Object.entries(claims)) if (v === undefined) delete claims[k];
  return new SignJWT(claims as never).setProtectedHeader({ alg: signer.alg, kid: signer.kid, ...header } as never)
    .sign(signer.privateKey);
}

/** POST /bc-authorize authenticated with a fresh client assertion, `fields` in the body. */
async function send(fields: Record<string, string>, clientId = client.id, signer = key) {
  return post(`${baseUrl}/bc-authorize`, { ...fields, client_assertion_type: ASSERTION_TYPE,
    client_assertion: await assertion(signer, clientId, baseUrl) });
}

const expectInvalidRequest = (r: Awaited<ReturnType<typeof post>>) => {
  expect({ status: r.status, error: r.body.error }, JSON.stringify(r.body)).toEqual({ status: 400, error: "invalid_request" });
};

describe("a signed request", () => {
  it("is accepted; its parameters come from the JWT only (the body's are ignored)", async () => {
    const r = await send({ request: await signedRequest(key, client.id), login_hint: "MSISDN:447000000009",
      binding_message: "from the body" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const row = await db.backchannelRequest.findUniqueOrThrow({ where: { id: sha256(r.body.auth_req_id as string) } });
    expect(row).toMatchObject({ subscriberId: alice.id, bindingMessage: "Signed 1", scope: "openid" });
  });

  it("numbers in claims are read as text (requested_expiry)", async () => {
    const r = await send({ request: await signedRequest(key, client.id, { requested_expiry: 90 }) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.expires_in).toBe(90);
  });

  it("is single use: its replay is refused", async () => {
    const request = await signedRequest(key, client.id);
    expect((await send({ request })).status).toBe(200);
    expectInvalidRequest(await send({ request }));
  });

  it("50 parallel presentations of one jti: exactly one accepted", async () => {
    const request = await signedRequest(key, client.id);
    const answers = await Promise.all(Array.from({ length: 50 }, () => send({ request })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expectInvalidRequest(a);
  });

  it.each([
    ["without jti", { jti: undefined }],
    ["without exp", { exp: undefined }],
    ["without iat", { iat: undefined }],
    ["without nbf", { nbf: undefined }],
    ["expired", { exp: Math.floor(Date.now() / 1000) - 120 }],
    ["living longer than 60 minutes", { exp: Math.floor(Date.now() / 1000) + 3700 }],
    ["for another audience", { aud: "https://elsewhere.example" }],
    ["issued by someone else", { iss: "someone-else" }],
    ["with another client_id", { client_id: "someone-else" }],
    ["issued in the future", { iat: Math.floor(Date.now() / 1000) + 600, nbf: undefined }],
  ])("%s -> 400 invalid_request", async (_name, over) => {
    expectInvalidRequest(await send({ request: await signedRequest(key, client.id, over) }));
  });

  it("signed by a key that is not the client's -> 400 invalid_request", async () => {
    const stranger = await testKey("ES256");
    expectInvalidRequest(await send({ request: await signedRequest({ ...stranger, kid: key.kid }, client.id) }));
  });

  it("unsigned (alg none) -> 400 invalid_request", async () => {
    const now = Math.floor(Date.now() / 1000);
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const none = `${b64({ alg: "none" })}.${b64({ iss: client.id, aud: baseUrl, iat: now, nbf: now, exp: now + 60,
      jti: randomToken(8), scope: "openid", login_hint: alice.msisdn })}.`;
    expectInvalidRequest(await send({ request: none }));
  });

  it("its errors inside the JWT are the endpoint's (a bad binding message)", async () => {
    const r = await send({ request: await signedRequest(key, client.id, { binding_message: "x".repeat(65) }) });
    expect(r.body.error).toBe("invalid_binding_message");
  });
});

describe("a client registered with backchannel_authentication_request_signing_alg", () => {
  let strict: { id: string };
  beforeAll(async () => {
    strict = await registerKeyClient({ jwks: [key, other] });
    await allowCiba(strict.id, { signingAlg: "ES256" });
  });

  it("an unsigned request -> 400 invalid_request", async () => {
    expectInvalidRequest(await send({ scope: "openid", login_hint: alice.msisdn }, strict.id));
  });

  it("signed with another algorithm -> 400 invalid_request", async () => {
    expectInvalidRequest(await send({ request: await signedRequest(other, strict.id) }, strict.id));
  });

  it("signed with its algorithm -> 200", async () => {
    const r = await send({ request: await signedRequest(key, strict.id) }, strict.id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });
});
