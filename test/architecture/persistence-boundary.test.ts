import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The persistence boundary (issue 16, move 7; docs/architecture.md): the flow layers (the protocol code
 * in lib/oauth, the sign-in screens' steps in lib/interaction, lib/http, the route handlers and pages in
 * app/, the lean server in server/, the React components) reach the database only through the domain
 * modules (lib/tokens, lib/sessions, lib/authorization-request, lib/subscribers, lib/grants, ...), never
 * through Prisma (`lib/db`, `@prisma/client`) or the hot-path store (`lib/store`), not even for a type:
 * row types are named through the domain modules (lib/subscribers/subscriber-row.ts,
 * lib/tokens/token-rows.ts, lib/authorization-request/authorization-request-row.ts). Tests are exempt:
 * they may set up and count statements.
 */
const root = path.resolve(__dirname, "../..");
const OAUTH = path.join(root, "lib/oauth");
/** Each flow layer, with the least number of source files it holds (so a moved folder does not pass empty). */
const FLOW_LAYERS: [string, number][] = [
  ["lib/oauth", 20], ["lib/interaction", 20], ["lib/http", 10], ["app", 20], ["server", 5], ["components", 5],
  ["lib/network-apis", 2],
];

/** Every module specifier of a file: static and type imports, re-exports, dynamic import() and require(). */
function moduleSpecifiers(source: string): string[] {
  const found = source.matchAll(
    /\b(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']|\bimport\s*["']([^"']+)["']|\b(?:import|require)\s*\(\s*["']([^"']+)["']\s*\)/g,
  );
  return [...found].map((m) => (m[1] ?? m[2] ?? m[3])!);
}

/** Whether a specifier, written in `file`, names Prisma or the hot-path store. */
function isPersistence(specifier: string, file: string): boolean {
  if (specifier === "@prisma/client" || specifier.startsWith("@prisma/")) return true;
  let target: string;
  if (specifier.startsWith("@/")) target = path.join(root, specifier.slice(2));
  else if (specifier.startsWith(".")) target = path.resolve(path.dirname(file), specifier);
  else return false;
  const rel = path.relative(root, target).split(path.sep).join("/").replace(/\.(ts|tsx|js|mjs)$/, "");
  return rel === "lib/db" || rel.startsWith("lib/db/") || rel === "lib/store" || rel.startsWith("lib/store/");
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [full] : [];
  });
}

describe("persistence boundary", () => {
  it("recognises every way of naming Prisma or the store", () => {
    const file = path.join(OAUTH, "token/x.ts");
    const imports = [
      'import { db } from "../../db";', 'import { db } from "@/lib/db";', "import type { Subscriber } from '@prisma/client';",
      'import { getHotStore } from "../../store/get-hot-store";', 'export { x } from "@/lib/store/sql";',
      'const { db } = await import("../../db");', 'import "../../store/pg-store";',
      'import {\n  a,\n  b,\n} from "../../db.ts";',
    ];
    for (const line of imports) {
      expect(moduleSpecifiers(line).some((s) => isPersistence(s, file)), line).toBe(true);
    }
    const allowed = ['import { findAccessToken } from "../../tokens/find-access-token";',
      'import { dbName } from "../../dbx";', 'import { config } from "@/lib/config";', 'import { z } from "zod";'];
    for (const line of allowed) {
      expect(moduleSpecifiers(line).some((s) => isPersistence(s, file)), line).toBe(false);
    }
  });

  it("recognises them from server/ and app/ too", () => {
    expect(isPersistence("../lib/db", path.join(root, "server/main.ts"))).toBe(true);
    expect(isPersistence("../lib/store/get-hot-store", path.join(root, "server/routes.ts"))).toBe(true);
    expect(isPersistence("../../../lib/db", path.join(root, "app/api/health/route.ts"))).toBe(true);
    expect(isPersistence("../lib/log", path.join(root, "server/main.ts"))).toBe(false);
  });

  it.each(FLOW_LAYERS)("no file under %s imports lib/db, lib/store or @prisma/client", (layer, least) => {
    const files = sourceFiles(path.join(root, layer));
    expect(files.length).toBeGreaterThan(least);
    const violations = files.flatMap((file) => moduleSpecifiers(readFileSync(file, "utf8"))
      .filter((s) => isPersistence(s, file))
      .map((s) => `${path.relative(root, file)} imports ${s}`));
    expect(violations).toEqual([]);
  });
});
