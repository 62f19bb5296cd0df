import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { clientNameSkeleton } from "./client-name-skeleton";

describe("clientNameSkeleton: names that look alike on a handset have one skeleton", () => {
  it.each([
    ["DemoCallCentre", "DemoCaIlCentre"], ["DemoCallCentre", "DemoCa11Centre"], ["DemoCallCentre", "Demo Call Centre"],
    ["DemoCallCentre", "demo-call_centre."], ["DemoCallCentre", "DEMOCALLCENTRE"], ["DemoCallCentre", "Dem0CaIICentre"],
    ["Modern Bank", "Modem Bank"], ["ModernBank", "M0dernBank"], ["Wise", "VVise"], ["Wise", "vv1se"],
    ["PayLink", "Pay|ink"], ["Fun", "Ｆｕｎ"],
  ])("%s and %s", (a, b) => {
    expect(clientNameSkeleton(b)).toBe(clientNameSkeleton(a));
  });

  it.each([["DemoCallCentre", "DemoCallCentres"], ["Bank", "Bonk"], ["Acme", "Acne"], ["Shop1", "Shop2"]])(
    "%s and %s differ", (a, b) => {
      expect(clientNameSkeleton(b)).not.toBe(clientNameSkeleton(a));
    });
});

describe("the migration's SQL computes the same skeleton for the names that exist", () => {
  const sql = readFileSync("prisma/migrations/20261129010000_client_name_skeleton/migration.sql", "utf8");
  const names = ["DemoCallCentre", "DemoCaIlCentre", "Demo Call Centre", "dem0-ca11_centre.", "Modern Bank", "ModemBank",
    "VVise", "Wise", "Acme", "client-Ab3_x9-Q", "RnVv.I1O0", "rrnnvvv"];

  it("gives each name the JS skeleton; of a set of lookalikes the oldest holds it and the others keep null", () => {
    const db = new Database(":memory:");
    db.exec('CREATE TABLE "Client" ("id" TEXT PRIMARY KEY, "name" TEXT NOT NULL, "createdAt" DATETIME NOT NULL)');
    const insert = db.prepare('INSERT INTO "Client" ("id", "name", "createdAt") VALUES (?, ?, ?)');
    names.forEach((name, i) => insert.run(`c${String(i).padStart(2, "0")}`, name, new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString()));
    db.exec(sql);
    const rows = db.prepare('SELECT "name", "nameSkeleton" FROM "Client" ORDER BY "createdAt"').all() as
      Array<{ name: string; nameSkeleton: string | null }>;
    const seen = new Set<string>();
    for (const row of rows) {
      const skeleton = clientNameSkeleton(row.name);
      expect(row.nameSkeleton, row.name).toBe(seen.has(skeleton) ? null : skeleton);
      seen.add(skeleton);
    }
    expect(rows.filter((r) => r.nameSkeleton === null).map((r) => r.name))
      .toEqual(["DemoCaIlCentre", "Demo Call Centre", "dem0-ca11_centre.", "ModemBank", "Wise"]);
  });
});
