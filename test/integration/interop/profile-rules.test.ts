import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeJwt } from "jose";
import { createClient } from "@/lib/clients/create-client";
import { updateClient } from "@/lib/clients/update-client";
import { SUPPORTED_SCOPES } from "@/lib/oauth/scopes";
import {
  authorize, baseUrl, createTestSubscriber, db, expectCallback, expectErrorRedirect, grant, requestFor, signedInBrowser,
} from "../../support/authorize-support";

/**
 * Client profiles (lib/clients/client-profile.ts, docs/interface.md "Client profiles") over HTTP: what
 * /authorize requires and what /token answers, for a client of each profile registered through
 * createClient (the admin CLI's path).
 */
const VERIFIER = "dBjftJeZ4CVP-mJ92K9qgFsQJ4MCH1Kj1jrNMg-qpwE"; // RFC 7636 appendix B
const CHALLENGE = createHash("sha256").update(VERIFIER).digest("base64url");
const PKCE = { code_challenge: CHALLENGE, code_challenge_method: "S256" };

async function register(profile?: "oidc" | "mobile-connect") {
  const name = `Profile${Math.random().toString(36).slice(2, 10)}`;
  const redirectUri = "https://rp.example.test/callback";
  const { client, clientSecret } = await createClient({ name, redirectUris: [redirectUri], scopes: [...SUPPORTED_SCOPES],
    ...(profile ? { profile } : {}) });
  return { id: client.id, secret: clientSecret!, name, redirectUri, profile: client.profile, format: client.expiresInFormat };
}

/** A browser already signed in with consent given: /authorize answers with the code at once. */
async function codeFor(rp: Awaited<ReturnType<typeof register>>, overrides: Record<string, string | undefined>) {
  const subscriber = await createTestSubscriber();
  const { browserId } = await signedInBrowser(subscriber);
  await grant(subscriber, rp);
  const res = await authorize(requestFor(rp, overrides), { browserId });
  return expectCallback(res, rp, overrides.state).get("code")!;
}

async function exchange(rp: { id: string; secret: string; redirectUri: string }, code: string, verifier?: string) {
  const res = await fetch(`${baseUrl}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${rp.id}:${rp.secret}`).toString("base64")}` },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: rp.redirectUri,
      ...(verifier ? { code_verifier: verifier } : {}) }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { id_token: string; expires_in: unknown };
}

describe("registration: the profile and the expires_in format it implies", () => {
  it("new clients are oidc with expires_in in seconds; mobile-connect gets the absolute time", async () => {
    expect(await register()).toMatchObject({ profile: "oidc", format: "seconds" });
    expect(await register("mobile-connect")).toMatchObject({ profile: "mobile-connect", format: "timestamp" });
  });

  it("an explicit expires_in format overrides the profile's; changing the profile brings its format", async () => {
    const { client } = await createClient({ name: `Profile${Math.random().toString(36).slice(2, 10)}`,
      redirectUris: ["https://rp.example.test/cb"], scopes: ["openid"], profile: "mobile-connect", expiresInFormat: "seconds" });
    expect(client).toMatchObject({ profile: "mobile-connect", expiresInFormat: "seconds" });
    expect(await updateClient({ clientId: client.id, changes: { profile: "oidc" } }))
      .toMatchObject({ profile: "oidc", expiresInFormat: "seconds" });
    expect(await updateClient({ clientId: client.id, changes: { profile: "mobile-connect" } }))
      .toMatchObject({ profile: "mobile-connect", expiresInFormat: "timestamp" });
    expect(await updateClient({ clientId: client.id, changes: { profile: "oidc", expiresInFormat: "timestamp" } }))
      .toMatchObject({ profile: "oidc", expiresInFormat: "timestamp" });
    await expect(updateClient({ clientId: client.id, changes: { profile: "saml" as "oidc" } })).rejects.toThrow(/profile/);
  });

  it("a row written without a profile (the migration, older code) reads as mobile-connect", async () => {
    const rp = await register();
    await db.client.update({ where: { id: rp.id }, data: { profile: "" } });
    const { toRegisteredClient } = await import("@/lib/clients/get-client");
    expect(toRegisteredClient((await db.client.findUniqueOrThrow({ where: { id: rp.id } }))).profile).toBe("mobile-connect");
  });
});

describe("oidc profile at /authorize and /token", () => {
  it("without nonce: works, and the id_token carries none; expires_in is a number of seconds", async () => {
    const rp = await register("oidc");
    const state = "s-1";
    const tokens = await exchange(rp, await codeFor(rp, { state, nonce: undefined }));
    expect(decodeJwt(tokens.id_token).nonce).toBeUndefined();
    expect(tokens.expires_in).toBe(3600);
  });

  it("with a nonce: it is still echoed in the id_token", async () => {
    const rp = await register("oidc");
    const tokens = await exchange(rp, await codeFor(rp, { state: "s-2", nonce: "n-echo" }));
    expect(decodeJwt(tokens.id_token).nonce).toBe("n-echo");
  });

  it("without state but with PKCE S256: works, and the callback carries no state", async () => {
    const rp = await register("oidc");
    const code = await codeFor(rp, { state: undefined, nonce: undefined, ...PKCE });
    expect((await exchange(rp, code, VERIFIER)).expires_in).toBe(3600);
  });

  it("without state and without PKCE: refused with invalid_request at the redirect URI", async () => {
    const rp = await register("oidc");
    const res = await authorize(requestFor(rp, { state: undefined, nonce: undefined }));
    expect(expectErrorRedirect(res, rp, undefined, "invalid_request"))
      .toBe("parameter state is missing: it is required unless PKCE (S256) is used");
    const plain = await authorize(requestFor(rp, { state: undefined, code_challenge: CHALLENGE, code_challenge_method: "plain" }));
    expectErrorRedirect(plain, rp, undefined, "invalid_request");
  });
});

describe("mobile-connect profile: the interface as written", () => {
  it("without nonce: refused as before", async () => {
    const rp = await register("mobile-connect");
    const res = await authorize(requestFor(rp, { state: "s-3", nonce: undefined }));
    expect(expectErrorRedirect(res, rp, "s-3", "invalid_request")).toBe("MANDATORY parameter nonce is missing or invalid");
  });

  it("without state, even with PKCE S256: refused", async () => {
    const rp = await register("mobile-connect");
    const res = await authorize(requestFor(rp, { state: undefined, ...PKCE }));
    expect(expectErrorRedirect(res, rp, undefined, "invalid_request")).toBe("MANDATORY parameter state is missing");
  });

  it("with nonce and state: the code flow completes and expires_in is the absolute time, a string", async () => {
    const rp = await register("mobile-connect");
    const tokens = await exchange(rp, await codeFor(rp, { state: "s-4", nonce: "n-4" }));
    expect(decodeJwt(tokens.id_token).nonce).toBe("n-4");
    expect(tokens.expires_in).toMatch(/^\d{10}$/);
    expect(Math.abs(Number(tokens.expires_in) - (Math.floor(Date.now() / 1000) + 3600))).toBeLessThan(10);
  });
});
