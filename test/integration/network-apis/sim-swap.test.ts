import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { sha256, uuidV7 } from "@/lib/crypto";
import {
  callApi, createApiClient, declarePurpose, FRAUD, insertApiToken, insertClientApiToken, openApiErrors,
} from "../../support/camara-support";
import type { ApiAnswer } from "../../support/openapi-validate";
import { createTestSubscriber } from "../../support/fixtures";

/**
 * The SIM Swap API (sim-swap.yaml 2.1.0; lib/network-apis/sim-swap, docs/sim-swap.md) over HTTP: tokens straight
 * in the database (the grants are sim-swap-flows.test.ts), SIM changes straight in SimSwapEvent; every answer is
 * validated against the published document.
 */
const CHECK = "/sim-swap/v2/check";
const RETRIEVE = "/sim-swap/v2/retrieve-date";
const HOUR = 3_600_000;

function valid(op: "/check" | "/retrieve-date", answer: ApiAnswer) {
  expect(openApiErrors("sim-swap", op, "POST", answer)).toEqual([]);
  return answer;
}

async function swapAt(msisdn: string, at: Date) {
  await db.simSwapEvent.create({ data: { id: uuidV7(), msisdn, swappedAt: at, source: "cli" } });
}

async function threeLegged(scope = `sim-swap:check sim-swap:retrieve-date ${FRAUD}`) {
  await declarePurpose("sim-swap:check");
  await declarePurpose("sim-swap:retrieve-date");
  const client = await createApiClient({ scopes: ["sim-swap:check", "sim-swap:retrieve-date", FRAUD] });
  const subscriber = await createTestSubscriber();
  const token = await insertApiToken({ clientId: client.id, subscriberId: subscriber.id, scope: `openid ${scope}`,
    amr: "otp sms" });
  return { client, subscriber, token };
}

async function twoLegged(scope = `sim-swap:check sim-swap:retrieve-date ${FRAUD}`) {
  const client = await createApiClient({ scopes: ["sim-swap:check", "sim-swap:retrieve-date", FRAUD],
    grantTypes: ["client_credentials"], clientCredentialsScopes: ["sim-swap:check", "sim-swap:retrieve-date", FRAUD] });
  return { client, token: await insertClientApiToken({ clientId: client.id, scope }) };
}

