import { beforeAll, describe, expect, it } from "vitest";
import { createTestSubscriber } from "@/test/support/fixtures";
import { callApi, createApiClient, declarePurpose, FRAUD, insertApiToken, insertClientApiToken, openApiErrors }
  from "@/test/support/camara-support";
import type { ApiAnswer } from "@/test/support/openapi-validate";

/**
 * POST /kyc-match/v0.3/match over HTTP (docs/kyc-match.md): per-attribute results and scores against the
 * subscriber's record, the identifier rules, two-legged access, scopes, bad bodies and x-correlator. Every answer
 * is validated against the published document (lib/network-apis/openapi/kyc-match.yaml).
 */
const PATH = "/kyc-match/v0.3/match";
/**
 * The purpose of these tests' (kyc-match:match, purpose) declaration, legitimate interest. Other files declare
 * kyc-match:match with other purposes and other bases (the consent tests: dpv:IdentityVerification as consent);
 * none declares this pair, so parallel files never flip its basis.
 */
const PURPOSE = FRAUD;
const SCOPE = `kyc-match:match ${PURPOSE}`;

let client: Awaited<ReturnType<typeof createApiClient>>;
let subscriber: Awaited<ReturnType<typeof createTestSubscriber>>;
let token: string;
let twoLegged: string;

/** The call, checked against the published document before anything else. */
async function match(body: unknown, opts: { token?: string; correlator?: string; headers?: Record<string, string> } = {})
  : Promise<ApiAnswer & { body: Record<string, unknown> }> {
  const answer = await callApi(PATH, { token: opts.token ?? token, body, correlator: opts.correlator,
    headers: opts.headers });
  expect(openApiErrors("kyc-match", "/match", "POST", answer)).toEqual([]);
  expect(answer.headers?.get("cache-control")).toBe("no-store");
  return answer as ApiAnswer & { body: Record<string, unknown> };
}

beforeAll(async () => {
  // Both KYC files declare the same pair, maybe at the same moment: an upsert can lose that race once.
  await declarePurpose("kyc-match:match", PURPOSE, "legitimate_interest")
    .catch(() => declarePurpose("kyc-match:match", PURPOSE, "legitimate_interest"));
  client = await createApiClient({ scopes: ["kyc-match:match", PURPOSE], grantTypes: ["authorization_code",
    "client_credentials"], clientCredentialsScopes: ["kyc-match:match", PURPOSE] });
  subscriber = await createTestSubscriber({ attributes: { givenName: "José", middleName: "Luis", familyName: "García Núñez",
    birthDate: "1985-02-14", email: "Jose.Garcia@Example.test", emailVerified: true, gender: "male",
    streetAddress: "Calle Mayor 12", city: "Madrid", state: "Comunidad de Madrid", postalCode: "28013", country: "ES",
    nationalIdentifier: "12345678Z" } });
  token = await insertApiToken({ clientId: client.id, subscriberId: subscriber.id, scope: SCOPE });
  twoLegged = await insertClientApiToken({ clientId: client.id, scope: SCOPE });
});

