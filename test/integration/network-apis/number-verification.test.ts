import { createHash, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from "jose";
import { db } from "@/lib/db";
import { sha256 } from "@/lib/crypto";
import { createTestSubscriber } from "../../support/fixtures";
import { baseUrl } from "../../support/authorize-support";
import type { ApiAnswer } from "../../support/openapi-validate";
import {
  callApi, createApiClient, FRAUD, insertApiToken, insertClientApiToken, openApiErrors,
} from "../../support/camara-support";

/**
 * CAMARA Number Verification 2.1.0 (lib/network-apis/number-verification, docs/number-verification.md) over HTTP:
 * the API's own behaviour with tokens written straight into the database (amr "nba": network-based), every
 * answer validated against the published document. The grants' side is number-verification-grants.test.ts.
 */
const VERIFY = "/number-verification/v2/verify";
const SHARE = "/number-verification/v2/device-phone-number";
const VERIFY_SCOPE = `number-verification:verify ${FRAUD}`;
const SHARE_SCOPE = `number-verification:device-phone-number:read ${FRAUD}`;
const USER_NOT_NBA = "NUMBER_VERIFICATION.USER_NOT_AUTHENTICATED_BY_MOBILE_NETWORK";

const hashed = (e164: string) => createHash("sha256").update(e164).digest("hex");

/** The answer, checked against the published document for its operation. */
function valid(answer: ApiAnswer, path: string) {
  const [operation, method] = path === VERIFY ? ["/verify", "POST"] : ["/device-phone-number", "GET"];
  expect(openApiErrors("number-verification", operation!, method!, answer), JSON.stringify(answer.body)).toEqual([]);
  return answer;
}

let client: Awaited<ReturnType<typeof createApiClient>>;
let subscriber: Awaited<ReturnType<typeof createTestSubscriber>>;

beforeAll(async () => {
  client = await createApiClient({ scopes: ["number-verification:verify", "number-verification:device-phone-number:read",
    "sim-swap:check", FRAUD] });
  subscriber = await createTestSubscriber();
});

const token = (scope = VERIFY_SCOPE, extra: Partial<Parameters<typeof insertApiToken>[0]> = {}) =>
  insertApiToken({ clientId: client.id, subscriberId: subscriber.id, scope, amr: "nba", ...extra });

async function verify(body: unknown, tok?: string, opts: Omit<Parameters<typeof callApi>[1], "token" | "body"> = {}) {
  return valid(await callApi(VERIFY, { token: tok ?? await token(), body, ...opts }), VERIFY);
}

describe("Number Verification: POST /verify", () => {
  it("its own number in plain text: true, the x-correlator echoed, no-store", async () => {
    const res = await verify({ phoneNumber: `+${subscriber.msisdn}` }, undefined, { correlator: "nv-corr-1" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ devicePhoneNumberVerified: true });
    expect(res.headers!.get("x-correlator")).toBe("nv-corr-1");
    expect(res.headers!.get("cache-control")).toMatch(/no-store/);
  });

  it("another number: false (not an error)", async () => {
    const res = await verify({ phoneNumber: "+33612345678" });
    expect(res).toMatchObject({ status: 200, body: { devicePhoneNumberVerified: false } });
  });

  it("hashed: SHA-256 hex of the E.164 number with its +, compared case-insensitively", async () => {
    const own = hashed(`+${subscriber.msisdn}`);
    expect((await verify({ hashedPhoneNumber: own })).body).toEqual({ devicePhoneNumberVerified: true });
    expect((await verify({ hashedPhoneNumber: own.toUpperCase() })).body).toEqual({ devicePhoneNumberVerified: true });
    // without the + it is another value: false
    expect((await verify({ hashedPhoneNumber: hashed(subscriber.msisdn) })).body).toEqual({ devicePhoneNumberVerified: false });
    expect((await verify({ hashedPhoneNumber: hashed("+33612345678") })).body).toEqual({ devicePhoneNumberVerified: false });
  });

  it("400 INVALID_ARGUMENT for every body the schema refuses; none of them spends the token", async () => {
    const tok = await token();
    const own = `+${subscriber.msisdn}`;
    const bodies: unknown[] = [
      {}, { phoneNumber: own, hashedPhoneNumber: hashed(own) }, { phoneNumber: subscriber.msisdn },
      { phoneNumber: "+0123456789" }, { phoneNumber: "+1234" }, { phoneNumber: "+1234567890123456" },
      { phoneNumber: 447700900123 }, { phoneNumber: null }, { hashedPhoneNumber: "abc" },
      { hashedPhoneNumber: `${hashed(own)}0` }, { hashedPhoneNumber: "g".repeat(64) }, { phoneNumber: own, extra: 1 },
      { foo: "bar" }, [], "\"+447700900123\"", "not json", "null",
    ];
    for (const body of bodies) {
      const res = await verify(body, tok, { correlator: "bad-body" });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ status: 400, code: "INVALID_ARGUMENT" });
      expect(res.headers!.get("x-correlator")).toBe("bad-body");
    }
    expect((await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256(tok) } })).revokedAt).toBeNull();
    expect((await verify({ phoneNumber: own }, tok)).body).toEqual({ devicePhoneNumberVerified: true });
  });

  it("a malformed x-correlator: 400", async () => {
    const res = await verify({ phoneNumber: `+${subscriber.msisdn}` }, undefined, { correlator: "bad correlator!" });
    expect(res).toMatchObject({ status: 400, body: { code: "INVALID_ARGUMENT" } });
    expect(res.headers!.get("x-correlator")).toBeNull();
  });
});

