import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { freshDatabase, TEST_SECRETS } from "../../support/server";
import { db } from "@/lib/db";
import { config } from "@/lib/config";
import { getKeys } from "@/lib/keys/key-store";
import { randomUUID } from "node:crypto";
import { mintToken } from "@/lib/tokens/mint-token";
import { createTestClient, createTestSubscriber } from "../../support/fixtures";

/**
 * `npm run admin -- purpose set | list | remove` (docs/network-apis.md "Legal bases"): the real CLI as a child
 * process on a database of its own; set and remove are audited, bad input is one line and exit code 1.
 */
const root = fileURLToPath(new URL("../../..", import.meta.url));
const TSX = path.join(root, "node_modules", ".bin", "tsx");
let databaseUrl = "";
vi.setConfig({ testTimeout: 90_000 });

beforeAll(async () => {
  databaseUrl = freshDatabase("purposes");
  process.env.DATABASE_URL = databaseUrl;
  expect(config().DATABASE_URL).toBe(databaseUrl);
  await getKeys();
});

function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(TSX, ["scripts/admin.ts", ...args], { cwd: root, env: { ...process.env, ...TEST_SECRETS, DATABASE_URL: databaseUrl } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }));
  });
}

describe("admin purpose commands", () => {
  it("set, list (JSON), re-set, remove; audited; bad input refused", async () => {
    const set = await admin("purpose", "set", "sim-swap:check", "dpv:FraudPreventionAndDetection", "--basis", "consent");
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain("sim-swap:check for dpv:FraudPreventionAndDetection: consent.");
    const again = await admin("purpose", "set", "sim-swap:check", "dpv:FraudPreventionAndDetection", "--basis",
      "legitimate_interest", "--json");
    expect(JSON.parse(again.stdout)).toEqual({ scope: "sim-swap:check", purpose: "dpv:FraudPreventionAndDetection",
      legal_basis: "legitimate_interest" });
    const list = await admin("purpose", "list", "--json");
    expect(JSON.parse(list.stdout).purposes).toEqual([expect.objectContaining({ scope: "sim-swap:check",
      legal_basis: "legitimate_interest" })]);

    for (const bad of [
      ["purpose", "set", "sim-swap:nope", "dpv:FraudPreventionAndDetection", "--basis", "consent"],
      ["purpose", "set", "sim-swap:check", "dpv:Typo", "--basis", "consent"],
      ["purpose", "set", "sim-swap:check", "dpv:FraudPreventionAndDetection", "--basis", "whim"],
      ["purpose", "remove", "kyc-match:match", "dpv:FraudPreventionAndDetection"],
    ]) {
      const run = await admin(...bad);
      expect(run.code, bad.join(" ")).not.toBe(0);
      expect(run.stderr.trim().split("\n"), bad.join(" ")).toHaveLength(1);
    }

    const removed = await admin("purpose", "remove", "sim-swap:check", "dpv:FraudPreventionAndDetection");
    expect(removed.code, removed.stderr).toBe(0);
    expect(await db.apiPurpose.count()).toBe(0);
    const audited = await db.auditEvent.findMany({ where: { type: { startsWith: "admin_purpose_" } } });
    expect(audited.map((a) => a.type).sort()).toEqual(["admin_purpose_remove", "admin_purpose_set", "admin_purpose_set"]);
  });

  it("withdraw-consent: the operator withdraws a subscriber's consent; the client's tokens carrying it are revoked",
    async () => {
      const client = await createTestClient({ scopes: ["openid", "kyc-match:match", "dpv:IdentityVerification"] });
      const subscriber = await createTestSubscriber();
      await db.apiConsent.create({ data: { id: randomUUID(), subscriberId: subscriber.id, clientId: client.id,
        purpose: "dpv:IdentityVerification", scope: "kyc-match:match" } });
      const token = mintToken();
      await db.accessToken.create({ data: { tokenHash: token.hash, clientId: client.id, subscriberId: subscriber.id,
        scope: "openid kyc-match:match dpv:IdentityVerification", expiresAt: new Date(Date.now() + 300_000) } });
      const run = await admin("purpose", "withdraw-consent", `+${subscriber.msisdn}`, "dpv:IdentityVerification",
        "--client", client.id);
      expect(run.code, run.stderr).toBe(0);
      expect((await db.accessToken.findUnique({ where: { tokenHash: token.hash } }))!.revokedAt).not.toBeNull();
      const again = await admin("purpose", "withdraw-consent", subscriber.msisdn, "dpv:IdentityVerification",
        "--client", client.id);
      expect(again.code).not.toBe(0);
      expect(await db.auditEvent.count({ where: { type: "consent_withdrawn", clientId: client.id } })).toBe(1);
    });
});
