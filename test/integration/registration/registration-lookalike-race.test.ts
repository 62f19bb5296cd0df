import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startServer, type RunningServer } from "@/test/support/server";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { clientNameSkeleton } from "@/lib/clients/client-name-skeleton";
import { createInitialAccessToken } from "@/lib/registration/initial-access-tokens";

/**
 * Lookalike client names registered at the same moment (issue 33): the check before the insert cannot see a
 * registration running beside it on the other worker, so the skeleton's unique index decides. Two workers, tens
 * of registrations at once, each a different spelling of one name: exactly one passes. On SQLite and PostgreSQL.
 */
let server: RunningServer;
vi.setConfig({ testTimeout: 120_000 });

beforeAll(async () => {
  server = await startServer({ name: "registration-lookalike", env: { WORKERS: "2", REGISTRATION_LIMIT_PER_IP: "100000" } });
  process.env.DATABASE_URL = server.databaseUrl;
  expect(config().DATABASE_URL).toBe(server.databaseUrl);
}, 120_000);
afterAll(() => server?.stop());

/** `count` different spellings of `base` (letters only) with one skeleton: case, separators, I/l/1, O/0, m/rn, w/vv. */
function spellings(base: string, count: number): string[] {
  const out = new Set<string>();
  for (let n = 0; out.size < count; n++) {
    let s = "";
    for (const [i, ch] of [...base].entries()) {
      const bit = (n >> (i % 12)) & 1;
      const alt: Record<string, string> = { l: "I", o: "0", m: "rn", w: "vv" };
      s += bit && alt[ch] ? alt[ch] : bit ? ch.toUpperCase() : ch;
      if ((n + i) % 7 === 3) s += ["-", "_", ".", " "][n % 4];
    }
    out.add(s.trim());
  }
  return [...out];
}

describe("lookalike client names registered at once, across two workers", () => {
  it("forty spellings of one name and ten exact copies: one client is registered, the others refused with "
    + "invalid_client_metadata (no suffixed copy)", async () => {
    const base = `mellowlamp${Date.now().toString(36).replace(/\d/g, "x")}`;
    const spelt = spellings(base, 40);
    expect(new Set(spelt.map(clientNameSkeleton)).size).toBe(1);
    const names = [...spelt, ...Array<string>(10).fill(spelt[0]!)];
    const { token } = await createInitialAccessToken({ uses: 100, ttlSeconds: 600, label: "race" });
    const results = await Promise.all(names.map(async (client_name) => {
      const res = await fetch(`${server.baseUrl}/register`, {
        method: "POST", body: JSON.stringify({ redirect_uris: ["https://rp.example.test/cb"], client_name }),
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      });
      return { status: res.status, body: (await res.json()) as Record<string, string> };
    }));
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array<number>(49).fill(400)]);
    for (const r of results.filter((x) => x.status === 400)) {
      expect(r.body.error).toBe("invalid_client_metadata");
      expect(r.body.error_description).toMatch(/looks like the name of another client/);
    }
    const rows = await db.client.findMany({ select: { name: true } });
    expect(rows.filter((row) => clientNameSkeleton(row.name) === clientNameSkeleton(base))).toHaveLength(1);
  });
});
