import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { createClient } from "@/lib/clients/create-client";
import { randomToken } from "@/lib/crypto";
import { db } from "@/lib/db";
import { CIBA_GRANT_TYPE } from "@/lib/ciba/ciba";
import { authorize, baseUrl, createTestSubscriber, expectErrorRedirect, requestFor } from "../../support/authorize-support";
import { backchannelAuthenticate } from "../../support/ciba-support";
import { createApiClient, declarePurpose } from "../../support/camara-support";

/**
 * Network-API scopes and purposes at every entry point that can ask a token (docs/network-apis.md "Scopes and
 * purposes"): /authorize, /par, /bc-authorize, the JWT-bearer grant and client_credentials. An API scope comes with
 * exactly one `dpv:` purpose, each (scope, purpose) pair declared by the operator, all within the client's allowed
 * scopes; the fused `dpv:…#scope` form is refused. Every refusal is `invalid_scope`.
 */
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
// Purposes of this file's own declarations (other files declare dpv:FraudPreventionAndDetection).
const LI = "dpv:ServiceProvision"; //           legitimate_interest for sim-swap:check
const CONSENT = "dpv:IdentityVerification"; //   consent for kyc-match:match
const UNDECLARED = "dpv:AccountManagement"; //   never declared for sim-swap:retrieve-date
const ALL = ["sim-swap:check", "sim-swap:retrieve-date", "kyc-match:match", "number-verification:verify", LI, CONSENT,
  UNDECLARED];

const BAD_REQUESTS: Array<[string, string]> = [
  ["no purpose", "sim-swap:check"],
  ["two purposes", `sim-swap:check ${LI} ${CONSENT}`],
  ["an undeclared (scope, purpose) pair", `sim-swap:retrieve-date ${UNDECLARED}`],
  ["the fused dpv:…#scope form", `${LI}#sim-swap:check`],
  ["a purpose alone", LI],
  ["a purpose the client is not allowed", "sim-swap:check dpv:RequestedServiceProvision"],
];

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

async function form(path: string, client: { id: string; secret?: string }, fields: Record<string, string>) {
  const res = await fetch(`${baseUrl}${path}`, {
    method: "POST", body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(client.id, client.secret!) },
  });
  return { status: res.status, body: await res.json() as Record<string, string> };
}

beforeAll(async () => {
  await declarePurpose("sim-swap:check", LI, "legitimate_interest");
  await declarePurpose("kyc-match:match", CONSENT, "consent");
  await declarePurpose("kyc-match:match", LI, "legitimate_interest");
  await db.apiPurpose.deleteMany({ where: { scope: "sim-swap:retrieve-date", purpose: UNDECLARED } });
});

describe("network-API scopes at /authorize", () => {
  it.each(BAD_REQUESTS)("%s: invalid_scope redirected to the client", async (_why, scope) => {
    const client = await createApiClient({ scopes: ALL });
    const q = requestFor(client, { scope: `openid ${scope}` });
    const description = expectErrorRedirect(await authorize(q), client, q.state, "invalid_scope");
    expect(description).toBeTruthy();
  });

  it("an API scope the client is not allowed: invalid_scope", async () => {
    const client = await createApiClient({ scopes: ["sim-swap:check", LI] });
    const q = requestFor(client, { scope: `openid kyc-match:match ${LI}` });
    expect(expectErrorRedirect(await authorize(q), client, q.state, "invalid_scope")).toMatch(/kyc-match:match/);
  });

  it("names the undeclared pair in the description", async () => {
    const client = await createApiClient({ scopes: ALL });
    const q = requestFor(client, { scope: `openid sim-swap:retrieve-date ${UNDECLARED}` });
    expect(expectErrorRedirect(await authorize(q), client, q.state, "invalid_scope"))
      .toMatch(/sim-swap:retrieve-date cannot be used for the purpose dpv:AccountManagement/);
  });

  it("a well-formed, declared request goes on to sign-in", async () => {
    const client = await createApiClient({ scopes: ALL });
    const res = await authorize(requestFor(client, { scope: `openid sim-swap:check ${LI}` }));
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!).pathname).toMatch(/^\/interaction\//);
  });
});

describe("network-API scopes at /par", () => {
  it.each(BAD_REQUESTS)("%s: invalid_scope", async (_why, scope) => {
    const client = await createApiClient({ scopes: ALL });
    const res = await form("/par", client, requestFor(client, { scope: `openid ${scope}` }));
    expect(res.status).toBe(400);
    expect(res.body.error, res.body.error_description).toBe("invalid_scope");
  });

  it("a declared request is pushed", async () => {
    const client = await createApiClient({ scopes: ALL });
    const res = await form("/par", client, requestFor(client, { scope: `openid sim-swap:check ${LI}` }));
    expect(res.status).toBe(201);
  });
});

