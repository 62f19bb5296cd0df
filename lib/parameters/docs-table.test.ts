import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DOCS_TABLE_END, DOCS_TABLE_START, renderParameterTable } from "./docs-table";

const DOCS = fileURLToPath(new URL("../../docs/endpoints.md", import.meta.url));

/** The generated part of the docs, markers included. */
function docsTable(text: string): string {
  const start = text.indexOf(DOCS_TABLE_START);
  const end = text.indexOf(DOCS_TABLE_END);
  if (start < 0 || end < start) throw new Error(`docs/endpoints.md has lost the parameter table markers`);
  return text.slice(start, end + DOCS_TABLE_END.length);
}

describe("docs/endpoints.md, Request parameters", () => {
  it("shows the parameter table of lib/parameters/parameter-schema.ts (UPDATE_DOCS=1 rewrites it)", () => {
    const text = readFileSync(DOCS, "utf8");
    const expected = renderParameterTable();
    if (process.env.UPDATE_DOCS === "1") writeFileSync(DOCS, text.replace(docsTable(text), expected));
    expect(docsTable(readFileSync(DOCS, "utf8"))).toBe(expected);
  });

  it("keeps its lines within 120 characters", () => {
    expect(renderParameterTable().split("\n").filter((l) => l.length > 120)).toEqual([]);
  });
});
