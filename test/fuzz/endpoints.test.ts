import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { PrismaClient } from "@prisma/client";
import { createAdapter } from "@/lib/db";
import { hashSecret, randomToken } from "@/lib/crypto";
import { startServer, type RunningServer } from "../support/server";
import {
  changedTables, count, databaseDigest, enc, expectWellFormed, hostile, hostileBody, hostileHeaders, pairs, printTally, RUNS, shortReport,
} from "./support";

/**
 * Property-based fuzzing of every endpoint over HTTP (issue 6, "Bad input"): random and hostile
 * parameters, bodies, content types, headers and encodings. Every answer must be a well-formed
 * standard answer (no 5xx, standard `error` codes, no stack trace or path, nothing reflected
 * unescaped, no redirect anywhere but our pages and registered URIs), and a refused request must
 * leave the database exactly as it was. A server of its own, so other suites' writes cannot blur
 * the database comparison. FUZZ_RUNS=<n> sets the runs per property (default 200).
 */
let server: RunningServer;
let base: string;
let db: PrismaClient;
let digest: () => Record<string, string>;
const started = performance.now();

const REDIRECT = "https://rp.example.test/callback";
const LOGOUT = "https://rp.example.test/bye";
const confidential = { id: `fuzz-${randomToken(6)}`, secret: randomToken(24) };
const publicClient = { id: `fuzz-pub-${randomToken(6)}` };
let basic = "";
let pending = { id: "", cookie: "", csrf: "" };

const AUTHORIZE_NAMES = ["client_id", "client_name", "redirect_uri", "response_type", "scope", "state", "nonce",
  "acr_values", "display", "prompt", "max_age", "max-age", "ui_locales", "ui-locales", "claims_locales", "id_token_hint",
  "login_hint", "login_hint_token", "version", "binding_message", "binding message", "context", "code_challenge",
  "code_challenge_method", "request", "request_uri", "claims", "response_mode", "registration"];
const TOKEN_NAMES = ["grant_type", "code", "redirect_uri", "client_id", "client_secret", "code_verifier", "refresh_token",
  "scope", "client_assertion", "client_assertion_type"];
const TOKEN_VALUES = () => fc.oneof(hostile, fc.constantFrom("authorization_code", "refresh_token", "client_credentials",
  "password", confidential.id, confidential.secret, publicClient.id, REDIRECT, "openid", "S256"));

/** Where any of our answers may send a browser: our own pages, or exactly a registered URI. */
function allowedLocation(loc: URL): boolean {
  if (loc.origin === base || loc.origin === "http://relative.invalid") return true;
  const href = loc.href;
  return [REDIRECT, LOGOUT].some((u) => href === u || href.startsWith(`${u}?`));
}

async function send(label: string, url: string, init: RequestInit & { mustNotWrite?: boolean } = {}) {
  const before = digest();
  let res: Response;
  try {
    res = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(20_000), ...init });
  } catch (err) {
    // Requests fetch itself refuses to build (a header value it cannot encode) are not cases;
    // a network failure ("fetch failed": reset, refused, closed) is a finding.
    if (err instanceof TypeError && err.message !== "fetch failed") return;
    throw err;
  }
  count(label);
  const refused = await expectWellFormed(res, { allowedLocations: allowedLocation, label: `${label} ${init.method ?? "GET"} ${url.slice(0, 200)}` });
  if (refused || init.mustNotWrite) {
    expect(changedTables(before, digest()), `${label}: a refused request changed the database (${res.status})`).toEqual([]);
  }
}

const validAuthorize = (): Array<[string, string]> => [["client_id", confidential.id], ["redirect_uri", REDIRECT],
  ["response_type", "code"], ["scope", "openid"], ["state", "s"], ["nonce", "n"], ["acr_values", "2"]];

