import { describe, expect, it } from "vitest";
import { createRemoteJWKSet, jwtVerify } from "jose";
import {
  authorize, baseUrl, codeRow, createTestClient, createTestSubscriber, expectCallback, grant, requestFor, signedInBrowser,
} from "../../support/authorize-support";
import { basic } from "../../support/codes";

/**
 * RFC 9700 items of issue 6 that no other suite pins down end to end: `iss` advertised (RFC 9207
 * §3), PKCE `plain` not advertised, a short code lifetime, and `state`/`nonce` round trips with
 * awkward characters through the real /authorize -> /token path.
 */
describe("protocol hardening", () => {
  it("a JSON body with an unpaired surrogate escape is invalid_request at every endpoint that reads one (was a 500)", async () => {
    // "\ud800" in JSON decodes to half a UTF-16 pair, which the database layer cannot serialise.
    const body = '{"client_id":"\\ud800","token":"t","code":"c","grant_type":"authorization_code"}';
    for (const path of ["/token", "/revoke", "/introspect"]) {
      const res = await fetch(`${baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body });
      expect(res.status, path).toBe(400);
      expect((await res.json()).error, path).toBe("invalid_request");
    }
    // A well-formed pair (an emoji) is ordinary text: an unknown client, not a malformed request.
    const res = await fetch(`${baseUrl}/revoke`, { method: "POST", headers: { "content-type": "application/json" },
      body: '{"client_id":"\\ud83d\\ude00","token":"t"}' });
    expect((await res.json()).error).toBe("invalid_client");
  });

  it("metadata advertises iss in the authorization response and S256 only", async () => {
    const m = await (await fetch(`${baseUrl}/.well-known/openid-configuration`)).json();
    expect(m.authorization_response_iss_parameter_supported).toBe(true);
    expect(m.code_challenge_methods_supported).toEqual(["S256"]);
  });

  it("an issued code lives at most CODE_TTL (60 s by default), and state/nonce come back byte for byte", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    await grant(subscriber, client);
    const { browserId } = await signedInBrowser(subscriber);
    const state = "s p&a=c%e\u00e9\u{1F600}<>\"'#?";
    const nonce = "n o&n=c%e\u00e9\u{1F600}";
    const params = expectCallback(await authorize(requestFor(client, { state, nonce }), { browserId }), client, state);
    const code = params.get("code")!;
    const row = (await codeRow(code))!;
    const lifetime = row.expiresAt.getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(0);
    expect(lifetime).toBeLessThanOrEqual(60_000);
    const res = await fetch(`${baseUrl}/token`, {
      method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(client.id, client.secret!) },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: client.redirectUri }),
    });
    expect(res.status).toBe(200);
    const { id_token } = await res.json();
    const { payload } = await jwtVerify(id_token, createRemoteJWKSet(new URL(`${baseUrl}/jwks`)), { issuer: baseUrl, audience: client.id });
    expect(payload.nonce).toBe(nonce);
  });

  it("post_logout_redirect_uri: only the exact registered URI is ever redirected to", async () => {
    const bye = "https://rp.example.test/bye";
    const client = await createTestClient({ postLogoutRedirectUris: [bye] });
    const logout = (uri: string) => fetch(`${baseUrl}/logout?${new URLSearchParams({ client_id: client.id,
      post_logout_redirect_uri: uri, state: "s" })}`, { redirect: "manual" });
    for (const uri of [`${bye}/`, `${bye}x`, "https://RP.example.test/bye", "https://rp.example.test:444/bye",
      "http://rp.example.test/bye", "https://evil.example@rp.example.test/bye", "https://rp.example.test@evil.example/bye",
      "https://rp.example.test/%62ye", `${bye}?x=1`, `${bye}#x`, "//evil.example/bye", "https://evil.example/bye"]) {
      const res = await logout(uri);
      expect(res.status, uri).toBe(400);
      expect(res.headers.get("location"), uri).toBeNull();
    }
    const ok = await logout(bye);
    expect(ok.headers.get("location")).toBe(`${bye}?state=s`);
  });
});
