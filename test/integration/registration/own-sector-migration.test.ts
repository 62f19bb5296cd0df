import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { CIBA_GRANT_TYPE } from "@/lib/ciba/ciba";
import { ownSector } from "@/lib/clients/own-sector";
import { freshDatabase } from "../../support/server";

/**
 * Issue 33, item 2, existing data: the migration 20261129000000_dynamic_ciba_clients_own_sector moves self-registered
 * clients with the CIBA grant (whose redirect URIs proved no sector) to a sector of their own and leaves every other
 * client's sector alone. Its SQL is run again on a fresh database of its own (SQLite, or PostgreSQL with
 * TEST_DATABASE=postgres), after rows as the former registration wrote them.
 */
const MIGRATION = "prisma/migrations/20261129000000_dynamic_ciba_clients_own_sector/migration.sql";

beforeAll(() => {
  process.env.DATABASE_URL = freshDatabase("own-sector-migration");
  expect(config().DATABASE_URL).toBe(process.env.DATABASE_URL);
}, 120_000);

const client = (id: string, registeredBy: string, grantTypes: string) => db.client.create({ data: {
  id, name: id, redirectUris: "[\"https://victim-rp.example.test/cb\"]", allowedScopes: "openid",
  sectorIdentifier: "victim-rp.example.test", registeredBy, grantTypes } });

describe("the own-sector migration", () => {
  it("moves self-registered CIBA clients only", async () => {
    await client("dyn-ciba", "dynamic", `authorization_code ${CIBA_GRANT_TYPE}`);
    await client("dyn-ciba-first", "dynamic", `${CIBA_GRANT_TYPE} authorization_code refresh_token`);
    await client("dyn-code", "dynamic", "authorization_code refresh_token");
    await client("admin-ciba", "admin", `authorization_code ${CIBA_GRANT_TYPE}`);
    await db.$executeRawUnsafe(readFileSync(MIGRATION, "utf8"));
    const rows = await db.client.findMany({ select: { id: true, sectorIdentifier: true }, orderBy: { id: "asc" } });
    expect(Object.fromEntries(rows.map((r) => [r.id, r.sectorIdentifier]))).toEqual({
      "admin-ciba": "victim-rp.example.test", "dyn-ciba": ownSector("dyn-ciba"), "dyn-ciba-first": ownSector("dyn-ciba-first"),
      "dyn-code": "victim-rp.example.test",
    });
  });
});
