import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, inject, it } from "vitest";
import { TEST_SECRETS } from "../../support/server";
import {
  authorize, baseUrl, createTestSubscriber, db, expectCallback, expectErrorPage, grant, requestFor, signedInBrowser,
} from "../../support/authorize-support";
import { consoleSignIn, createTestStaff, type ConsoleHttpSession } from "../../support/console-support";

/**
 * The console's clients (issue 22) over real HTTP: an administrator registers a client, which then completes a code
 * flow at /token; edits it; rotates its secret; disables it (unknown at every endpoint, its tokens refused at once:
 * the console's cache invalidation reaches the lean server's) and enables it again. Viewers and care read only.
 */
const FIELDS = {
  kind: "confidential", post_logout_redirect_uris: "https://rp.example.test/bye", scopes: "openid profile",
  profile: "oidc", expires_in: "default", auth_method: "default", jwks_uri: "", grant_0: "on", grant_1: "on",
};

/** The values of a show-once page (`<dt>label</dt><dd><code>value</code></dd>`). */
async function shown(res: Response): Promise<Record<string, string>> {
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toContain("no-store");
  const html = await res.text();
  return Object.fromEntries([...html.matchAll(/<dt>([^<]+)<\/dt><dd><code>([^<]+)<\/code><\/dd>/g)].map((m) => [m[1], m[2]]));
}

async function createViaConsole(s: ConsoleHttpSession, extra: Record<string, string> = {}) {
  const name = `Console${Math.random().toString(36).slice(2, 10)}`;
  const res = await s.post("/console/clients/create",
    { ...FIELDS, name, redirect_uris: "https://rp.example.test/callback", ...extra }, "/console/clients");
  const v = await shown(res);
  return { id: v.client_id!, secret: v.client_secret, name, redirectUri: "https://rp.example.test/callback" };
}

/** A code for `client` from a signed-in browser with remembered consent (no screen). */
async function codeFor(client: { id: string; redirectUri: string; name: string; secret: string | undefined }, redirectUri = client.redirectUri) {
  const subscriber = await createTestSubscriber();
  const { browserId } = await signedInBrowser(subscriber);
  await grant(subscriber, client, "openid profile");
  const c = { ...client, redirectUri };
  const req = requestFor(c, { scope: "openid profile" });
  const res = await authorize(req, { browserId });
  return expectCallback(res, c, req.state).get("code")!;
}

