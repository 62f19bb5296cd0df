import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { importSimSwaps, parseImportLine } from "@/lib/sim-swap/import-sim-swaps";
import { recordSimSwap } from "@/lib/sim-swap/record-sim-swap";
import { TEST_SECRETS } from "../../support/server";
import {
  callApi, createApiClient, FRAUD, insertClientApiToken, openApiErrors,
} from "../../support/camara-support";
import { signedInBrowser } from "../../support/authorize-support";
import { createTestSubscriber } from "../../support/fixtures";

/**
 * Importing the operator's SIM change events (lib/sim-swap/import-sim-swaps.ts, admin `sim import`): validated
 * all-or-nothing, idempotent by reference, streamed; the API answers from what was imported.
 */
const root = fileURLToPath(new URL("../../..", import.meta.url));
const TSX = path.join(root, "node_modules", ".bin", "tsx");
const dir = mkdtempSync(path.join(os.tmpdir(), "sim-import-"));
let files = 0;
function file(text: string): string {
  const p = path.join(dir, `events-${++files}.txt`);
  writeFileSync(p, text);
  return p;
}
function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(TSX, ["scripts/admin.ts", ...args], { cwd: root, env: { ...process.env, ...TEST_SECRETS } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }));
  });
}
/** A number of its own per test (no subscriber). */
let lines = 0;
const line = () => `4478${String(Date.now()).slice(-6)}${String(++lines).padStart(2, "0")}`;
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

