import { describe, expect, inject, it } from "vitest";
import { createTestClient, createTestSubscriber } from "../../support/fixtures";
import { basic, obtainTokens } from "../../support/codes";

const baseUrl = inject("baseUrl");
type Client = Awaited<ReturnType<typeof createTestClient>>;
const SCOPE = "openid mc_identity_phonenumber offline_access";

function revoke(client: Client, params: Record<string, string>, json = false) {
  return fetch(`${baseUrl}/revoke`, json
    ? { method: "POST", headers: { "Content-Type": "application/json", Authentication: basic(client.id, client.secret!) },
        body: JSON.stringify(params) }
    : { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded",
        Authorization: basic(client.id, client.secret!) }, body: new URLSearchParams(params) });
}
const premiumInfoStatus = async (token: string) => (await fetch(`${baseUrl}/premiuminfo?token=${token}`)).status;
function refresh(client: Client, refreshToken: string) {
  return fetch(`${baseUrl}/token`, { method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic(client.id, client.secret!) },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }) });
}

describe("revocation (RFC 7009)", () => {
  it("revokes an access token alone", async () => {
    const client = await createTestClient();
    const t = await obtainTokens(baseUrl, client, await createTestSubscriber(), { scope: SCOPE });
    const res = await revoke(client, { token: t.access_token, token_type_hint: "access_token" });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await premiumInfoStatus(t.access_token)).toBe(401);
    expect((await refresh(client, t.refresh_token!)).status).toBe(200);
  });

  it("revoking a refresh token revokes its family and the family's access tokens (JSON body, Authentication header)", async () => {
    const client = await createTestClient();
    const t = await obtainTokens(baseUrl, client, await createTestSubscriber(), { scope: SCOPE });
    const next = await (await refresh(client, t.refresh_token!)).json();
    // A wrong hint only orders the search.
    const res = await revoke(client, { token: next.refresh_token, token_type_hint: "access_token" }, true);
    expect(res.status).toBe(200);
    expect((await refresh(client, next.refresh_token)).status).toBe(400);
    expect(await premiumInfoStatus(next.access_token)).toBe(401);
    expect(await premiumInfoStatus(t.access_token)).toBe(401);
  });

  it("answers 200 for unknown and already revoked tokens, and for unknown hints", async () => {
    const client = await createTestClient();
    expect((await revoke(client, { token: "no-such-token" })).status).toBe(200);
    const t = await obtainTokens(baseUrl, client, await createTestSubscriber(), { scope: SCOPE });
    expect((await revoke(client, { token: t.access_token, token_type_hint: "something_else" })).status).toBe(200);
    expect((await revoke(client, { token: t.access_token })).status).toBe(200);
  });

  it("refuses to revoke another client's token (RFC 7009 §2.1) and leaves it working", async () => {
    const owner = await createTestClient();
    const other = await createTestClient();
    const t = await obtainTokens(baseUrl, owner, await createTestSubscriber(), { scope: SCOPE });
    for (const token of [t.access_token, t.refresh_token!]) {
      const res = await revoke(other, { token });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe("invalid_request");
    }
    expect(await premiumInfoStatus(t.access_token)).toBe(200);
    expect((await refresh(owner, t.refresh_token!)).status).toBe(200);
  });

  it("requires client authentication and the token parameter", async () => {
    const client = await createTestClient();
    const anonymous = await fetch(`${baseUrl}/revoke`, { method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "token=x" });
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error).toBe("invalid_client");
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Basic /);
    const missing = await revoke(client, {});
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toBe("invalid_request");
  });
});