describe("Number Verification: GET /device-phone-number", () => {
  it("the subscriber's number in E.164 with +", async () => {
    const res = valid(await callApi(SHARE, { token: await token(SHARE_SCOPE), correlator: "share-1" }), SHARE);
    expect(res).toMatchObject({ status: 200, body: { devicePhoneNumber: `+${subscriber.msisdn}` } });
    expect(res.headers!.get("x-correlator")).toBe("share-1");
  });
});

describe("Number Verification: single use", () => {
  it("the first successful call spends the token: a second one (either operation) is 401 UNAUTHENTICATED", async () => {
    const tok = await token(`number-verification:verify number-verification:device-phone-number:read ${FRAUD}`);
    expect((await verify({ phoneNumber: `+${subscriber.msisdn}` }, tok)).status).toBe(200);
    const row = await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256(tok) } });
    expect(row.revokedAt).toEqual(expect.any(Date));
    const again = await verify({ phoneNumber: `+${subscriber.msisdn}` }, tok, { correlator: "again" });
    expect(again).toMatchObject({ status: 401, body: { status: 401, code: "UNAUTHENTICATED" } });
    expect(again.headers!.get("x-correlator")).toBe("again");
    expect(again.headers!.get("www-authenticate")).toMatch(/^Bearer/);
    const share = valid(await callApi(SHARE, { token: tok }), SHARE);
    expect(share).toMatchObject({ status: 401, body: { code: "UNAUTHENTICATED" } });
  });

  it("fifty parallel calls with one token: exactly one 200, 49 × 401", async () => {
    const tok = await token();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) =>
      callApi(VERIFY, { token: tok, body: { phoneNumber: `+${subscriber.msisdn}` }, correlator: `p-${i}` })));
    for (const a of answers) valid(a, VERIFY);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 401 && (a.body as { code: string }).code === "UNAUTHENTICATED")).toHaveLength(49);
    answers.forEach((a, i) => expect(a.headers!.get("x-correlator")).toBe(`p-${i}`));
  });

  it("fifty parallel calls of device-phone-number with one token: exactly one 200", async () => {
    const tok = await token(SHARE_SCOPE);
    const answers = await Promise.all(Array.from({ length: 50 }, () => callApi(SHARE, { token: tok })));
    for (const a of answers) valid(a, SHARE);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(49);
  });
});

