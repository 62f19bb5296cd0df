import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, inject, it } from "vitest";
import { TEST_SECRETS } from "../../support/server";
import { decodeProtectedHeader } from "jose";
import {
  authorize, baseUrl, createTestClient, createTestSubscriber, db, expectCallback, grant, requestFor, signedInBrowser,
} from "../../support/authorize-support";
import { consoleSignIn, createTestStaff } from "../../support/console-support";

/**
 * The console's signing keys (issue 22) over real HTTP: a rotation from the console (the Next.js bundle) is seen at
 * once by /jwks and /token (the lean bundle): the key cache is one per process, on globalThis. A retired key leaves
 * the JWKS early only with the explicit confirmation. Viewers and care read the timeline only.
 */
const jwksKids = async () =>
  ((await (await fetch(`${baseUrl}/jwks`)).json()) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid);

async function idTokenKid(): Promise<string> {
  const client = await createTestClient({ expiresInFormat: "seconds" });
  const subscriber = await createTestSubscriber();
  const { browserId } = await signedInBrowser(subscriber);
  await grant(subscriber, client);
  const req = requestFor(client);
  const code = expectCallback(await authorize(req, { browserId }), client, req.state).get("code")!;
  const res = await fetch(`${baseUrl}/token`, {
    method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: client.redirectUri, client_id: client.id,
      client_secret: client.secret! }),
  });
  expect(res.status).toBe(200);
  return decodeProtectedHeader(((await res.json()) as { id_token: string }).id_token).kid!;
}

describe("console signing keys", () => {
  it("rotates the sig key: /jwks and new id tokens use it at once; a retired key is removed early only when confirmed", async () => {
    const s = await consoleSignIn(baseUrl, await createTestStaff("admin"));
    const before = await idTokenKid(); // warms the lean path's key cache
    const nextKid = (await db.key.findFirstOrThrow({ where: { use: "sig", alg: "RS256", status: "next" },
      orderBy: { createdAt: "asc" } })).kid;
    // The console rotates only to a key published for a key-cache lifetime (60 s); this server's is younger.
    await db.key.update({ where: { kid: nextKid }, data: { createdAt: new Date(Date.now() - 120_000) } });

    const res = await s.post("/console/keys/rotate", { use: "sig", alg: "RS256" }, "/console/keys");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toContain("/console/keys?done=rotated");
    const upcoming = (await db.key.findFirstOrThrow({ where: { use: "sig", alg: "RS256", status: "next" },
      orderBy: { createdAt: "desc" } })).kid;
    const kids = await jwksKids();
    expect(kids).toEqual(expect.arrayContaining([before, nextKid, upcoming]));
    expect(await idTokenKid()).toBe(nextKid);
    const page = await (await s.get("/console/keys")).text();
    expect(page).toContain(upcoming);
    const tooSoon = await s.post("/console/keys/rotate", { use: "sig", alg: "RS256" }, "/console/keys");
    expect(tooSoon.status).toBe(400); // the new next key is not yet in every instance's JWKS
    expect(await tooSoon.text()).toContain("rotate again in a minute");

    const refused = await s.post("/console/keys/unpublish", { kid: before }, "/console/keys");
    expect(refused.headers.get("location")).toContain("e=confirm");
    expect(await jwksKids()).toContain(before);
    const active = await s.post("/console/keys/unpublish", { kid: nextKid, confirm: "yes" }, "/console/keys");
    expect(active.status).toBe(400); // the active key leaves the JWKS only by rotating

    const gone = await s.post("/console/keys/unpublish", { kid: before, confirm: "yes" }, "/console/keys");
    expect(gone.headers.get("location")).toContain("done=unpublished");
    expect(await jwksKids()).not.toContain(before);
    expect((await db.key.findUniqueOrThrow({ where: { kid: before } })).status).toBe("retired");
    const types = (await db.auditEvent.findMany({ where: { type: { startsWith: "console_keys_" }, outcome: "success" } }))
      .map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(["console_keys_rotate", "console_keys_unpublish"]));
  });

  it("lets one of 5 parallel rotations (a double click) rotate; the others are refused, with one audit row", async () => {
    const s = await consoleSignIn(baseUrl, await createTestStaff("admin"));
    const nextKid = (await db.key.findFirstOrThrow({ where: { use: "enc", status: "next" }, orderBy: { createdAt: "asc" } })
      .catch(() => null))?.kid;
    if (nextKid) await db.key.update({ where: { kid: nextKid }, data: { createdAt: new Date(Date.now() - 120_000) } });
    const audited = () => db.auditEvent.count({ where: { type: "console_keys_rotate", outcome: "success" } });
    const before = await audited();
    const results = await Promise.all(Array.from({ length: 5 }, () => s.post("/console/keys/rotate", { use: "enc" }, "/console/keys")));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([303, 400, 400, 400, 400]);
    for (const r of results.filter((x) => x.status === 400)) {
      expect(await r.text()).toMatch(/another enc key rotation is in progress|rotate again in a minute/);
    }
    expect(await db.key.count({ where: { use: "enc", status: "active" } })).toBe(1);
    expect(await audited()).toBe(before + 1);
  });

  it("shows viewer and care the timeline without actions and refuses their POSTs with 403", async () => {
    for (const role of ["viewer", "care"] as const) {
      const s = await consoleSignIn(baseUrl, await createTestStaff(role));
      const page = await s.get("/console/keys");
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toMatch(/Signing \(sig\)|Signature \(sig\)/);
      expect(html).not.toMatch(/action="\/console\/keys\//);
      for (const verb of ["rotate", "unpublish"]) {
        const r = await s.post(`/console/keys/${verb}`, { use: "sig", kid: "x", confirm: "yes" }, "/console/keys");
        expect(r.status, `${role} ${verb}`).toBe(403);
      }
    }
  });
});

describe("keys unpublish in the admin CLI", () => {
  const root = fileURLToPath(new URL("../../..", import.meta.url));
  const cli = (...args: string[]) => new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(path.join(root, "node_modules", ".bin", "tsx"), ["scripts/admin.ts", ...args, "--json"], {
      cwd: root, env: { ...process.env, ...TEST_SECRETS, DATABASE_URL: inject("databaseUrl") }, timeout: 60_000,
    }, (err, stdout) => resolve({ code: err ? 1 : 0, stdout }));
  });

  it("needs --confirm and refuses the active key", { timeout: 90_000 }, async () => {
    const active = (await db.key.findFirstOrThrow({ where: { use: "sig", alg: "RS256", status: "active" } })).kid;
    const bare = await cli("keys", "unpublish", active);
    expect(bare.code).toBe(1);
    expect(JSON.parse(bare.stdout).error).toMatch(/--confirm/);
    const refused = await cli("keys", "unpublish", active, "--confirm");
    expect(JSON.parse(refused.stdout).error).toMatch(/only a retired key/);
    expect(await jwksKids()).toContain(active);
  });
});