describe("network-API scopes at /bc-authorize", () => {
  it.each(BAD_REQUESTS)("%s: invalid_scope", async (_why, scope) => {
    const client = await createApiClient({ scopes: ALL, grantTypes: [CIBA_GRANT_TYPE] });
    const subscriber = await createTestSubscriber();
    const res = await backchannelAuthenticate(client, { scope: `openid ${scope}`, login_hint: `MSISDN:${subscriber.msisdn}` });
    const body = await res.json() as Record<string, string>;
    expect(res.status).toBe(400);
    expect(body.error, body.error_description).toBe("invalid_scope");
  });
});

describe("network-API scopes at the JWT-bearer grant", () => {
  async function bearerClient() {
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const kid = `k-${randomToken(4)}`;
    // Registered through the admin validation (createClient): API and purpose scopes are accepted.
    const { client, clientSecret } = await createClient({
      name: `Net${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`, redirectUris: ["https://rp-net.example.test/cb"],
      scopes: ["openid", ...ALL], jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: "ES256" }] },
      grantTypes: [JWT_BEARER],
    });
    return { id: client.id, secret: clientSecret!, privateKey, kid };
  }

  it.each(BAD_REQUESTS)("%s: invalid_scope", async (_why, scope) => {
    const rp = await bearerClient();
    const subscriber = await createTestSubscriber();
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ iss: rp.id, aud: baseUrl, jti: randomUUID(), iat: now, exp: now + 120,
      sub: `tel:+${subscriber.msisdn}`, scope })
      .setProtectedHeader({ alg: "ES256", kid: rp.kid }).sign(rp.privateKey);
    const res = await form("/token", rp, { grant_type: JWT_BEARER, assertion });
    expect(res.status).toBe(400);
    expect(res.body.error, res.body.error_description).toBe("invalid_scope");
  });
});

describe("network-API scopes at client_credentials (two-legged)", () => {
  const twoLegged = (scopes: string[]) =>
    createApiClient({ scopes: ALL, grantTypes: ["client_credentials"], clientCredentialsScopes: scopes });

  it("SIM Swap with a legitimate-interest purpose: a token", async () => {
    const client = await twoLegged(["sim-swap:check", LI]);
    const res = await form("/token", client, { grant_type: "client_credentials", scope: `sim-swap:check ${LI}` });
    expect(res.status, res.body.error_description).toBe(200);
    expect(res.body.scope).toBe(`sim-swap:check ${LI}`);
  });

  it("a scope whose declared basis is consent: invalid_scope", async () => {
    const client = await twoLegged(["kyc-match:match", CONSENT]);
    const res = await form("/token", client, { grant_type: "client_credentials", scope: `kyc-match:match ${CONSENT}` });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_scope");
    expect(res.body.error_description).toMatch(/consent/);
  });

  it("Number Verification is never two-legged, even if the client's record lists it", async () => {
    await declarePurpose("number-verification:verify", LI, "legitimate_interest");
    const client = await twoLegged(["number-verification:verify", LI]);
    const res = await form("/token", client, { grant_type: "client_credentials", scope: `number-verification:verify ${LI}` });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_scope");
  });

  it("no purpose, two purposes, an undeclared pair: invalid_scope", async () => {
    const client = await twoLegged(["sim-swap:check", "sim-swap:retrieve-date", LI, UNDECLARED]);
    for (const scope of ["sim-swap:check", `sim-swap:check ${LI} ${UNDECLARED}`, `sim-swap:retrieve-date ${UNDECLARED}`]) {
      const res = await form("/token", client, { grant_type: "client_credentials", scope });
      expect(res.status, scope).toBe(400);
      expect(res.body.error, scope).toBe("invalid_scope");
    }
  });

  it("the admin validation accepts SIM Swap and KYC Match scopes for client_credentials, never Number Verification", async () => {
    const base = { name: `Cc${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`, redirectUris: ["https://rp-cc.example.test/cb"],
      scopes: ["openid"], grantTypes: ["client_credentials"] as const };
    await expect(createClient({ ...base, clientCredentialsScopes: ["sim-swap:check", "kyc-match:match", LI] }))
      .resolves.toBeTruthy();
    await expect(createClient({ ...base, name: `${base.name}x`, clientCredentialsScopes: ["number-verification:verify"] }))
      .rejects.toThrow(/unknown scope/);
  });
});

describe("discovery", () => {
  it("scopes_supported lists the network-API scopes", async () => {
    const meta = await (await fetch(`${baseUrl}/.well-known/openid-configuration`)).json() as { scopes_supported: string[] };
    expect(meta.scopes_supported).toEqual(expect.arrayContaining(["number-verification:verify", "sim-swap:check",
      "kyc-match:match"]));
  });
});
