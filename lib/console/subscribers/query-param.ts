/** One query parameter of a console page (the first when repeated), trimmed and at most `max` characters, or "". */
export function queryParam(query: Record<string, string | string[] | undefined>, name: string, max = 200): string {
  const v = query[name];
  const s = (Array.isArray(v) ? v[0] : v) ?? "";
  return s.trim().slice(0, max);
}
