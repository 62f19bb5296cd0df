import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import fc from "fast-check";
import { expect } from "vitest";

/** Runs per property (FUZZ_RUNS raises it for a longer local or nightly run). */
export const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 150));

/** Every `error` code this service may answer (RFC 6749 §4.1.2.1/§5.2, RFC 6750 §3.1, RFC 7009, OIDC Core §3.1.2.6, RFC 9101). */
export const STANDARD_ERRORS = new Set([
  "invalid_request", "invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type",
  "unsupported_response_type", "invalid_scope", "access_denied", "invalid_token", "insufficient_scope",
  "login_required", "consent_required", "interaction_required", "account_selection_required",
  "unmet_authentication_requirements", "unsupported_token_type", "temporarily_unavailable", "login_error",
  "request_not_supported", "request_uri_not_supported", "registration_not_supported", "slow_down",
  // RFC 9101 §6.3 / RFC 9126 §4: signed request objects and pushed requests (docs/signed-requests.md)
  "invalid_request_object", "invalid_request_uri",
]);

/** Script payloads: if any comes back unescaped in HTML, something reflects input. */
export const PAYLOADS = [
  "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "'><svg onload=alert(1)>",
  "javascript:alert(1)", "</title><script>alert(1)</script>", "{{7*7}}${7*7}", "\u0000\r\nSet-Cookie: x=1",
  "%3Cscript%3Ealert(1)%3C/script%3E", "../../../../etc/passwd", "' OR '1'='1", "\uD800", "\uFEFF\u202E",
];
const RAW_MARKERS = ["<script>alert", "<img src=x", "<svg onload"];

/** A hostile string: random text (any code points), payloads, numbers, empty, very long. */
export const hostile: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 3, arbitrary: fc.constantFrom(...PAYLOADS) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "null", "undefined", "[]", "{}", "true", "-1", "1e309", "NaN") },
  { weight: 1, arbitrary: fc.nat({ max: 6000 }).map((n) => "A".repeat(n)) },
);

/** Name/value pairs drawn from `names` (duplicates possible) plus a few unknown names. */
export function pairs(names: string[], value: fc.Arbitrary<string> = hostile) {
  const name = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: hostile });
  return fc.array(fc.tuple(name, value), { maxLength: 14 });
}

/** A hostile body: a form, JSON (object, array, nested, scalar), or garbage, with some content type. */
export function hostileBody(names: string[], valueOf: fc.Arbitrary<string> = hostile) {
  const form = pairs(names, valueOf).map((p) => new URLSearchParams(p).toString());
  const json = fc.oneof(
    pairs(names, valueOf).map((p) => JSON.stringify(Object.fromEntries(p))),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.dictionary(fc.constantFrom(...names), fc.jsonValue(), { maxKeys: 6 }).map((v) => JSON.stringify(v)),
  );
  const garbage = fc.oneof(hostile, fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString("latin1")),
    fc.constantFrom("%", "%zz", "a=%E0%A4%A", "=&=&&==", "{\"a\":", "\u0000\u0000", "a=1;b=2"));
  const type = fc.constantFrom(
    "application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=utf-8",
    "application/x-www-form-urlencoded; charset=iso-8859-1", "APPLICATION/JSON", "application/json; charset=utf-16",
    "application/json", "text/plain", "multipart/form-data; boundary=x", "application/xml", "", "*/*", "application/jwt",
    "application/x-www-form-urlencoded;;;", "application/json\u0000",
  );
  return fc.record({ body: fc.oneof(form, json, garbage), type });
}

/** Random header sets: credentials of every shape, cookies, origins, forwarded addresses. */
export function hostileHeaders(extra: { basic?: string; cookie?: string; origin?: string } = {}) {
  const b64 = (s: string) => Buffer.from(s).toString("base64");
  const auth = fc.oneof(
    hostile,
    hostile.map((s) => `Basic ${b64(s)}`),
    fc.tuple(hostile, hostile).map(([a, b]) => `Basic ${b64(`${a}:${b}`)}`),
    hostile.map((s) => `Bearer ${s}`),
    fc.constantFrom("Basic", "Basic ", "Bearer", "Basic ====", "Basic Og==", "Digest x", ...(extra.basic ? [extra.basic] : [])),
  );
  const safe = (s: string) => s.replace(/[^\x20-\x7e]/g, "").slice(0, 4000);
  return fc.record({
    authorization: auth, authentication: auth,
    cookie: fc.oneof(hostile, fc.constantFrom(...(extra.cookie ? [extra.cookie] : []), "op_browser=", "op_browser=a;op_browser=b")),
    origin: fc.oneof(hostile, fc.constantFrom("null", "https://evil.example", ...(extra.origin ? [extra.origin] : []))),
    "sec-fetch-site": fc.constantFrom("cross-site", "same-site", "same-origin", "none", "x"),
    "x-forwarded-for": hostile,
    "accept-language": hostile,
    "x-request-id": hostile,
  }, { requiredKeys: [] }).map((h) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k, safe(v)])));
}