/** A valid authorization request with some parameters replaced, dropped or repeated with hostile values. */
const mutatedAuthorize = fc.record({
  drop: fc.subarray(["client_id", "redirect_uri", "response_type", "scope", "state", "nonce", "acr_values"]),
  edits: fc.array(fc.tuple(fc.constantFrom(...AUTHORIZE_NAMES), hostile, fc.boolean()), { maxLength: 6 }),
}).map(({ drop, edits }) => {
  let list = validAuthorize().filter(([k]) => !drop.includes(k));
  for (const [k, v, replace] of edits) {
    if (replace) list = list.filter(([n]) => n !== k);
    list.push([k, v]);
  }
  return list;
});

const property = <T>(arb: fc.Arbitrary<T>, run: (v: T) => Promise<void>) =>
  fc.assert(fc.asyncProperty(arb, run), { numRuns: RUNS, endOnFailure: true, reporter: shortReport });

beforeAll(async () => {
  server = await startServer({ name: "fuzz" });
  base = server.baseUrl;
  db = new PrismaClient({ adapter: createAdapter(server.databaseUrl) });
  const common = { redirectUris: JSON.stringify([REDIRECT]), postLogoutRedirectUris: JSON.stringify([LOGOUT]),
    allowedScopes: "openid mc_authn mc_authz mc_identity_phonenumber offline_access", sectorIdentifier: "rp.example.test" };
  await db.client.create({ data: { id: confidential.id, name: "FuzzApp", secretHash: await hashSecret(confidential.secret), ...common } });
  await db.client.create({ data: { id: publicClient.id, name: "FuzzPublic", isPublic: true, ...common } });
  basic = `Basic ${Buffer.from(`${confidential.id}:${confidential.secret}`).toString("base64")}`;
  // Keys are created on first use: create them now so the digest is stable from here on. So is the playground's
  // client (on next-auth's first request).
  await fetch(`${base}/jwks`);
  await fetch(`${base}/api/auth/providers`);
  const res = await fetch(`${base}/authorize?${new URLSearchParams(validAuthorize())}`, { redirect: "manual" });
  const id = new URL(res.headers.get("location")!).pathname.split("/").pop()!;
  const cookie = res.headers.get("set-cookie")!.split(";")[0]!;
  const page = await (await fetch(`${base}/interaction/${id}`, { headers: { cookie } })).text();
  pending = { id, cookie, csrf: /name="csrf_token" value="([^"]+)"/.exec(page)![1]! };
  digest = databaseDigest(server.databaseUrl);
}, 120_000);

afterAll(async () => {
  printTally(started);
  await db?.$disconnect();
  await server?.stop();
});

describe("fuzz: authorization endpoint", () => {
  it("GET with mutated requests and hostile headers", () => property(
    fc.tuple(mutatedAuthorize, hostileHeaders({ basic: "" })),
    ([q, headers]) => send("authorize-get", `${base}/authorize?${new URLSearchParams(q)}`, { headers }),
  ), 300_000);

  it("POST with hostile bodies and content types", () => property(
    fc.tuple(fc.oneof(mutatedAuthorize.map((q) => ({ body: new URLSearchParams(q).toString(),
      type: "application/x-www-form-urlencoded" })), hostileBody(AUTHORIZE_NAMES)), hostileHeaders()),
    ([{ body, type }, headers]) => send("authorize-post", `${base}/authorize`, {
      method: "POST", body, headers: { ...headers, "content-type": type } }),
  ), 300_000);

  it("never redirects to a redirect_uri that is not registered byte for byte", () => property(
    fc.constantFrom(
      "https://rp.example.test/callback/", "https://rp.example.test/callbackx", "https://rp.example.test/callback?x=1",
      "https://rp.example.test/callback#x", "https://RP.example.test/callback", "HTTPS://rp.example.test/callback",
      "https://rp.example.test/Callback", "https://rp.example.test:443/callback", "https://rp.example.test:8443/callback",
      "http://rp.example.test/callback", "https://evil.example/callback", "https://rp.example.test.evil.example/callback",
      "https://evil.example@rp.example.test/callback", "https://rp.example.test@evil.example/callback",
      "https://rp.example.test%2F@evil.example/callback", "https://rp.example.test/callback/../../evil",
      "https://rp.example.test/%63allback", "https%3A%2F%2Frp.example.test%2Fcallback", "//evil.example/callback",
      "https://rp.example.test/callback%00", " https://rp.example.test/callback", "https://rp.example.test/callback ",
      "https://rp.example.test\\@evil.example/callback", "javascript:alert(1)//https://rp.example.test/callback",
      "https://rp.example.test/call", "https://rp.example.test", "https://rp.example.test/callback;x", ""),
    async (uri) => {
      const q = validAuthorize().map(([k, v]): [string, string] => [k, k === "redirect_uri" ? uri : v]);
      const res = await fetch(`${base}/authorize?${new URLSearchParams(q)}`, { redirect: "manual" });
      count("authorize-redirect-variants");
      expect(res.status, uri).toBe(400);
      expect(res.headers.get("location"), uri).toBeNull();
      await res.text();
    },
  ), 120_000);
});

