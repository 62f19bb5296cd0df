import { describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db";
import { sha256 } from "@/lib/crypto";
import { createTestClient, createTestSubscriber } from "../../support/fixtures";
import { basic, obtainTokens } from "../../support/codes";

const baseUrl = inject("baseUrl");
const NO_SCOPE = "The selected scopes do not allow access to premium info";
/** The regex the operator SDKs apply to WWW-Authenticate. */
const SDK_ERROR = /error\s?=\s?"(.*?)"/;

async function tokenFor(scope: string, attributes: Parameters<typeof createTestSubscriber>[0] = {}) {
  const client = await createTestClient();
  const subscriber = await createTestSubscriber(attributes);
  const tokens = await obtainTokens(baseUrl, client, subscriber, { scope });
  return { client, subscriber, token: tokens.access_token };
}
async function expectBearerError(res: Response, status: number, error: string, description?: string) {
  expect(res.status).toBe(status);
  const body = await res.json();
  expect(body.error).toBe(error);
  if (description) expect(body.error_description).toBe(description);
  const header = res.headers.get("www-authenticate") ?? "";
  expect(header).toMatch(/^Bearer /);
  expect(SDK_ERROR.exec(header)?.[1]).toBe(error);
  expect(header).toContain(`error_description="${body.error_description}"`);
  return body;
}

describe("premium info: attributes by scope union", () => {
  it("mc_identity_phonenumber gives the MSISDN", async () => {
    const { token, subscriber } = await tokenFor("openid mc_identity_phonenumber");
    const res = await fetch(`${baseUrl}/premiuminfo?token=${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("pragma")).toBe("no-cache");
    expect(await res.json()).toEqual({ phone_number: `+${subscriber.msisdn}`, phone_number_verified: "true" });
  });

  it("mc_identity_signup gives the signup attributes with the SDK aliases, omitting what the subscriber lacks", async () => {
    const { token } = await tokenFor("openid mc_identity_signup", {
      attributes: { phoneNumberAlternative: "+447700900999", title: "Dr", locale: "en-GB" },
    });
    const body = await (await fetch(`${baseUrl}/premiuminfo`, { headers: { Authorization: `Bearer ${token}` } })).json();
    expect(body).toMatchObject({
      phone_number_alternative: "+447700900999", phone_number_alternate: "+447700900999", title: "Dr",
      given_name: "Alice", family_name: "Example", street_address: "1 High Street", city: "London",
      postal_code: "SW1A 1AA", country: "GB", email: "alice@example.test", email_verified: "true",
      birth_date: "1990-04-01", birthdate: "1990-04-01", locale: "en-GB",
    });
    for (const absent of ["middle_name", "state", "picture", "website", "gender", "preferred_username",
      "national_identifier", "phone_number"]) {
      expect(body, absent).not.toHaveProperty(absent);
    }
    expect(Object.values(body).every((v) => typeof v === "string")).toBe(true);
  });

  it("mc_identity_nationalid gives the national identifier, birth date, name and address", async () => {
    const { token } = await tokenFor("openid mc_identity_nationalid", { attributes: { phoneNumberAlternative: "+4411" } });
    const body = await (await fetch(`${baseUrl}/premiuminfo?token=${token}`)).json();
    expect(body).toMatchObject({ national_identifier: "QQ123456C", birth_date: "1990-04-01", birthdate: "1990-04-01",
      given_name: "Alice", family_name: "Example", street_address: "1 High Street", postal_code: "SW1A 1AA" });
    expect(body).not.toHaveProperty("phone_number");
    expect(body).not.toHaveProperty("phone_number_alternative");
  });

  it("several identity scopes give the union", async () => {
    const { token, subscriber } = await tokenFor(
      "openid mc_identity_phonenumber mc_identity_signup mc_identity_nationalid",
      { attributes: { phoneNumberAlternative: "+447700900111" } });
    const body = await (await fetch(`${baseUrl}/premiuminfo?token=${token}`)).json();
    expect(body).toMatchObject({ phone_number: `+${subscriber.msisdn}`, phone_number_alternate: "+447700900111",
      national_identifier: "QQ123456C", email: "alice@example.test" });
  });

  it("leaves out attributes the subscriber does not have instead of inventing them", async () => {
    const { token } = await tokenFor("openid mc_identity_nationalid", {
      attributes: { nationalIdentifier: null, birthDate: null, streetAddress: null, city: null, postalCode: null,
        country: null, email: null },
    });
    const body = await (await fetch(`${baseUrl}/premiuminfo?token=${token}`)).json();
    expect(body).toEqual({ given_name: "Alice", family_name: "Example" });
  });
});

describe("premium info: token presentation (RFC 6750 §2 and the interface's ?token=)", () => {
  it("accepts ?token=, Authorization: Bearer and a form body, by GET and POST", async () => {
    const { token } = await tokenFor("openid mc_identity_phonenumber");
    const form = { "Content-Type": "application/x-www-form-urlencoded" };
    const requests: Array<[string, RequestInit]> = [
      [`/premiuminfo?token=${token}`, {}],
      [`/premiuminfo?token=${token}`, { method: "POST" }],
      ["/premiuminfo", { headers: { Authorization: `Bearer ${token}` } }],
      ["/premiuminfo", { method: "POST", headers: { Authorization: `bearer ${token}` } }],
      ["/premiuminfo", { method: "POST", headers: form, body: `access_token=${token}` }],
    ];
    for (const [path, init] of requests) {
      const res = await fetch(`${baseUrl}${path}`, init);
      expect(res.status, `${init.method ?? "GET"} ${path}`).toBe(200);
    }
  });

  it("refuses a token sent by more than one method", async () => {
    const { token } = await tokenFor("openid mc_identity_phonenumber");
    await expectBearerError(await fetch(`${baseUrl}/premiuminfo?token=${token}`,
      { headers: { Authorization: `Bearer ${token}` } }), 400, "invalid_request");
    await expectBearerError(await fetch(`${baseUrl}/premiuminfo`, { method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: `access_token=${token}` }), 400, "invalid_request");
  });

  it("answers a missing token with 401 and the header the SDKs read", async () => {
    const res = await fetch(`${baseUrl}/premiuminfo`);
    await expectBearerError(res, 401, "invalid_token", "No Access Token");
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_token", error_description="No Access Token"');
  });
});

describe("premium info: errors", () => {
  it("no identity scope: 401 access_denied exactly as the interface says", async () => {
    const { token } = await tokenFor("openid mc_authn");
    const res = await fetch(`${baseUrl}/premiuminfo?token=${token}`);
    const body = await expectBearerError(res, 401, "access_denied", NO_SCOPE);
    expect(body).toEqual({ error: "access_denied", error_description: NO_SCOPE });
  });

  it("unknown, expired and revoked tokens and suspended subscribers are invalid_token", async () => {
    await expectBearerError(await fetch(`${baseUrl}/premiuminfo?token=nope`), 401, "invalid_token");
    const expired = await tokenFor("openid mc_identity_phonenumber");
    await db.accessToken.update({ where: { tokenHash: sha256(expired.token) }, data: { expiresAt: new Date(Date.now() - 1) } });
    await expectBearerError(await fetch(`${baseUrl}/premiuminfo?token=${expired.token}`), 401, "invalid_token");
    const revoked = await tokenFor("openid mc_identity_phonenumber");
    await db.accessToken.update({ where: { tokenHash: sha256(revoked.token) }, data: { revokedAt: new Date() } });
    await expectBearerError(await fetch(`${baseUrl}/premiuminfo?token=${revoked.token}`), 401, "invalid_token");
    const suspended = await tokenFor("openid mc_identity_phonenumber");
    await db.subscriber.update({ where: { id: suspended.subscriber.id }, data: { status: "suspended" } });
    await expectBearerError(await fetch(`${baseUrl}/premiuminfo?token=${suspended.token}`), 401, "invalid_token");
  });

  it("checks the interface's `Authentication: Basic` against the token's client when sent", async () => {
    const { token, client } = await tokenFor("openid mc_identity_phonenumber");
    const other = await createTestClient();
    const ok = await fetch(`${baseUrl}/premiuminfo?token=${token}`, {
      headers: { Authentication: basic(client.id, client.secret!) } });
    expect(ok.status).toBe(200);
    await expectBearerError(await fetch(`${baseUrl}/premiuminfo?token=${token}`, {
      headers: { Authentication: basic(other.id, other.secret!) } }), 401, "invalid_token");
    const bad = await fetch(`${baseUrl}/premiuminfo?token=${token}`, {
      headers: { Authentication: basic(client.id, "wrong-secret") } });
    expect(bad.status).toBe(401);
    expect((await bad.json()).error).toBe("invalid_client");
    expect(SDK_ERROR.exec(bad.headers.get("www-authenticate") ?? "")?.[1]).toBe("invalid_client");
  });
});
