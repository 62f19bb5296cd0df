/**
 * The response headers next.config.js `headers()` gives a path, computed the way Next.js applies
 * them, so that endpoints the lean server answers itself send exactly what the Next.js path sends.
 * Only plain `source` patterns are understood (literal segments, `:name`, `:name?`, `:name*`,
 * `:name+`); a rule with anything else (regex groups, `has` / `missing` conditions) makes
 * `headersFor` return null and the caller hands those paths to Next.js.
 */
export interface HeaderRule {
  source: string;
  headers: Array<{ key: string; value: string }>;
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
    const re = patternToRegExp(rule.source);
    if (!re) return null;
    if (!re.test(path)) continue;
    for (const { key, value } of rule.headers) out.set(key.toLowerCase(), [key, value]);
  }
  return [...out.values()];
}