describe("fuzz: token, revocation, introspection", () => {
  for (const [path, label] of [["/token", "token"], ["/revoke", "revoke"], ["/introspect", "introspect"]] as const) {
    it(`${path} with hostile bodies, encodings and credentials`, () => property(
      fc.tuple(hostileBody(TOKEN_NAMES.concat("token", "token_type_hint"), TOKEN_VALUES()), hostileHeaders({ basic }),
        fc.constantFrom("POST", "POST", "POST", "PUT", "GET")),
      ([{ body, type }, headers, method]) => send(label, `${base}${path}`, method === "GET"
        ? { headers, mustNotWrite: true }
        : { method, body, headers: { ...headers, "content-type": type }, mustNotWrite: true }),
    ), 300_000);
  }
});

describe("fuzz: resources and metadata", () => {
  it("premiuminfo and userinfo by GET and POST with hostile tokens", () => property(
    fc.tuple(fc.constantFrom("/premiuminfo", "/userinfo"), pairs(["token", "access_token", "schema"]),
      hostileBody(["token", "access_token"]), hostileHeaders(), fc.boolean()),
    ([path, query, { body, type }, headers, post]) => send("resource", `${base}${path}?${new URLSearchParams(query)}`,
      post ? { method: "POST", body, headers: { ...headers, "content-type": type }, mustNotWrite: true }
        : { headers, mustNotWrite: true }),
  ), 300_000);

  it("jwks, discovery and health with hostile queries and headers", () => property(
    fc.tuple(fc.constantFrom("/jwks", "/.well-known/openid-configuration", "/api/health"), pairs(["kid", "x"]), hostileHeaders()),
    ([path, query, headers]) => send("metadata", `${base}${path}?${new URLSearchParams(query)}`, { headers, mustNotWrite: true }),
  ), 300_000);
});

describe("fuzz: logout", () => {
  it("GET and POST with hostile hints, redirect URIs, CSRF tokens and cookies", () => property(
    fc.tuple(pairs(["id_token_hint", "post_logout_redirect_uri", "state", "client_id", "decision", "csrf", "ui_locales"],
      fc.oneof(hostile, fc.constantFrom(LOGOUT, `${LOGOUT}/`, "https://evil.example/bye", confidential.id, "logout"))),
    hostileHeaders(), fc.boolean()),
    ([params, headers, post]) => {
      const q = new URLSearchParams(params).toString();
      return post
        ? send("logout", `${base}/logout`, { method: "POST", body: q, mustNotWrite: true,
          headers: { ...headers, "content-type": "application/x-www-form-urlencoded" } })
        : send("logout", `${base}/logout?${q}`, { headers, mustNotWrite: true });
    },
  ), 300_000);
});

