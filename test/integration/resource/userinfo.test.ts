import { describe, expect, inject, it } from "vitest";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { createTestClient, createTestSubscriber } from "../../support/fixtures";
import { obtainTokens } from "../../support/codes";

const baseUrl = inject("baseUrl");
const jwks = createRemoteJWKSet(new URL(`${baseUrl}/jwks`));

async function tokensFor(scope: string, attributes: Parameters<typeof createTestSubscriber>[0] = {}) {
  const client = await createTestClient();
  const subscriber = await createTestSubscriber(attributes);
  return { subscriber, ...(await obtainTokens(baseUrl, client, subscriber, { scope })) };
}

describe("userinfo (OIDC Core §5.3)", () => {
  it("returns the id_token's sub and the claims of the granted scopes with OIDC types", async () => {
    const t = await tokensFor("openid profile email address phone", { attributes: { state: "Greater London" } });
    const res = await fetch(`${baseUrl}/userinfo`, { headers: { Authorization: `Bearer ${t.access_token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    const { payload } = await jwtVerify(t.id_token, jwks);
    expect(body.sub).toBe(payload.sub);
    expect(body).toMatchObject({ given_name: "Alice", family_name: "Example", name: "Alice Example",
      birthdate: "1990-04-01", email: "alice@example.test", email_verified: true,
      phone_number: `+${t.subscriber.msisdn}`, phone_number_verified: true });
    expect(body.updated_at).toBeTypeOf("number");
    expect(body.address).toEqual({ street_address: "1 High Street", locality: "London", region: "Greater London",
      postal_code: "SW1A 1AA", country: "GB", formatted: "1 High Street, London, Greater London, SW1A 1AA, GB" });
  });

  it("releases only what the scopes allow", async () => {
    const t = await tokensFor("openid email");
    const body = await (await fetch(`${baseUrl}/userinfo`, { headers: { Authorization: `Bearer ${t.access_token}` } })).json();
    expect(Object.keys(body).sort()).toEqual(["email", "email_verified", "sub"]);
    const bare = await tokensFor("openid mc_identity_phonenumber");
    const only = await (await fetch(`${baseUrl}/userinfo`, { headers: { Authorization: `Bearer ${bare.access_token}` } })).json();
    expect(Object.keys(only)).toEqual(["sub"]);
  });

  it("accepts GET and POST with the header, and POST with a form body", async () => {
    const t = await tokensFor("openid email");
    const get = await fetch(`${baseUrl}/userinfo`, { headers: { Authorization: `Bearer ${t.access_token}` } });
    const post = await fetch(`${baseUrl}/userinfo`, { method: "POST", headers: { Authorization: `Bearer ${t.access_token}` } });
    const form = await fetch(`${baseUrl}/userinfo`, { method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: `access_token=${t.access_token}` });
    expect([get.status, post.status, form.status]).toEqual([200, 200, 200]);
  });

  it("answers errors with a Bearer challenge", async () => {
    const none = await fetch(`${baseUrl}/userinfo`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer .*error="invalid_token", error_description="No Access Token"/);
    const bad = await fetch(`${baseUrl}/userinfo`, { headers: { Authorization: "Bearer nope" } });
    expect(bad.status).toBe(401);
    expect((await bad.json()).error).toBe("invalid_token");
    expect(bad.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
    // RFC 6750 §2.3 query tokens are not accepted at userinfo.
    const t = await tokensFor("openid email");
    expect((await fetch(`${baseUrl}/userinfo?token=${t.access_token}`)).status).toBe(401);
  });
});