describe("Number Verification: refused tokens", () => {
  it("401 UNAUTHENTICATED: none, unknown, malformed, expired, revoked, a suspended subscriber", async () => {
    const body = { phoneNumber: `+${subscriber.msisdn}` };
    const expired = await token(VERIFY_SCOPE, { ttlSeconds: -1 });
    const revoked = await token();
    await db.accessToken.update({ where: { tokenHash: sha256(revoked) }, data: { revokedAt: new Date() } });
    const suspended = await createTestSubscriber({ status: "suspended" });
    const ofSuspended = await insertApiToken({ clientId: client.id, subscriberId: suspended.id, scope: VERIFY_SCOPE,
      amr: "nba" });
    const answers = [
      await callApi(VERIFY, { body, correlator: "none" }),
      await callApi(VERIFY, { token: "unknown-token-value", body }),
      await callApi(VERIFY, { body, headers: { authorization: "Bearer" } }),
      await callApi(VERIFY, { token: expired, body }),
      await callApi(VERIFY, { token: revoked, body }),
      await callApi(VERIFY, { token: ofSuspended, body: { phoneNumber: `+${suspended.msisdn}` } }),
      await callApi(SHARE, { token: ofSuspended }),
    ];
    answers.forEach((a, i) => {
      valid(a, i === 6 ? SHARE : VERIFY);
      expect(a, `case ${i}`).toMatchObject({ status: 401, body: { status: 401, code: "UNAUTHENTICATED" } });
    });
    expect(answers[0]!.headers!.get("x-correlator")).toBe("none");
  });

  it("403 USER_NOT_AUTHENTICATED_BY_MOBILE_NETWORK for a token whose amr lacks nba; the token is not spent", async () => {
    for (const amr of ["otp sms", "otp sms pin", "hwk user", null]) {
      const tok = await token(VERIFY_SCOPE, { amr });
      const res = await verify({ phoneNumber: `+${subscriber.msisdn}` }, tok, { correlator: "amr" });
      expect(res.status, String(amr)).toBe(403);
      expect(res.body).toEqual({ status: 403, code: USER_NOT_NBA,
        message: "Client must authenticate via the mobile network to use this service" });
      expect(res.headers!.get("x-correlator")).toBe("amr");
      expect((await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256(tok) } })).revokedAt).toBeNull();
    }
    const share = valid(await callApi(SHARE, { token: await token(SHARE_SCOPE, { amr: "otp sms" }) }), SHARE);
    expect(share).toMatchObject({ status: 403, body: { code: USER_NOT_NBA } });
    // "nba" must be a value of its own, not a substring
    const near = await verify({ phoneNumber: `+${subscriber.msisdn}` }, await token(VERIFY_SCOPE, { amr: "nbax otp" }));
    expect(near).toMatchObject({ status: 403, body: { code: USER_NOT_NBA } });
    // among other values it counts
    const mixed = await verify({ phoneNumber: `+${subscriber.msisdn}` }, await token(VERIFY_SCOPE, { amr: "otp nba" }));
    expect(mixed).toMatchObject({ status: 200 });
  });

  it("403 PERMISSION_DENIED: another scope, the other operation's scope, no purpose, a two-legged token", async () => {
    const body = { phoneNumber: `+${subscriber.msisdn}` };
    const twoLegged = await insertClientApiToken({ clientId: client.id, scope: VERIFY_SCOPE });
    const answers: Array<[ApiAnswer, string]> = [
      [await callApi(VERIFY, { token: await token(`sim-swap:check ${FRAUD}`), body }), VERIFY],
      [await callApi(VERIFY, { token: await token(SHARE_SCOPE), body }), VERIFY],
      [await callApi(SHARE, { token: await token(VERIFY_SCOPE) }), SHARE],
      [await callApi(VERIFY, { token: await token("number-verification:verify"), body }), VERIFY],
      [await callApi(VERIFY, { token: await token(`${VERIFY_SCOPE} dpv:IdentityVerification`), body }), VERIFY],
      [await callApi(VERIFY, { token: twoLegged, body }), VERIFY],
    ];
    answers.forEach(([a, path], i) => {
      valid(a, path);
      expect(a, `case ${i}`).toMatchObject({ status: 403, body: { status: 403, code: "PERMISSION_DENIED" } });
    });
  });
});

describe("Number Verification: DPoP", () => {
  it("a DPoP-bound token works with a proof of its key, and not as Bearer", async () => {
    const key = await generateKeyPair("ES256", { extractable: true });
    const jwk = await exportJWK(key.publicKey);
    const jkt = await calculateJwkThumbprint(jwk);
    const proof = (tok: string, htm = "POST", path = VERIFY) => new SignJWT({ jti: randomUUID(),
      iat: Math.floor(Date.now() / 1000), htm, htu: `${baseUrl}${path}`, ath: sha256(tok) })
      .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk }).sign(key.privateKey);
    const body = { phoneNumber: `+${subscriber.msisdn}` };

    const asBearer = await token(VERIFY_SCOPE, { dpopJkt: jkt });
    const bearer = valid(await callApi(VERIFY, { token: asBearer, body }), VERIFY);
    expect(bearer).toMatchObject({ status: 401, body: { code: "UNAUTHENTICATED" } });
    expect(bearer.headers!.get("www-authenticate")).toMatch(/DPoP/);

    const tok = await token(VERIFY_SCOPE, { dpopJkt: jkt });
    const noProof = valid(await callApi(VERIFY, { body, headers: { authorization: `DPoP ${tok}` } }), VERIFY);
    expect(noProof.status).toBe(401);
    const ok = valid(await callApi(VERIFY, { body, headers: { authorization: `DPoP ${tok}`, dpop: await proof(tok) } }),
      VERIFY);
    expect(ok).toMatchObject({ status: 200, body: { devicePhoneNumberVerified: true } });

    const shareTok = await token(SHARE_SCOPE, { dpopJkt: jkt });
    const wrongUrl = valid(await callApi(SHARE, { headers: { authorization: `DPoP ${shareTok}`,
      dpop: await proof(shareTok, "GET", VERIFY) } }), SHARE);
    expect(wrongUrl.status).toBe(401);
    const share = valid(await callApi(SHARE, { headers: { authorization: `DPoP ${shareTok}`,
      dpop: await proof(shareTok, "GET", SHARE) } }), SHARE);
    expect(share).toMatchObject({ status: 200, body: { devicePhoneNumber: `+${subscriber.msisdn}` } });
  });
});
