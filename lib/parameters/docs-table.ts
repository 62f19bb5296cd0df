import { parameterMeta, PARAMETER_SCHEMAS } from "./parameter-schema";
import { compileObject, compileRecord } from "./parameter-table";

/** The markers around the generated part of docs/endpoints.md ("Request parameters"). */
export const DOCS_TABLE_START = "<!-- parameter table: generated from lib/parameters/parameter-schema.ts -->";
export const DOCS_TABLE_END = "<!-- end of parameter table -->";

/**
 * The parameter table of docs/endpoints.md, written from the schema: for an object schema one row
 * per known parameter, for a record schema the one limit of every name. docs-table.test.ts fails when
 * the docs differ, and rewrites them with UPDATE_DOCS=1.
 */
export function renderParameterTable(): string {
  const out: string[] = [];
  for (const { endpoints, schema } of PARAMETER_SCHEMAS) {
    const where = endpoints.map(code).join(", ");
    if (schema.type === "record") {
      const limit = compileRecord(schema).otherLimit;
      out.push(...wrap(`${where}: any name, each value at most ${limit} characters.`), "");
      continue;
    }
    const { limits } = compileObject(schema);
    out.push(...wrap(`${where}: the parameters below; any other name is ignored, whatever its length.`), "");
    out.push("| Parameter | Also read as | Longest value | Then at most (characters) | Why |",
      "| --- | --- | --- | --- | --- |");
    for (const [name, field] of Object.entries(schema.shape)) {
      const meta = parameterMeta.get(field) ?? {};
      const aliases = (meta.aliases ?? []).map(code).join(", ");
      out.push(row(code(name), aliases, limits.get(name)!, meta.characters ?? "", meta.note ?? ""));
    }
    out.push("");
  }
  return [DOCS_TABLE_START, ...out.slice(0, -1), DOCS_TABLE_END].join("\n");
}

const code = (s: string) => `\`${s}\``;
const row = (...cells: Array<string | number>) => `| ${cells.join(" | ")} |`.replace(/ {2,}\|/g, " |");

/** Markdown lines of at most 120 characters (docs/testing.md style rule). */
function wrap(text: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > 120) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}
