import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { moveDatabaseAway, startServer, type RunningServer } from "@/test/support/server";
import { testingOnPostgres } from "@/test/support/postgres";
import { createPrismaClient } from "@/lib/db";
import { shippedMigrations } from "@/lib/health/readiness";

// Issue 22, "Health": liveness (the process answers) and readiness (database, signing keys, migrations).
const baseUrl = inject("baseUrl");
const getJson = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, cache: res.headers.get("cache-control"), body: (await res.json()) as Record<string, unknown> };
};

describe("on the shared server", () => {
  it("live and ready answer 200 with every check ok; /api/health is unchanged", async () => {
    const live = await getJson(`${baseUrl}/api/health/live`);
    expect(live).toMatchObject({ status: 200, body: { status: "ok" } });
    expect(live.cache).toContain("no-store");
    const ready = await getJson(`${baseUrl}/api/health/ready`);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: "ok", checks: { database: { status: "ok" }, keys: { status: "ok" },
      migrations: { status: "ok" } } });
    expect(await getJson(`${baseUrl}/api/health`)).toMatchObject({ status: 200, body: { status: "ok" } });
  });
});

describe("a server whose database lacks a migration, then loses its file", () => {
  let server: RunningServer;
  let prisma: PrismaClient;
  const latest = shippedMigrations(testingOnPostgres() ? "postgresql" : "sqlite")!.at(-1)!;
  let row: Record<string, unknown>;

  beforeAll(async () => {
    server = await startServer({ name: "health" });
    prisma = createPrismaClient(server.databaseUrl);
    // The latest migration's bookkeeping row removed: to the service, that migration is not applied.
    row = (await prisma.$queryRawUnsafe<Array<Record<string, unknown>>>(
      `SELECT * FROM "_prisma_migrations" WHERE migration_name = '${latest}'`))[0]!;
    await prisma.$executeRawUnsafe(`DELETE FROM "_prisma_migrations" WHERE migration_name = '${latest}'`);
  }, 120_000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await server?.stop();
  });

  it("ready is 503 naming the missing migration while live is 200; ready once it is applied", async () => {
    const ready = await getJson(`${server.baseUrl}/api/health/ready`);
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: "unavailable", checks: { database: { status: "ok" }, keys: { status: "ok" },
      migrations: { status: "fail", reason: "migrations not applied", missing: [latest] } } });
    expect((await getJson(`${server.baseUrl}/api/health/live`)).status).toBe(200);
    const cols = Object.keys(row);
    await prisma.$executeRawUnsafe(`INSERT INTO "_prisma_migrations" (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${
      cols.map((_, i) => (testingOnPostgres() ? `$${i + 1}` : "?")).join(", ")})`, ...cols.map((c) => row[c]));
    expect((await getJson(`${server.baseUrl}/api/health/ready`)).status).toBe(200);
  });

  it.skipIf(testingOnPostgres())("ready is 503 when the database file is removed, and 200 when it is back", async () => {
    const file = server.databaseUrl.replace(/^file:/, "");
    const putBack = moveDatabaseAway(file);
    try {
      const ready = await getJson(`${server.baseUrl}/api/health/ready`);
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: "unavailable", checks: {
        database: { status: "fail", reason: "database file not found" }, keys: { status: "skipped" },
        migrations: { status: "skipped" } } });
      expect((await getJson(`${server.baseUrl}/api/health/live`)).status).toBe(200);
    } finally {
      putBack();
    }
    expect((await getJson(`${server.baseUrl}/api/health/ready`)).status).toBe(200);
  });
});