describe("KYC Match: results", () => {
  it("a full match: every attribute held and equal, after normalising case, accents and punctuation", async () => {
    const res = await match({ idDocument: "12345678-z", name: "Jose Luis Garcia Nunez", givenName: "JOSE",
      familyName: "garcía-núñez", middleNames: "Luis", address: "Calle Mayor 12", streetName: "Calle Mayor",
      streetNumber: "12", postalCode: "28013", region: "Comunidad de Madrid", locality: "MADRID", country: "ES",
      birthdate: "1985-02-14", email: "jose.garcia@example.test", gender: "MALE" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ idDocumentMatch: "true", nameMatch: "true", givenNameMatch: "true",
      familyNameMatch: "true", middleNamesMatch: "true", addressMatch: "true", streetNameMatch: "true",
      streetNumberMatch: "true", postalCodeMatch: "true", regionMatch: "true", localityMatch: "true",
      countryMatch: "true", birthdateMatch: "true", emailMatch: "true", genderMatch: "true" });
  });

  it("a partial match: false with a coarse similarity score where the document defines one", async () => {
    const res = await match({ givenName: "Josep", familyName: "Garcia Nunez", birthdate: "1985-02-15",
      email: "jose.garcia@example.org", gender: "FEMALE", postalCode: "28014", name: "Garcia Nunez Jose" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ givenNameMatch: "false", familyNameMatch: "true", birthdateMatch: "false",
      emailMatch: "false", genderMatch: "false", postalCodeMatch: "false", nameMatch: "true" });
    expect(res.body.givenNameMatchScore).toBe(80); // similarity 80, a multiple of 10 (docs/kyc-match.md "Score")
    // The e-mail is never scored (it was an exact similarity before the scores were made coarse).
    for (const unscored of ["familyNameMatchScore", "birthdateMatchScore", "genderMatchScore", "postalCodeMatchScore",
      "nameMatchScore", "emailMatchScore"]) {
      expect(res.body).not.toHaveProperty(unscored);
    }
  });

  it("not_available for what the record does not hold, or the subscriber record cannot hold", async () => {
    const bare = await createTestSubscriber({ attributes: { givenName: "Ann", familyName: null, middleName: null,
      email: "ann@example.test", emailVerified: false, birthDate: null, nationalIdentifier: null, streetAddress: null,
      city: null, state: null, postalCode: null, country: null, gender: null } });
    const bareToken = await insertApiToken({ clientId: client.id, subscriberId: bare.id, scope: SCOPE });
    const res = await match({ name: "Ann Smith", givenName: "Anne", familyName: "Smith", middleNames: "Mary",
      email: "ann@example.test", birthdate: "1990-01-01", idDocument: "X1", address: "1 Road", country: "GB",
      gender: "FEMALE", nameKanaHankaku: "ｱﾝ", nameKanaZenkaku: "アン", familyNameAtBirth: "Jones",
      houseNumberExtension: "2B" }, { token: bareToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ idDocumentMatch: "not_available", nameMatch: "not_available", givenNameMatch: "false",
      // givenName: similarity 75 ("anne" / "ann"), below the threshold: no score.
      familyNameMatch: "not_available", nameKanaHankakuMatch: "not_available",
      nameKanaZenkakuMatch: "not_available", middleNamesMatch: "not_available",
      familyNameAtBirthMatch: "not_available", addressMatch: "not_available", countryMatch: "not_available",
      houseNumberExtensionMatch: "not_available", birthdateMatch: "not_available", emailMatch: "not_available",
      genderMatch: "not_available" });
  });

  it("never returns the record's values", async () => {
    const res = await match({ name: "Someone Else", email: "someone@else.test", address: "9 Other Road",
      idDocument: "00000000A", birthdate: "2000-01-01" });
    const text = JSON.stringify(res.body).toLowerCase();
    for (const value of ["josé", "garcía", "jose.garcia", "calle mayor", "12345678z", "1985-02-14", "28013"]) {
      expect(text).not.toContain(value);
    }
  });
});

describe("KYC Match: the subject", () => {
  it("three-legged: the token's own number may be repeated; another is 403 INVALID_TOKEN_CONTEXT", async () => {
    const same = await match({ phoneNumber: `+${subscriber.msisdn}`, givenName: "José" });
    expect(same.status).toBe(200);
    expect(same.body).toEqual({ givenNameMatch: "true" });
    const other = await match({ phoneNumber: "+447700900999", givenName: "José" });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe("INVALID_TOKEN_CONTEXT");
  });

  it("two-legged: the phoneNumber names the subscriber; without it 422 MISSING_IDENTIFIER", async () => {
    const ok = await match({ phoneNumber: `+${subscriber.msisdn}`, givenName: "Jose", familyName: "Garcia" },
      { token: twoLegged });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ givenNameMatch: "true", familyNameMatch: "false" });
    const missing = await match({ givenName: "Jose" }, { token: twoLegged });
    expect(missing.status).toBe(422);
    expect(missing.body.code).toBe("MISSING_IDENTIFIER");
  });

  it("an unknown or suspended number is 404 IDENTIFIER_NOT_FOUND, alike", async () => {
    const suspended = await createTestSubscriber({ status: "suspended" });
    for (const phoneNumber of ["+999000111222", `+${suspended.msisdn}`]) {
      const res = await match({ phoneNumber, givenName: "Alice" }, { token: twoLegged });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 404, code: "IDENTIFIER_NOT_FOUND",
        message: "The phone number provided is not associated with a customer account" });
    }
  });
});

