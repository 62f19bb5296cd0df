import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { databaseSemanticsFiles } from "../database-semantics.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("the database project's list (test/database-semantics.mjs)", () => {
  it("names only test files that exist, once each", () => {
    const missing = databaseSemanticsFiles.filter((f: string) => !f.endsWith(".test.ts") || !existsSync(path.join(root, f)));
    expect(missing).toEqual([]);
    expect(new Set(databaseSemanticsFiles).size).toBe(databaseSemanticsFiles.length);
  });
});
