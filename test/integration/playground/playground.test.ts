import { describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db";
import { verifySecret } from "@/lib/crypto";
import { SUPPORTED_SCOPES } from "@/lib/oauth/scopes";
import { ensurePlaygroundClient } from "@/lib/playground/ensure-playground-client";
import { playgroundClientSecret } from "@/lib/playground/playground-settings";

const baseUrl = inject("baseUrl");

const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]!);

function start(fields: Array<[string, string]>, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}/playground/start`, {
    method: "POST", redirect: "manual", body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, ...headers },
  });
}

describe("relying-party playground (next-auth)", () => {
  it("registers its own client on first use, idempotently, with the derived secret", async () => {
    const page = await fetch(`${baseUrl}/playground`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Relying-party playground");
    const row = (await db.client.findUnique({ where: { id: "playground" } }))!;
    expect(row).toMatchObject({ name: "Playground", expiresInFormat: "seconds", isPublic: false, status: "active" });
    expect(JSON.parse(row.redirectUris)).toEqual([`${baseUrl}/api/auth/callback/operator`]);
    expect(JSON.parse(row.postLogoutRedirectUris)).toEqual([`${baseUrl}/playground`]);
    expect(row.allowedScopes.split(" ")).toEqual([...SUPPORTED_SCOPES]);
    expect(await verifySecret(playgroundClientSecret(), row.secretHash!)).toBe(true);
    await ensurePlaygroundClient();
    expect((await db.client.findUnique({ where: { id: "playground" } }))!.updatedAt).toEqual(row.updatedAt);
  });

  it("lists the operator provider in next-auth", async () => {
    const res = await fetch(`${baseUrl}/api/auth/providers`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      operator: { id: "operator", type: "oauth", callbackUrl: `${baseUrl}/api/auth/callback/operator` },
    });
  });

  it("sends the form's parameters through next-auth's signin to /authorize, which accepts them", async () => {
    const res = await start([
      ["scope", "mc_authn"], ["scope", "mc_identity_phonenumber"], ["scope", "bogus"], ["acr_values", "3"],
      ["display", "page"], ["prompt", ""], ["login_hint_type", "MSISDN"], ["login_hint_value", "+447700900001"],
      ["max_age", "600"], ["ui_locales", "fr"],
    ]);
    expect(res.status).toBe(303);
    const url = new URL(res.headers.get("location")!);
    expect(`${url.origin}${url.pathname}`).toBe(`${baseUrl}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: "playground", client_name: "Playground", response_type: "code",
      redirect_uri: `${baseUrl}/api/auth/callback/operator`, scope: "openid mc_authn mc_identity_phonenumber",
      acr_values: "3", display: "page", login_hint: "MSISDN:447700900001", max_age: "600", ui_locales: "fr",
      code_challenge_method: "S256",
    });
    for (const p of ["state", "nonce", "code_challenge"]) expect(url.searchParams.get(p)).toBeTruthy();
    expect(url.searchParams.has("prompt")).toBe(false);
    const names = cookiesOf(res).map((c) => c.split("=")[0]);
    expect(names).toEqual(expect.arrayContaining([
      "next-auth.state", "next-auth.pkce.code_verifier", "next-auth.nonce", "playground.authorize-url"]));

    const authorize = await fetch(url, { redirect: "manual" });
    expect(authorize.status).toBeGreaterThanOrEqual(300);
    expect(authorize.status).toBeLessThan(400);
    expect(authorize.headers.get("location")).toMatch(/\/interaction\//);
  });

  it("refuses cross-site posts", async () => {
    const res = await start([["scope", "openid"]], { "sec-fetch-site": "cross-site" });
    expect(res.status).toBe(403);
    const logout = await fetch(`${baseUrl}/playground/logout`, { method: "POST", redirect: "manual", headers: { origin: "https://evil.example" } });
    expect(logout.status).toBe(403);
  });

  it("shows a signed-out page and refuses to revoke without a session", async () => {
    const res = await fetch(`${baseUrl}/playground/revoke`, {
      method: "POST", redirect: "manual", headers: { origin: baseUrl, "content-type": "application/x-www-form-urlencoded" },
      body: "token=access_token",
    });
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("no access_token to revoke");
  });
});