describe("POST /sim-swap/v2/check", () => {
  it("three-legged: swapped around the maxAge boundary (hours), default 240", async () => {
    const { subscriber, token } = await threeLegged();
    const none = valid("/check", await callApi(CHECK, { token, body: { maxAge: 240 } }));
    expect(none).toMatchObject({ status: 200, body: { swapped: false } });
    await swapAt(subscriber.msisdn, new Date(Date.now() - 24 * HOUR - 60_000)); // 24 h and a minute ago
    expect(valid("/check", await callApi(CHECK, { token, body: { maxAge: 24 } })).body).toEqual({ swapped: false });
    expect(valid("/check", await callApi(CHECK, { token, body: { maxAge: 25 } })).body).toEqual({ swapped: true });
    expect(valid("/check", await callApi(CHECK, { token, body: {} })).body).toEqual({ swapped: true }); // 240
    expect(valid("/check", await callApi(CHECK, { token, body: { maxAge: 1 } })).body).toEqual({ swapped: false });
    // the latest change counts: a new one 30 minutes ago
    await swapAt(subscriber.msisdn, new Date(Date.now() - HOUR / 2));
    expect(valid("/check", await callApi(CHECK, { token, body: { maxAge: 1 } })).body).toEqual({ swapped: true });
    expect(valid("/check", await callApi(CHECK, { token, body: { maxAge: 2400 } })).body).toEqual({ swapped: true });
  });

  it("an old change beyond the default 240 hours is not swapped", async () => {
    const { subscriber, token } = await threeLegged();
    await swapAt(subscriber.msisdn, new Date(Date.now() - 241 * HOUR));
    expect(valid("/check", await callApi(CHECK, { token, body: {} })).body).toEqual({ swapped: false });
    expect(valid("/check", await callApi(CHECK, { token, body: { maxAge: 242 } })).body).toEqual({ swapped: true });
  });

  it("maxAge out of range: 400 OUT_OF_RANGE; not an integer: 400 INVALID_ARGUMENT", async () => {
    const { token } = await threeLegged();
    for (const maxAge of [0, -1, 2401, 100000]) {
      const a = valid("/check", await callApi(CHECK, { token, body: { maxAge } }));
      expect(a, String(maxAge)).toMatchObject({ status: 400, body: { status: 400, code: "OUT_OF_RANGE" } });
    }
    for (const maxAge of [1.5, "24", null, true]) {
      const a = valid("/check", await callApi(CHECK, { token, body: { maxAge } }));
      expect(a, String(maxAge)).toMatchObject({ status: 400, body: { code: "INVALID_ARGUMENT" } });
    }
    const notJson = valid("/check", await callApi(CHECK, { token, body: "{maxAge:" }));
    expect(notJson).toMatchObject({ status: 400, body: { code: "INVALID_ARGUMENT" } });
  });

  it("three-legged with a phoneNumber: 422 UNNECESSARY_IDENTIFIER (the definition's rule, even the same number)", async () => {
    const { subscriber, token } = await threeLegged();
    for (const phoneNumber of [`+${subscriber.msisdn}`, "+447700900000"]) {
      const a = valid("/check", await callApi(CHECK, { token, body: { phoneNumber, maxAge: 24 } }));
      expect(a).toMatchObject({ status: 422, body: { status: 422, code: "UNNECESSARY_IDENTIFIER" } });
    }
    const malformed = valid("/check", await callApi(CHECK, { token, body: { phoneNumber: "447700900000" } }));
    expect(malformed).toMatchObject({ status: 400, body: { code: "INVALID_ARGUMENT" } });
  });

  it("two-legged: phoneNumber required (422 MISSING_IDENTIFIER); an unknown number is 404 IDENTIFIER_NOT_FOUND", async () => {
    const { token } = await twoLegged();
    const subscriber = await createTestSubscriber();
    expect(valid("/check", await callApi(CHECK, { token, body: { maxAge: 24 } })))
      .toMatchObject({ status: 422, body: { code: "MISSING_IDENTIFIER" } });
    const phoneNumber = `+${subscriber.msisdn}`;
    expect(valid("/check", await callApi(CHECK, { token, body: { phoneNumber, maxAge: 24 } })).body)
      .toEqual({ swapped: false });
    await swapAt(subscriber.msisdn, new Date(Date.now() - HOUR));
    expect(valid("/check", await callApi(CHECK, { token, body: { phoneNumber, maxAge: 2 } })).body)
      .toEqual({ swapped: true });
    const unknown = valid("/check", await callApi(CHECK, { token, body: { phoneNumber: "+999123456789", maxAge: 2 } }));
    expect(unknown).toMatchObject({ status: 404, body: { status: 404, code: "IDENTIFIER_NOT_FOUND" } });
    // a number that is no subscriber's but has recorded changes is answered
    const line = `4479${String(Date.now()).slice(-8)}`;
    await swapAt(line, new Date(Date.now() - HOUR));
    expect(valid("/check", await callApi(CHECK, { token, body: { phoneNumber: `+${line}`, maxAge: 2 } })).body)
      .toEqual({ swapped: true });
  });

  it("x-correlator echoed on 200 and errors; a malformed one is 400", async () => {
    const { token } = await threeLegged();
    const ok = valid("/check", await callApi(CHECK, { token, body: {}, correlator: "b4333c46-49c0-4f62" }));
    expect(ok.headers!.get("x-correlator")).toBe("b4333c46-49c0-4f62");
    const err = valid("/check", await callApi(CHECK, { token, body: { maxAge: 0 }, correlator: "abc:1" }));
    expect(err.status).toBe(400);
    expect(err.headers!.get("x-correlator")).toBe("abc:1");
    const bad = valid("/check", await callApi(CHECK, { token, body: {}, correlator: "bad correlator!" }));
    expect(bad).toMatchObject({ status: 400, body: { code: "INVALID_ARGUMENT" } });
  });

  it("a token without the scope: 403 PERMISSION_DENIED; no or unknown token: 401 UNAUTHENTICATED", async () => {
    const { token } = await threeLegged(`sim-swap:retrieve-date ${FRAUD}`);
    expect(valid("/check", await callApi(CHECK, { token, body: {} })))
      .toMatchObject({ status: 403, body: { code: "PERMISSION_DENIED" } });
    const { token: noPurpose } = await threeLegged("sim-swap:check");
    expect(valid("/check", await callApi(CHECK, { token: noPurpose, body: {} })))
      .toMatchObject({ status: 403, body: { code: "PERMISSION_DENIED" } });
    const { token: twoLeggedOther } = await twoLegged(`sim-swap:retrieve-date ${FRAUD}`);
    expect(valid("/check", await callApi(CHECK, { token: twoLeggedOther, body: { phoneNumber: "+447700900000" } })))
      .toMatchObject({ status: 403, body: { code: "PERMISSION_DENIED" } });
    expect(valid("/check", await callApi(CHECK, { body: {} }))).toMatchObject({ status: 401, body: { code: "UNAUTHENTICATED" } });
    expect(valid("/check", await callApi(CHECK, { token: "not-a-token", body: {} })))
      .toMatchObject({ status: 401, body: { code: "UNAUTHENTICATED" } });
  });
});

