import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect } from "vitest";
import { startServer, type RunningServer } from "@/test/support/server";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { createTestClient } from "@/test/support/fixtures";
import { beginAuthorization, postStep, type Flow } from "@/e2e/fixtures/interaction-http";
import { latestCode } from "./sign-in-http";

export { latestCode };

/**
 * Issue 6, "Abuse and brute force" and "Audit", over HTTP against a server of its own that runs with
 * the production limits (the shared test server lifts them: test/support/server.ts). The server trusts
 * one proxy (TRUSTED_PROXY=127.0.0.1), so each test speaks from its own X-Forwarded-For address and the per-IP
 * limits of one test do not spill into another. Used by the tests of the PIN lockout, the code limits,
 * client authentication throttling and the audit log (docs/testing.md).
 */
const LIMITS = {
  OTP_SEND_LIMIT_PER_REQUESTER: "5", OTP_SEND_LIMIT_PER_MSISDN: "20", OTP_SEND_LIMIT_PER_IP: "20",
  OTP_SEND_LIMIT_PER_NAT_IP: "30", CARRIER_NAT_RANGES: "100.64.0.0/10, 2001:db8:ca7::/48",
  CLIENT_AUTH_FAILURE_LIMIT: "10", CLIENT_AUTH_FAILURE_LIMIT_PER_IP: "50", TRUSTED_PROXY: "127.0.0.1",
};
const root = fileURLToPath(new URL("../..", import.meta.url));

type Run = { code: number; stdout: string; stderr: string };

/**
 * Starts the server with the production limits for this test file (before all its tests, stopped after)
 * and points this worker's `db` at its database; returns the helpers that speak to it.
 */
export function useAbuseServer(name: string) {
  let server: RunningServer;
  let ipCounter = 0;
  const ctx = {
    baseUrl: "",
    /** A client registered once for the file. */
    client: undefined as unknown as Awaited<ReturnType<typeof createTestClient>>,
    newIp: () => `198.51.100.${++ipCounter}`,
  };
  beforeAll(async () => {
    server = await startServer({ name, env: LIMITS });
    ctx.baseUrl = server.baseUrl;
    // This worker's `db` talks to this server's database (nothing has read the configuration yet).
    process.env.DATABASE_URL = server.databaseUrl;
    expect(config().DATABASE_URL).toBe(server.databaseUrl);
    ctx.client = await createTestClient();
  }, 120_000);
  afterAll(() => server?.stop());

  const post = (f: Flow, step: string, fields: Record<string, string> = {}, ip = "203.0.113.1") =>
    postStep(ctx.baseUrl, f.id, step, {
      cookie: f.cookie, fields: { csrf_token: f.csrf, ...fields }, headers: { "x-forwarded-for": ip },
    });

  /** A level-3 sign-in reaching the code step for `msisdn`, from `ip`. */
  async function level3(msisdn: string, ip: string) {
    const f = await beginAuthorization(ctx.baseUrl, ctx.client, { acr_values: "3" });
    const res = await post(f, "msisdn", { msisdn }, ip);
    expect(res.status).toBe(303);
    return { f, res };
  }

  /** Submits `n` wrong PINs with correct codes (requesting a new code whenever one is burnt); returns the last error. */
  async function failPins(s: { msisdn: string; pin: string }, n: number, ip = ctx.newIp()) {
    const { f } = await level3(s.msisdn, ip);
    let last: string | null = null;
    let attemptsOnCode = 0;
    for (let i = 0; i < n; i++) {
      if (attemptsOnCode === 3) {
        await post(f, "resend", {}, ip);
        attemptsOnCode = 0;
      }
      last = errorOf(await post(f, "code", { code: (await latestCode(s.msisdn))!, pin: wrongPin(s.pin) }, ip));
      attemptsOnCode++;
    }
    return { f, last, ip };
  }

  /** `npm run admin -- <args>` against this server's database. */
  function admin(...args: string[]): Promise<Run> {
    return new Promise((resolve) => {
      execFile(path.join(root, "node_modules", ".bin", "tsx"), ["scripts/admin.ts", ...args], {
        cwd: root, env: { ...process.env, DATABASE_URL: server.databaseUrl },
      }, (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
    });
  }
  async function adminJson(...args: string[]) {
    const r = await admin(...args, "--json");
    if (r.code !== 0) throw new Error(`admin ${args.join(" ")} failed: ${r.stdout} ${r.stderr}`);
    return JSON.parse(r.stdout);
  }

  return Object.assign(ctx, { post, level3, failPins, admin, adminJson });
}

/** The one-time code most recently sent to a number (the test SMS outbox), or null. */
/** The `e` (error) of an interaction step's 303. */
export const errorOf = (res: Response) => new URL(res.headers.get("location")!).searchParams.get("e");
export const subscriberRow = (id: string) => db.subscriber.findUniqueOrThrow({ where: { id } });
const wrongPin = (pin: string) => (pin === "1357" ? "2468" : "1357");