describe("KYC Match: access", () => {
  it("401 UNAUTHENTICATED without a token or with an unknown one", async () => {
    for (const t of [undefined, "not-a-token"]) {
      const res = await callApi(PATH, { token: t, body: { givenName: "José" } });
      expect(openApiErrors("kyc-match", "/match", "POST", res)).toEqual([]);
      expect(res.status).toBe(401);
      expect((res.body as Record<string, unknown>).code).toBe("UNAUTHENTICATED");
    }
  });

  it("403 PERMISSION_DENIED for a token without kyc-match:match, or without a purpose", async () => {
    const other = await createApiClient({ scopes: ["sim-swap:check", FRAUD] });
    for (const scope of [`openid sim-swap:check ${FRAUD}`, "openid kyc-match:match"]) {
      const t = await insertApiToken({ clientId: other.id, subscriberId: subscriber.id, scope });
      const res = await match({ givenName: "José" }, { token: t });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("PERMISSION_DENIED");
    }
    const twoLeggedOther = await insertClientApiToken({ clientId: other.id, scope: `sim-swap:check ${FRAUD}` });
    const res = await match({ phoneNumber: `+${subscriber.msisdn}`, givenName: "José" }, { token: twoLeggedOther });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("PERMISSION_DENIED");
  });
});

describe("KYC Match: bad requests", () => {
  it("400 KNOW_YOUR_CUSTOMER.INVALID_PARAM_COMBINATION when nothing but the phone number is sent", async () => {
    for (const body of [{}, { phoneNumber: `+${subscriber.msisdn}` }, { unknownMember: "x" }]) {
      const res = await match(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("KNOW_YOUR_CUSTOMER.INVALID_PARAM_COMBINATION");
    }
  });

  it("400 INVALID_ARGUMENT for every malformed attribute or body", async () => {
    const bodies: unknown[] = [
      { givenName: 42 }, { givenName: "" }, { givenName: "   " }, { givenName: null }, { name: ["a"] },
      { givenName: "x".repeat(257) }, { birthdate: "14/02/1985" }, { birthdate: "1985-02-30" },
      { email: "not an email" }, { gender: "male" }, { gender: "UNKNOWN" },
      { phoneNumber: "447700900001", givenName: "José" }, { phoneNumber: 447700900001, givenName: "José" },
      [], "\"a string\"", "{not json",
    ];
    for (const body of bodies) {
      const res = await match(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code, JSON.stringify(body)).toBe("INVALID_ARGUMENT");
    }
  });

  it("415 for a body that is not JSON is an error body, never a 500", async () => {
    const res = await callApi(PATH, { token, body: "givenName=Jose",
      headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(415);
    expect((res.body as Record<string, unknown>).code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });
});

describe("KYC Match: x-correlator", () => {
  it("is echoed on success and on errors; a malformed one is 400", async () => {
    const ok = await match({ givenName: "José" }, { correlator: "b4333c46-49c0-4f62-80d7-f0ef930f1c46" });
    expect(ok.status).toBe(200);
    expect(ok.headers?.get("x-correlator")).toBe("b4333c46-49c0-4f62-80d7-f0ef930f1c46");
    const error = await match({}, { correlator: "abc-123" });
    expect(error.status).toBe(400);
    expect(error.headers?.get("x-correlator")).toBe("abc-123");
    const bad = await match({ givenName: "José" }, { correlator: "bad correlator with spaces" });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("INVALID_ARGUMENT");
    expect(bad.headers?.get("x-correlator")).toBeNull();
  });
});
