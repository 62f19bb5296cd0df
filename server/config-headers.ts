/**
 * The response headers next.config.js `headers()` gives a path, as the build recorded them
 * (`<distDir>/routes-manifest.json`, with the regex Next.js compiled for each source), so that the
 * endpoints the lean server answers itself send exactly what the Next.js path of the same build sends.
 * A rule without a compiled regex falls back to the plain `source` patterns (literal segments,
 * `:name`, `:name?`, `:name*`, `:name+`); anything else, or `has` / `missing` conditions, makes
 * `headersFor` return null and the caller hands those paths to Next.js.
 */
export interface HeaderRule {
  source: string;
  headers: Array<{ key: string; value: string }>;
  regex?: string;
  has?: unknown;
  missing?: unknown;
}

function patternToRegExp(source: string): RegExp | null {
  if (!source.startsWith("/") || /[()[\]{}\\^$|]/.test(source)) return null;
  let re = "^";
  for (const segment of source.split("/").slice(1)) {
    const param = /^:([A-Za-z_][A-Za-z0-9_]*)([*+?]?)$/.exec(segment);
    if (!param) {
      if (segment.includes(":") || segment.includes("*")) return null;
      re += `/${segment.replace(/[.+?]/g, (c) => `\\${c}`)}`;
    } else if (param[2] === "*") re += "(?:/[^/]+)*";
    else if (param[2] === "+") re += "(?:/[^/]+)+";
    else if (param[2] === "?") re += "(?:/[^/]+)?";
    else re += "/[^/]+";
  }
  return new RegExp(`${re}/?$`);
}

/** Headers for `path` from the rules, in order (a later rule overrides a header of an earlier one). */
export function headersFor(rules: HeaderRule[], path: string): Array<[string, string]> | null {
  const out = new Map<string, [string, string]>();
  for (const rule of rules) {
    if (rule.has !== undefined || rule.missing !== undefined) return null;
    const re = rule.regex ? new RegExp(rule.regex) : patternToRegExp(rule.source);
    if (!re) return null;
    if (!re.test(path)) continue;
    for (const { key, value } of rule.headers) out.set(key.toLowerCase(), [key, value]);
  }
  return [...out.values()];
}