function token(clientId: string, secret: string, fields: Record<string, string>) {
  return fetch(`${baseUrl}/token`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
}

const exchange = (client: { id: string; redirectUri: string }, secret: string, code: string, redirectUri = client.redirectUri) =>
  token(client.id, secret, { grant_type: "authorization_code", code, redirect_uri: redirectUri });

const userinfo = (accessToken: string) => fetch(`${baseUrl}/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });

describe("console clients (admin)", () => {
  it("registers a client that completes a code flow; the secret is shown once and only its hash stored", async () => {
    const admin = await createTestStaff("admin");
    const s = await consoleSignIn(baseUrl, admin);
    const client = await createViaConsole(s);
    expect(client.secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const row = await db.client.findUniqueOrThrow({ where: { id: client.id } });
    expect(row.secretHash).not.toContain(client.secret);
    expect(JSON.parse(row.postLogoutRedirectUris)).toEqual(["https://rp.example.test/bye"]);

    const res = await exchange(client, client.secret!, await codeFor(client));
    expect(res.status).toBe(200);
    const tokens = (await res.json()) as { access_token: string; id_token: string };
    expect((await userinfo(tokens.access_token)).status).toBe(200);

    const page = await (await s.get(`/console/clients/${client.id}`)).text();
    expect(page).toContain(client.id);
    expect(page).not.toContain(row.secretHash!);
    expect(page).not.toContain(client.secret!);
    const audit = await db.auditEvent.findFirst({ where: { type: "console_client_create", clientId: client.id } });
    expect(audit?.staffId).toBeTruthy();
  });

  it("edits redirect URIs, scopes and options; a bad value is refused with 400 and changes nothing", async () => {
    const s = await consoleSignIn(baseUrl, await createTestStaff("admin"));
    const client = await createViaConsole(s);
    const other = "https://rp.example.test/other";
    const res = await s.post("/console/clients/update", {
      ...FIELDS, client_id: client.id, redirect_uris: `${client.redirectUri}\n${other}`, scopes: "openid profile email",
      expires_in: "timestamp", grant_0: "on", grant_1: "on", require_dpop: "",
    }, `/console/clients/${client.id}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toContain(`/console/clients/${client.id}?done=updated`);
    const row = await db.client.findUniqueOrThrow({ where: { id: client.id } });
    expect(JSON.parse(row.redirectUris)).toEqual([client.redirectUri, other]);
    expect(row.allowedScopes).toBe("openid profile email");
    expect(row.expiresInFormat).toBe("timestamp");
    // The new redirect URI works at once (the console's edit invalidated the lean path's client cache).
    expect((await exchange(client, client.secret!, await codeFor(client, other), other)).status).toBe(200);

    const bad = await s.post("/console/clients/update",
      { ...FIELDS, client_id: client.id, redirect_uris: "http://not-loopback.example/cb" }, `/console/clients/${client.id}`);
    expect(bad.status).toBe(400);
    expect(JSON.parse((await db.client.findUniqueOrThrow({ where: { id: client.id } })).redirectUris)).toHaveLength(2);
    expect(await db.auditEvent.count({ where: { type: "console_client_update", clientId: client.id } })).toBe(1);
  });

  it("rotates the secret: shown once; the old secret is refused at /token, the new one accepted", async () => {
    const s = await consoleSignIn(baseUrl, await createTestStaff("admin"));
    const client = await createViaConsole(s);
    expect((await exchange(client, client.secret!, await codeFor(client))).status).toBe(200); // cached in the lean path
    const v = await shown(await s.post("/console/clients/rotate-secret", { client_id: client.id }, `/console/clients/${client.id}`));
    expect(v.client_id).toBe(client.id);
    expect(v.client_secret).not.toBe(client.secret);
    const code = await codeFor(client);
    const old = await exchange(client, client.secret!, code);
    expect(old.status).toBe(401);
    expect(((await old.json()) as { error: string }).error).toBe("invalid_client");
    expect((await exchange(client, v.client_secret!, code)).status).toBe(200);
    expect(await db.auditEvent.count({ where: { type: "console_client_rotate_secret", clientId: client.id } })).toBe(1);
  });

  it("disables a client: unknown everywhere, its tokens refused at once; enabling brings it back, old tokens stay revoked", async () => {
    const s = await consoleSignIn(baseUrl, await createTestStaff("admin"));
    const client = await createViaConsole(s, { grant_1: "on" });
    const first = (await (await exchange(client, client.secret!, await codeFor(client))).json()) as {
      access_token: string; refresh_token: string;
    };
    expect((await userinfo(first.access_token)).status).toBe(200);

    const res = await s.post("/console/clients/disable", { client_id: client.id }, `/console/clients/${client.id}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toContain("done=disabled");
    expect((await db.client.findUniqueOrThrow({ where: { id: client.id } })).status).toBe("disabled");

    expect((await userinfo(first.access_token)).status).toBe(401);
    const premium = await fetch(`${baseUrl}/premiuminfo`, { headers: { authorization: `Bearer ${first.access_token}` } });
    expect(premium.status).toBe(401);
    const refresh = await token(client.id, client.secret!, { grant_type: "refresh_token", refresh_token: first.refresh_token });
    expect(refresh.status).toBe(401);
    expect(((await refresh.json()) as { error: string }).error).toBe("invalid_client");
    for (const path of ["/introspect", "/revoke", "/par", "/bc-authorize"]) {
      const r = await fetch(`${baseUrl}${path}`, {
        method: "POST", body: new URLSearchParams({ token: first.access_token, scope: "openid", client_id: client.id,
          client_secret: client.secret!, redirect_uri: client.redirectUri, response_type: "code" }),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(r.status, path).toBe(401);
      expect(((await r.json()) as { error: string }).error, path).toBe("invalid_client");
    }
    const subscriber = await createTestSubscriber();
    const { browserId } = await signedInBrowser(subscriber);
    await expectErrorPage(await authorize(requestFor(client), { browserId }));
    const page = await (await s.get("/console/clients")).text();
    expect(page).toMatch(new RegExp(`${client.id}[\\s\\S]*?disabled`));

    // Another instance, still holding the client as active in its cache (up to 30 s), issued a token meanwhile:
    // "Revoke its tokens again" (the same disable action, offered on a disabled client's page) revokes it.
    const detail = await (await s.get(`/console/clients/${client.id}`)).text();
    expect(detail).toContain("Revoke its tokens again");
    expect(detail).toContain('action="/console/clients/enable"');
    expect(detail).toContain('action="/console/clients/disable"');
    await db.accessToken.updateMany({ where: { clientId: client.id }, data: { revokedAt: null } });
    const again = await s.post("/console/clients/disable", { client_id: client.id }, `/console/clients/${client.id}`);
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toContain("done=revoked");
    expect(await db.accessToken.count({ where: { clientId: client.id, revokedAt: null } })).toBe(0);
    expect((await userinfo(first.access_token)).status).toBe(401);
    expect((await db.client.findUniqueOrThrow({ where: { id: client.id } })).status).toBe("disabled");
    const audits = await db.auditEvent.findMany({ where: { clientId: client.id, type: "console_client_disable" } });
    expect(audits.map((e) => JSON.parse(e.detail ?? "{}")).find((d) => d.again)).toMatchObject({ again: true });
    expect(audits.map((e) => JSON.parse(e.detail ?? "{}").revoked_tokens as number).every((n) => n >= 1)).toBe(true);
    expect(await (await s.get(`/console/clients/${client.id}?done=revoked`)).text()).toContain("revoked again");

    const en = await s.post("/console/clients/enable", { client_id: client.id }, `/console/clients/${client.id}`);
    expect(en.headers.get("location")).toContain("done=enabled");
    const fresh = (await (await exchange(client, client.secret!, await codeFor(client))).json()) as { access_token: string };
    expect((await userinfo(fresh.access_token)).status).toBe(200);
    expect((await userinfo(first.access_token)).status).toBe(401);
    const types = (await db.auditEvent.findMany({ where: { clientId: client.id, type: { startsWith: "console_client_" } } }))
      .map((e) => e.type).sort();
    expect(types).toEqual(["console_client_create", "console_client_disable", "console_client_disable",
      "console_client_enable"]);
  });
});

describe("console clients (viewer, care)", () => {
  it("lets viewer and care read the pages without any action, and refuses every POST with 403 (audited)", async () => {
    const admin = await consoleSignIn(baseUrl, await createTestStaff("admin"));
    const client = await createViaConsole(admin);
    for (const role of ["viewer", "care"] as const) {
      const staff = await createTestStaff(role);
      const s = await consoleSignIn(baseUrl, staff);
      const list = await s.get("/console/clients");
      expect(list.status).toBe(200);
      const listHtml = await list.text();
      expect(listHtml).toContain(client.id);
      expect(listHtml).not.toContain('action="/console/clients/create"');
      const one = await s.get(`/console/clients/${client.id}`);
      expect(one.status).toBe(200);
      const html = await one.text();
      expect(html).toContain(client.name);
      expect(html).not.toMatch(/action="\/console\/clients\//);
      for (const verb of ["create", "update", "rotate-secret", "disable", "enable"]) {
        const r = await s.post(`/console/clients/${verb}`, { ...FIELDS, client_id: client.id, name: "Nope" }, "/console/clients");
        expect(r.status, `${role} ${verb}`).toBe(403);
      }
      const who = await db.staff.findUniqueOrThrow({ where: { username: staff.username } });
      expect(await db.auditEvent.count({ where: { staffId: who.id, outcome: "denied" } })).toBe(5);
    }
    expect((await db.client.findUniqueOrThrow({ where: { id: client.id } })).status).toBe("active");
  });

  it("answers an unknown client id with 404", async () => {
    const s = await consoleSignIn(baseUrl, await createTestStaff("viewer"));
    expect((await s.get("/console/clients/no-such-client")).status).toBe(404);
  });
});

describe("client disable / enable in the admin CLI", () => {
  const root = fileURLToPath(new URL("../../..", import.meta.url));
  const cli = (...args: string[]) => new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(path.join(root, "node_modules", ".bin", "tsx"), ["scripts/admin.ts", ...args, "--json"], {
      cwd: root, env: { ...process.env, ...TEST_SECRETS, DATABASE_URL: inject("databaseUrl") }, timeout: 60_000,
    }, (err, stdout) => resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout }));
  });

  it("disables (tokens revoked at once, audited) and enables a client; a second disable revokes again", { timeout: 90_000 }, async () => {
    const s = await consoleSignIn(baseUrl, await createTestStaff("admin"));
    const client = await createViaConsole(s);
    const { access_token } = (await (await exchange(client, client.secret!, await codeFor(client))).json()) as { access_token: string };
    const off = await cli("client", "disable", client.id);
    expect(off.code).toBe(0);
    const out = JSON.parse(off.stdout) as { disabled: string; revoked_tokens: number };
    expect(out.disabled).toBe(client.id);
    expect(out.revoked_tokens).toBeGreaterThanOrEqual(1);
    expect((await userinfo(access_token)).status).toBe(401);
    await db.accessToken.updateMany({ where: { clientId: client.id }, data: { revokedAt: null } }); // another instance's
    const again = await cli("client", "disable", client.id);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ disabled: client.id, revoked_tokens: 1 });
    expect((await userinfo(access_token)).status).toBe(401);
    const on = await cli("client", "enable", client.id);
    expect(JSON.parse(on.stdout)).toEqual({ enabled: client.id });
    expect((await db.client.findUniqueOrThrow({ where: { id: client.id } })).status).toBe("active");
    expect(await db.auditEvent.count({ where: { clientId: client.id, type: { in: ["admin_client_disable", "admin_client_enable"] } } }))
      .toBe(3);
  });
});