describe("POST /sim-swap/v2/retrieve-date", () => {
  it("three-legged: null without a change; the latest change as an RFC 3339 date-time", async () => {
    const { subscriber, token } = await threeLegged();
    const none = valid("/retrieve-date", await callApi(RETRIEVE, { token, body: {} }));
    expect(none).toMatchObject({ status: 200, body: { latestSimChange: null } });
    expect(none.body).not.toHaveProperty("monitoredPeriod");
    const older = new Date(Date.now() - 48 * HOUR);
    const latest = new Date(Date.now() - 2 * HOUR);
    await swapAt(subscriber.msisdn, latest);
    await swapAt(subscriber.msisdn, older);
    const a = valid("/retrieve-date", await callApi(RETRIEVE, { token, body: {}, correlator: "r-1" }));
    expect(a.body).toEqual({ latestSimChange: latest.toISOString() });
    expect(a.headers!.get("x-correlator")).toBe("r-1");
    expect(valid("/retrieve-date", await callApi(RETRIEVE, { token, body: { phoneNumber: `+${subscriber.msisdn}` } })))
      .toMatchObject({ status: 422, body: { code: "UNNECESSARY_IDENTIFIER" } });
  });

  it("two-legged: by phoneNumber; missing 422, unknown 404, malformed 400, wrong scope 403", async () => {
    const { token } = await twoLegged();
    const subscriber = await createTestSubscriber();
    const at = new Date(Date.now() - 5 * HOUR);
    await swapAt(subscriber.msisdn, at);
    expect(valid("/retrieve-date", await callApi(RETRIEVE, { token, body: { phoneNumber: `+${subscriber.msisdn}` } })).body)
      .toEqual({ latestSimChange: at.toISOString() });
    expect(valid("/retrieve-date", await callApi(RETRIEVE, { token, body: {} })))
      .toMatchObject({ status: 422, body: { code: "MISSING_IDENTIFIER" } });
    expect(valid("/retrieve-date", await callApi(RETRIEVE, { token, body: { phoneNumber: "+999123456789" } })))
      .toMatchObject({ status: 404, body: { code: "IDENTIFIER_NOT_FOUND" } });
    expect(valid("/retrieve-date", await callApi(RETRIEVE, { token, body: { phoneNumber: 447700900000 } })))
      .toMatchObject({ status: 400, body: { code: "INVALID_ARGUMENT" } });
    const { token: checkOnly } = await twoLegged(`sim-swap:check ${FRAUD}`);
    expect(valid("/retrieve-date", await callApi(RETRIEVE, { token: checkOnly, body: { phoneNumber: "+447700900000" } })))
      .toMatchObject({ status: 403, body: { code: "PERMISSION_DENIED" } });
  });

  it("a revoked token (as after a SIM swap) is 401", async () => {
    const { token } = await threeLegged();
    await db.accessToken.updateMany({ where: { revokedAt: null, tokenHash: sha256(token) },
      data: { revokedAt: new Date() } });
    expect(valid("/retrieve-date", await callApi(RETRIEVE, { token, body: {} })))
      .toMatchObject({ status: 401, body: { code: "UNAUTHENTICATED" } });
  });
});