describe("sim import", () => {
  it("CSV and JSON lines; the same file twice records each event once (reference, or number and instant)", async () => {
    const a = line();
    const b = line();
    const text = [
      "msisdn,swapped_at,reference", "# a comment", "",
      `${a},${hoursAgo(30)},ref-${a}-1`,
      `+${a},${hoursAgo(2)}`,
      JSON.stringify({ msisdn: `+${b}`, swapped_at: hoursAgo(5), reference: `ref-${b}` }),
      JSON.stringify({ msisdn: b, swappedAt: hoursAgo(1) }),
    ].join("\r\n");
    const p = file(text);
    const none = { applied: 0, rejected: 0, errors: [] };
    expect(await importSimSwaps({ path: p })).toEqual({ lines: 4, imported: 4, duplicates: 0, ...none });
    expect(await importSimSwaps({ path: p })).toEqual({ lines: 4, imported: 0, duplicates: 4, ...none });
    expect(await db.simSwapEvent.count({ where: { msisdn: { in: [a, b] } } })).toBe(4);
    // the same reference in another file: still one event
    const again = file(`${a},${hoursAgo(10)},ref-${a}-1\n`);
    expect(await importSimSwaps({ path: again })).toMatchObject({ imported: 0, duplicates: 1 });
    expect(await db.simSwapEvent.count({ where: { msisdn: a, source: "import" } })).toBe(2);
  });

  it("a bad line imports nothing and is reported with its line number (never its content)", async () => {
    const a = line();
    const p = file([
      `${a},${hoursAgo(3)},ok-${a}`,
      "12345,2026-11-25T10:00:00Z",
      `${a},2026-11-25 10:00`,
      `${a},2026-11-25T10:00:00`,
      `${a},${new Date(Date.now() + 86_400_000).toISOString()}`,
      `${a},${hoursAgo(1)},bad ref`,
      "{not json",
      "[1,2]",
      `${a},${hoursAgo(1)},x,y`,
    ].join("\n"));
    const r = await importSimSwaps({ path: p });
    expect(r).toMatchObject({ imported: 0, rejected: 8 });
    expect(r.errors.map((e) => e.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(r.errors.find((e) => e.line === 5)!.message).toBe("swapped_at is in the future");
    expect(JSON.stringify(r.errors)).not.toContain(a);
    expect(await db.simSwapEvent.count({ where: { msisdn: a } })).toBe(0);
    expect(parseImportLine("msisdn,swapped_at")).toBeNull();
  });

  it("a subscriber's imported change applies its effects; the CLI prints the counts and refuses a bad file", async () => {
    const subscriber = await createTestSubscriber();
    const { session } = await signedInBrowser(subscriber, { authTime: new Date(Date.now() - 60_000) });
    const p = file(`${subscriber.msisdn},${new Date(Date.now() - 1_000).toISOString()},cli-${subscriber.id}\n`);
    const run = await admin("sim", "import", p, "--json");
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ lines: 1, imported: 1, duplicates: 0, applied: 1 });
    expect((await db.session.findUniqueOrThrow({ where: { id: session.id } })).endedAt).not.toBeNull();
    const twice = await admin("sim", "import", p, "--json");
    expect(JSON.parse(twice.stdout)).toEqual({ lines: 1, imported: 0, duplicates: 1, applied: 0 });
    const bad = await admin("sim", "import", file("x,y\n"), "--json");
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).error).toMatch(/^nothing imported: 1 bad line\(s\); line 1: msisdn/);
    const history = await admin("sim", "history", subscriber.msisdn, "--json");
    expect(JSON.parse(history.stdout)).toMatchObject({ msisdn: subscriber.msisdn,
      events: [{ source: "import", reference: `cli-${subscriber.id}` }] });
  }, 60_000);

  it("the API answers from imported events (two-legged)", async () => {
    const a = line();
    const at = hoursAgo(6);
    await importSimSwaps({ path: file(`${a},${at}\n`) });
    const client = await createApiClient({ scopes: ["sim-swap:retrieve-date", FRAUD], grantTypes: ["client_credentials"],
      clientCredentialsScopes: ["sim-swap:retrieve-date", FRAUD] });
    const token = await insertClientApiToken({ clientId: client.id, scope: `sim-swap:retrieve-date ${FRAUD}` });
    const answer = await callApi("/sim-swap/v2/retrieve-date", { token, body: { phoneNumber: `+${a}` } });
    expect(openApiErrors("sim-swap", "/retrieve-date", "POST", answer)).toEqual([]);
    expect(answer.body).toEqual({ latestSimChange: new Date(at).toISOString() });
  });

  it("parallel imports of one file and parallel records of one reference: each event once", async () => {
    const a = line();
    const p = file(Array.from({ length: 50 }, (_, i) => `${a},${hoursAgo(100 + i)},par-${a}-${i}`).join("\n"));
    const runs = await Promise.all(Array.from({ length: 5 }, () => importSimSwaps({ path: p })));
    expect(runs.reduce((n, r) => n + r.imported, 0)).toBe(50);
    expect(runs.reduce((n, r) => n + r.duplicates, 0)).toBe(200);
    expect(await db.simSwapEvent.count({ where: { msisdn: a } })).toBe(50);
    const b = line();
    const records = await Promise.all(Array.from({ length: 10 }, () =>
      recordSimSwap({ msisdn: b, at: hoursAgo(1), source: "cli", reference: `once-${b}` })));
    expect(records.filter((r) => r.created)).toHaveLength(1);
    expect(await db.simSwapEvent.count({ where: { msisdn: b } })).toBe(1);
  });

  it("a large file is streamed (10,000 lines)", async () => {
    const a = line();
    const base = Date.now() - 500 * 3_600_000;
    const text = Array.from({ length: 10_000 }, (_, i) =>
      `${a},${new Date(base + i * 1000).toISOString()},big-${a}-${i}`).join("\n");
    const p = file(text);
    expect(await importSimSwaps({ path: p })).toMatchObject({ lines: 10_000, imported: 10_000, errors: [] });
    expect(await importSimSwaps({ path: p })).toMatchObject({ lines: 10_000, imported: 0, duplicates: 10_000 });
    expect(await db.simSwapEvent.count({ where: { msisdn: a } })).toBe(10_000);
  }, 120_000);
});
