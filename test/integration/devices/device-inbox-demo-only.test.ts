import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startServer, TEST_SECRETS, type RunningServer } from "@/test/support/server";
import { SERVER_NODE_FLAGS } from "@/scripts/server-node-flags.mjs";

/**
 * Issue 15 §4: the device inbox (anyone reads any number's codes) exists only in the local demo.
 * The configuration is checked before anything connects, so a PostgreSQL URL that points nowhere
 * is enough to see the refusal.
 */
const root = fileURLToPath(new URL("../../..", import.meta.url));
const PRODUCTION_LIKE = { ...TEST_SECRETS, DATABASE_URL: "postgresql://op@127.0.0.1:9/identity", ISSUER: "https://id.example.com" };
const env = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(DATABASE_URL|DEMO_DATA|MESSAGING_CHANNEL|DEVICE_INBOX_ENABLED)$/.test(k)));
  return { ...base, NODE_ENV: "production", ...PRODUCTION_LIKE, ...extra };
};

describe("MESSAGING_CHANNEL=inbox with PostgreSQL", () => {
  it("`npm start`'s configuration check refuses it with one line saying why", () => {
    const r = spawnSync(path.join(root, "node_modules", ".bin", "tsx"), ["scripts/check-config.ts"], {
      cwd: root, env: env({ MESSAGING_CHANNEL: "inbox" }), encoding: "utf8",
    });
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: MESSAGING_CHANNEL=inbox is only for the local demo/);
    // Without it the same configuration passes the check (the channel defaults to log).
    expect(spawnSync(path.join(root, "node_modules", ".bin", "tsx"), ["scripts/check-config.ts"], {
      cwd: root, env: env({}), encoding: "utf8",
    }).status).toBe(0);
  }, 60_000);

  it("the server itself refuses to start, with the reason", async () => {
    const port = await freePort();
    const r = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, process.env.NEXT_DIST_DIR || ".next", "server.mjs")], {
      cwd: root, env: env({ MESSAGING_CHANNEL: "inbox", PORT: String(port), HOST: "127.0.0.1" }), encoding: "utf8", timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(`${r.stdout}${r.stderr}`).toContain("MESSAGING_CHANNEL=inbox is only for the local demo");
  }, 60_000);
});

describe("a server without demo data (as on PostgreSQL)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ name: "inbox-demo-only", env: { DEMO_DATA: "false" } });
  }, 90_000);
  afterAll(() => server?.stop());

  it("has no device inbox page", async () => {
    const res = await fetch(`${server.baseUrl}/handset/inbox?msisdn=447700900000`);
    expect(res.status).toBe(404);
  });
});
