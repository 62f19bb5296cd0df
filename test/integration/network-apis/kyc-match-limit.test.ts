import { beforeAll, describe, expect, it } from "vitest";
import { createTestSubscriber } from "@/test/support/fixtures";
import { callApi, createApiClient, declarePurpose, FRAUD, insertApiToken, insertClientApiToken, openApiErrors }
  from "@/test/support/camara-support";

/**
 * Regression (review of issue 21, S2): KYC Match calls are limited per (client, phone number)
 * (KYC_MATCH_LIMIT_PER_CLIENT_AND_NUMBER, default 10 per 24 hours; docs/kyc-match.md "Limits"), so scores cannot be
 * farmed call after call; over it 429 TOO_MANY_REQUESTS with Retry-After. The limit never locks out the innocent:
 * another client asking about the same number, or the same client asking about another number, is answered.
 */
const PATH = "/kyc-match/v0.3/match";
const SCOPE = `kyc-match:match ${FRAUD}`;
const LIMIT = 10;

const newClient = () => createApiClient({ scopes: ["kyc-match:match", FRAUD], grantTypes: ["authorization_code",
  "client_credentials"], clientCredentialsScopes: ["kyc-match:match", FRAUD] });

beforeAll(async () => {
  // The KYC files declare the same pair, maybe at the same moment: an upsert can lose that race once.
  await declarePurpose("kyc-match:match", FRAUD, "legitimate_interest")
    .catch(() => declarePurpose("kyc-match:match", FRAUD, "legitimate_interest"));
});

async function call(token: string, body: Record<string, unknown>) {
  const answer = await callApi(PATH, { token, body });
  return answer as typeof answer & { body: Record<string, unknown> };
}

function expectTooMany(answer: Awaited<ReturnType<typeof call>>) {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual({ status: 429, code: "TOO_MANY_REQUESTS", message: "Rate limit reached." });
  const retryAfter = Number(answer.headers?.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(24 * 60 * 60);
  expect(answer.headers?.get("cache-control")).toBe("no-store");
  // The published kyc-match.yaml (0.3.0) documents no 429 (CAMARA_common's generic one is answered anyway).
  expect(openApiErrors("kyc-match", "/match", "POST", answer)).toEqual([
    "status 429 is not documented for POST /match"]);
}

describe("KYC Match: calls per (client, number)", () => {
  it("answers the first calls, then 429 with Retry-After, for two- and three-legged tokens alike", async () => {
    const client = await newClient();
    const subscriber = await createTestSubscriber({ attributes: { givenName: "Maximiliana", familyName: "Roe" } });
    const twoLegged = await insertClientApiToken({ clientId: client.id, scope: SCOPE });
    const threeLegged = await insertApiToken({ clientId: client.id, subscriberId: subscriber.id, scope: SCOPE });
    for (let i = 1; i <= LIMIT; i++) {
      const res = await call(twoLegged, { phoneNumber: `+${subscriber.msisdn}`, givenName: `Maximilian${i}` });
      expect(res.status, `call ${i}`).toBe(200);
      expect(res.body.givenNameMatch).toBe("false");
    }
    expectTooMany(await call(twoLegged, { phoneNumber: `+${subscriber.msisdn}`, givenName: "Maximiliana" }));
    expectTooMany(await call(threeLegged, { givenName: "Maximiliana" }));

    // Not the innocent: another client about the same number, the same client about another number.
    const other = await newClient();
    const otherToken = await insertClientApiToken({ clientId: other.id, scope: SCOPE });
    const res = await call(otherToken, { phoneNumber: `+${subscriber.msisdn}`, givenName: "Maximiliana" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ givenNameMatch: "true" });
    const neighbour = await createTestSubscriber({ attributes: { givenName: "Ann" } });
    const near = await call(twoLegged, { phoneNumber: `+${neighbour.msisdn}`, givenName: "Ann" });
    expect(near.status).toBe(200);
    expect(near.body).toEqual({ givenNameMatch: "true" });
  });

  it("counts a number with no subscriber alike (404s, then the same 429)", async () => {
    const client = await newClient();
    const token = await insertClientApiToken({ clientId: client.id, scope: SCOPE });
    const unknown = `+99900${Math.floor(Math.random() * 1e7).toString().padStart(7, "0")}`;
    for (let i = 1; i <= LIMIT; i++) {
      const res = await call(token, { phoneNumber: unknown, givenName: "Alice" });
      expect(res.status, `call ${i}`).toBe(404);
    }
    expectTooMany(await call(token, { phoneNumber: unknown, givenName: "Alice" }));
  });

  it("bad requests are refused before counting", async () => {
    const client = await newClient();
    const subscriber = await createTestSubscriber();
    const token = await insertClientApiToken({ clientId: client.id, scope: SCOPE });
    for (let i = 0; i < LIMIT + 2; i++) {
      expect((await call(token, { phoneNumber: `+${subscriber.msisdn}`, givenName: 42 })).status).toBe(400);
    }
    expect((await call(token, { phoneNumber: `+${subscriber.msisdn}`, givenName: "x" })).status).toBe(200);
  });
});
