import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { freshDatabase, TEST_SECRETS } from "../../support/server";
import { db } from "@/lib/db";
import { config } from "@/lib/config";
import { randomToken, sha256 } from "@/lib/crypto";
import { getKeys } from "@/lib/keys/key-store";
import { createSubscriber } from "@/lib/subscribers/create-subscriber";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const TSX = path.join(root, "node_modules", ".bin", "tsx");
let databaseUrl = "";
vi.setConfig({ testTimeout: 90_000 });

// The CLI and this worker share one fresh database (as test/integration/admin/admin.test.ts does).
beforeAll(async () => {
  databaseUrl = freshDatabase("admin-logout");
  process.env.DATABASE_URL = databaseUrl;
  expect(config().DATABASE_URL).toBe(databaseUrl);
  await getKeys();
});

function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(TSX, ["scripts/admin.ts", ...args, "--json"], {
      cwd: root, env: { ...process.env, ...TEST_SECRETS, DATABASE_URL: databaseUrl },
    }, (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }));
  });
}

describe("admin CLI: logout registration of clients", () => {
  it("registers, changes and clears the logout URIs; refuses a bad one without changing anything", async () => {
    const created = await admin("client", "create", "--name", "LogoutApp", "--redirect-uri", "https://rp.example/cb",
      "--scope", "openid", "--backchannel-logout-uri", "https://rp.example/bc", "--backchannel-logout-session-required", "yes");
    expect(created.code, created.stderr + created.stdout).toBe(0);
    const id = (JSON.parse(created.stdout) as { client_id: string }).client_id;
    expect(await db.client.findUniqueOrThrow({ where: { id } })).toMatchObject({
      backchannelLogoutUri: "https://rp.example/bc", backchannelLogoutSessionRequired: true,
      frontchannelLogoutUri: null, frontchannelLogoutSessionRequired: false });

    const set = await admin("client", "set", id, "--frontchannel-logout-uri", "https://rp.example/fc",
      "--frontchannel-logout-session-required", "yes", "--backchannel-logout-uri", "none");
    expect(set.code, set.stderr + set.stdout).toBe(0);
    expect(JSON.parse(set.stdout).client).toMatchObject({ backchannel_logout_uri: null,
      frontchannel_logout_uri: "https://rp.example/fc", frontchannel_logout_session_required: true });

    for (const bad of ["http://rp.example/bc", "https://rp.example/bc#x", "not a uri"]) {
      const run = await admin("client", "set", id, "--backchannel-logout-uri", bad, "--status", "disabled");
      expect(run.code, bad).toBe(1);
      expect(JSON.parse(run.stdout).error).toMatch(/back-channel logout URI/);
    }
    expect(await db.client.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "active", backchannelLogoutUri: null });
  });

  it("subscriber suspend queues a logout notification (a running server delivers it)", async () => {
    const created = await admin("client", "create", "--name", "LogoutApp2", "--redirect-uri", "https://rp2.example/cb",
      "--scope", "openid", "--backchannel-logout-uri", "https://rp2.example/bc");
    const id = (JSON.parse(created.stdout) as { client_id: string }).client_id;
    const subscriber = await createSubscriber({ msisdn: "447700900555", pin: "2580", attributes: [] });
    await db.grant.create({ data: { id: randomToken(12), subscriberId: subscriber.id, clientId: id, scope: "openid" } });
    const session = await db.session.create({ data: { id: randomToken(16), browserIdHash: sha256(randomToken(32)),
      subscriberId: subscriber.id, authTime: new Date(), acr: "2", amr: "otp", expiresAt: new Date(Date.now() + 3_600_000) } });
    const run = await admin("subscriber", "suspend", subscriber.msisdn);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const rows = await db.logoutNotification.findMany({ where: { clientId: id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ uri: "https://rp2.example/bc", sid: session.id, reason: "suspended", attempts: 0,
      deliveredAt: null });
  });
});