describe("fuzz: next-auth's routes", () => {
  // next-auth v4 JSON-parsed any body naming application/json and answered 500 when it was not JSON (issue 33).
  const paths = ["/api/auth/session", "/api/auth/signin/operator", "/api/auth/signout", "/api/auth/callback/operator",
    "/api/auth/_log", "/api/auth/csrf", "/console/auth/callback/staff", "/console/auth/signin"];
  it("the playground's and the console's next-auth POSTs with hostile bodies, content types and headers", () => property(
    fc.tuple(fc.constantFrom(...paths), hostileBody(["csrfToken", "json", "callbackUrl", "username", "password", "code",
      "data"]), hostileHeaders({ origin: "real" })),
    ([path, { body, type }, headers]) => {
      const h = { ...headers };
      if (h.origin === "real") h.origin = base;
      return send("next-auth", `${base}${path}`, { method: "POST", body, headers: { ...h, "content-type": type } });
    },
  ), 300_000);
});

describe("fuzz: sign-in screens", () => {
  const steps = ["msisdn", "code", "consent", "select", "cancel", "resend", "restart"];
  it("form POSTs with hostile forms, ids, origins and CSRF tokens", () => property(
    fc.tuple(fc.oneof(fc.constant("real"), hostile), fc.oneof(fc.constantFrom(...steps), hostile),
      pairs(["csrf_token", "msisdn", "code", "pin", "decision", "account"]), hostileHeaders({ cookie: "real", origin: "real" })),
    async ([idChoice, step, form, headers]) => {
      const id = idChoice === "real" ? pending.id : idChoice;
      const h = { ...headers };
      if (h.cookie === "real") h.cookie = pending.cookie;
      if (h.origin === "real") h.origin = base;
      // The form never carries the real CSRF token: every one of these must be refused, unchanged.
      await send("interaction-post", `${base}/interaction/${enc(id)}/${enc(step)}`, {
        method: "POST", body: new URLSearchParams(form).toString(), mustNotWrite: true,
        headers: { ...h, "content-type": "application/x-www-form-urlencoded" } });
    },
  ), 300_000);

  it("screens and authorization steps by GET with hostile ids and queries", () => property(
    fc.tuple(fc.constantFrom("/interaction/", "/authorize/resume/", "/authorize/wait/"), fc.oneof(fc.constant("real"), hostile),
      pairs(["e", "step", "ui_locales", "display"]), fc.boolean()),
    ([prefix, idChoice, query, withCookie]) => {
      const id = idChoice === "real" ? pending.id : idChoice;
      // Resuming the real request may legitimately move it on, so only the other cases must not write.
      const mustNotWrite = !(idChoice === "real" && prefix !== "/interaction/");
      return send("screens-get", `${base}${prefix}${enc(id)}?${new URLSearchParams(query)}`, {
        headers: withCookie ? { cookie: pending.cookie } : {}, mustNotWrite, signal: AbortSignal.timeout(20_000) });
    },
  ), 300_000);
});

describe("fuzz: device endpoints", () => {
  it("enrolment and answer forms, and the device pages, with hostile input", () => property(
    fc.tuple(fc.constantFrom("/handset/enrol/start", "/handset/enrol/confirm", "/handset/requests/x", "/handset/requests/"),
      fc.oneof(fc.constant(""), hostile), pairs(["msisdn", "code", "name", "decision", "pin"]), hostileHeaders({ origin: "real" }),
      pairs(["error", "step", "result"]), fc.boolean(), fc.constantFrom("/handset", "/handset/enrol", "/handset/inbox")),
    async ([path, suffix, form, headers, query, post, page]) => {
      const h = { ...headers };
      if (h.origin === "real") h.origin = base;
      if (post) {
        // A hostile MSISDN must be refused; a well-formed one may start an enrolment (not a refusal).
        await send("device-post", `${base}${path}${path.endsWith("/") ? enc(suffix) : ""}`, {
          method: "POST", body: new URLSearchParams(form).toString(),
          headers: { ...h, "content-type": "application/x-www-form-urlencoded" } });
      } else {
        await send("device-get", `${base}${page}?${new URLSearchParams(query)}`, { headers: h, mustNotWrite: true });
      }
    },
  ), 300_000);
});