const STACK = [/\n\s+at [^\n]+:\d+:\d+/, /node_modules/, /\/work\//, /\b[A-Z][A-Za-z]*Error: /, /webpack-internal/,
  /PrismaClient/, /SQLITE_/];

/** The checks every answer must pass, whatever was sent. Returns whether the request was refused. */
export async function expectWellFormed(res: Response, opts: { allowedLocations: (loc: URL) => boolean; label: string }) {
  const { label } = opts;
  expect(res.status, label).toBeLessThan(500);
  const type = res.headers.get("content-type") ?? "";
  const text = await res.text();
  for (const re of STACK) expect(re.test(text), `${label}: ${re} in ${text.slice(0, 300)}`).toBe(false);
  if (type.includes("text/html")) {
    for (const m of RAW_MARKERS) expect(text.includes(m), `${label}: reflected ${m}`).toBe(false);
  }
  let refused = res.status >= 400;
  if (type.includes("application/json") && text) {
    const body = JSON.parse(text) as Record<string, unknown>;
    if (res.status >= 400) expect(STANDARD_ERRORS.has(body.error as string), `${label}: ${text.slice(0, 200)}`).toBe(true);
  } else if (res.status >= 400 && ![404, 405].includes(res.status) && !(res.status === 431 && !text)) {
    // (Node's own 431 for an oversized header section has no body at all.)
    expect(type, `${label}: ${res.status} ${text.slice(0, 100)}`).toMatch(/text\/html|application\/json/);
  }
  const www = res.headers.get("www-authenticate");
  if (www) {
    const code = /error="([^"]*)"/.exec(www)?.[1];
    if (code) expect(STANDARD_ERRORS.has(code), `${label}: ${www}`).toBe(true);
  }
  const location = res.headers.get("location");
  if (location) {
    const url = new URL(location, "http://relative.invalid");
    expect(opts.allowedLocations(url), `${label}: open redirect to ${location}`).toBe(true);
    // An error sent to a client's redirect URI is an OAuth error; our own pages use their own codes.
    const error = url.origin === new URL(res.url).origin ? null : url.searchParams.get("error");
    if (error) {
      expect(STANDARD_ERRORS.has(error), `${label}: ${location}`).toBe(true);
      refused = true;
    }
  }
  return refused;
}

/**
 * A digest of every table a refused request must not change. Left out: RateLimit and AuditEvent
 * (refusals are counted and recorded on purpose), Key (created lazily on first use), migrations.
 */
export function databaseDigest(databaseUrl: string): () => Record<string, string> {
  const file = databaseUrl.startsWith("file:") ? databaseUrl.slice(5) : fileURLToPath(databaseUrl);
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  const tables = (sqlite.prepare("SELECT name FROM sqlite_master WHERE type='table'").all() as Array<{ name: string }>)
    .map((t) => t.name).filter((t) => !/^(RateLimit|AuditEvent|Key|_prisma_migrations|sqlite_.*)$/.test(t));
  const queries = tables.map((t) => [t, sqlite.prepare(`SELECT * FROM "${t}"`).raw()] as const);
  return () => Object.fromEntries(queries.map(([t, q]) => [t,
    createHash("sha256").update(JSON.stringify(q.all(), (_k, v) => (typeof v === "bigint" ? String(v) : v))).digest("base64url")]));
}

/** The names of the tables whose digest differs. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(after).filter((t) => before[t] !== after[t]);
}

/** A lone surrogate cannot be percent-encoded: send U+FFFD instead (what a browser would). */
export const enc = (s: string) => encodeURIComponent(s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD"));

/** fast-check's report, cut short: counterexamples of 6000-character strings would flood the log. */
export function shortReport<T>(details: fc.RunDetails<T>) {
  if (!details.failed) return;
  const message = fc.defaultReportMessage(details) ?? "property failed";
  const cause = details.errorInstance instanceof Error ? `\nCaused by: ${details.errorInstance.message.slice(0, 1500)}` : "";
  throw new Error(`${message.replace(/(.)\1{40,}/g, (m, c) => `${c}…(${m.length})`).slice(0, 4000)}${cause}`);
}

/** One counter per suite, printed at the end: the number the issue asks to see in the test output. */
export const tally = new Map<string, number>();
export function count(endpoint: string) {
  tally.set(endpoint, (tally.get(endpoint) ?? 0) + 1);
}
export function printTally(started: number) {
  const total = [...tally.values()].reduce((a, b) => a + b, 0);
  const parts = [...tally.entries()].map(([k, v]) => `${k}=${v}`).join(" ");
  console.log(`fuzz: ${total} cases in ${((performance.now() - started) / 1000).toFixed(1)} s (${parts})`);
}
