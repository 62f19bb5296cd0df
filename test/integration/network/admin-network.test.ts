import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { freshDatabase, TEST_SECRETS } from "../../support/server";
import { createPrismaClient } from "@/lib/db";

/** `npm run admin -- network …` (scripts/admin/network.ts) as a child process, on a database of its own. */
const root = fileURLToPath(new URL("../../..", import.meta.url));
const TSX = path.join(root, "node_modules", ".bin", "tsx");
let databaseUrl = "";
vi.setConfig({ testTimeout: 120_000 });

beforeAll(() => {
  databaseUrl = freshDatabase("admin-network");
});

function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(TSX, ["scripts/admin.ts", ...args], { cwd: root, env: { ...process.env, ...TEST_SECRETS, DATABASE_URL: databaseUrl } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }));
  });
}
async function json(...args: string[]) {
  const run = await admin(...args, "--json");
  expect(run.stdout.trim().split("\n"), run.stderr).toHaveLength(1);
  return { code: run.code, body: JSON.parse(run.stdout) as Record<string, any> };
}

describe("admin CLI: network", () => {
  it("adds, lists, resolves (most specific wins, ports), removes, imports; bad input changes nothing; audited", async () => {
    const wide = await json("network", "add", "10.64.0.0/16", "+33612345001");
    expect(wide).toMatchObject({ code: 0, body: { cidr: "10.64.0.0/16", ports: "0-65535", msisdn: "33612345001" } });
    const narrow = await json("network", "add", "10.64.1.0/24", "33612345002", "--ports", "1024-2047");
    expect(narrow.body).toMatchObject({ cidr: "10.64.1.0/24", ports: "1024-2047" });
    expect((await json("network", "resolve", "10.64.1.9", "1500")).body.msisdn).toBe("33612345002");
    expect((await json("network", "resolve", "::ffff:10.64.1.9", "3000")).body.msisdn).toBe("33612345001");
    expect((await json("network", "resolve", "10.65.0.1")).body.msisdn).toBeNull();

    for (const [args, message] of [
      [["add", "10.64.1.1/24", "33612345003"], /not an address range/],
      [["add", "10.64.2.0/24", "0612"], /E\.164/],
      [["add", "10.64.2.0/24", "33612345003", "--ports", "9-1"], /not a port range/],
      [["add", "10.64.1.0/24", "33612345003", "--ports", "2000-3000"], /overlap/],
      [["remove", "nope"], /no network range/],
      [["resolve", "10.64.1"], /not an IP address/],
    ] as const) {
      const run = await json("network", ...args);
      expect(run.code, args.join(" ")).toBe(1);
      expect(run.body.error).toMatch(message);
    }
    expect((await json("network", "list")).body.ranges).toHaveLength(2);

    const file = path.join(os.tmpdir(), `ranges-${process.pid}.csv`);
    writeFileSync(file, "# cidr,msisdn,ports\n2001:db8:5::/48,+33612345004\n198.51.100.7,33612345005,1-999\n");
    expect((await json("network", "import", file)).body).toEqual({ added: 2 });
    expect((await json("network", "resolve", "2001:db8:5::abcd", "80")).body.msisdn).toBe("33612345004");
    writeFileSync(file, "192.0.2.0/24,33612345006\n192.0.2.0/25,not-a-number\n");
    expect((await json("network", "import", file)).body.error).toMatch(/line 2/);
    expect((await json("network", "list", "--msisdn", "+33612345006")).body.ranges).toEqual([]);

    expect((await json("network", "remove", wide.body.id)).body).toEqual({ removed: wide.body.id });
    const human = await admin("network", "list");
    expect(human.stdout).toContain("10.64.1.0/24  ports 1024-2047  +33612345002");
    expect(human.stdout).not.toContain("10.64.0.0/16");

    const db = createPrismaClient(databaseUrl);
    const audited = await db.auditEvent.findMany({ where: { type: { startsWith: "admin_network" } } });
    expect(audited.map((a) => a.type).sort()).toEqual(["admin_network_add", "admin_network_add", "admin_network_import",
      "admin_network_remove"]);
    await db.$disconnect();
  });
});

describe("admin CLI: a client's permission to name a data session (--network-hints)", () => {
  it("off by default; create --network-hints, set --no-network-hints / --network-hints; client show prints it",
    async () => {
      const base = ["client", "create", "--redirect-uri", "https://nh.example.com/cb", "--scope", "openid"];
      const plain = await json(...base, "--name", "NhPlain");
      expect(plain.code).toBe(0);
      expect(plain.body.client.network_hints_allowed).toBe(false);
      const allowed = await json(...base, "--name", "NhAllowed", "--network-hints");
      expect(allowed.body.client.network_hints_allowed).toBe(true);
      const id = allowed.body.client_id as string;
      expect((await json("client", "set", id, "--no-network-hints")).code).toBe(0);
      expect((await json("client", "show", id)).body.client.network_hints_allowed).toBe(false);
      expect((await json("client", "set", id, "--network-hints")).code).toBe(0);
      expect((await json("client", "show", id)).body.client.network_hints_allowed).toBe(true);
      const db = createPrismaClient(databaseUrl);
      try {
        expect((await db.client.findUniqueOrThrow({ where: { id } })).networkHintsAllowed).toBe(true);
      } finally {
        await db.$disconnect();
      }
    });
});
