import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tryToParsePath } from "next/dist/lib/try-to-parse-path";
import { config as proxyConfig } from "@/proxy";
import { HOT_PATHS, hotRoute } from "@/server/routes";
import { PATHS as DISCOVERY_PATHS, providerMetadata } from "@/lib/oauth/discovery";
import { GRANTS } from "@/lib/oauth/token/grants";
import { ENDPOINTS, LEAN_PATHS, PATHS, SCREEN_AREAS, type Endpoint } from "./endpoints";

// The endpoint registry (lib/http/endpoints.ts) against everything it must agree with: the files in
// app/, the provider metadata, the lean server's routes and proxy.ts's matcher. Each test fails when an
// endpoint is added to, or removed from, one of them without the table (issue 16, move 6).

const table: Array<[string, Endpoint]> = Object.entries(ENDPOINTS);
const api = table.filter(([, e]) => e.kind === "api");
const pages = table.filter(([, e]) => e.kind === "page");
/** A concrete path for a dynamic one: `[id]` → `abc`, `[...x]` → `a/b`. */
const sample = (p: string) => p.replace(/\[\.\.\.[^\]]+\]/g, "a/b").replace(/\[[^\]]+\]/g, "abc");

/** Every route.ts and page.tsx under app/, as paths (route groups dropped). */
function appFiles(): Array<{ path: string; kind: Endpoint["kind"] }> {
  const root = path.join(process.cwd(), "app");
  const found: Array<{ path: string; kind: Endpoint["kind"] }> = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const kind = entry.name === "route.ts" ? "api" : entry.name === "page.tsx" ? "page" : undefined;
    if (!kind || !entry.isFile()) continue;
    const dir = path.relative(root, entry.parentPath).split(path.sep).filter((s) => s && !/^\(.*\)$/.test(s));
    found.push({ path: `/${dir.join("/")}`, kind });
  }
  return found;
}
const inScreenArea = (p: string) => SCREEN_AREAS.some((a) => p === a || (a !== "/" && p.startsWith(`${a}/`)));

describe("the endpoint registry and app/", () => {
  const files = appFiles();

  it("has a file in app/ for every endpoint: route.ts for an api, page.tsx for a page", () => {
    const have = new Set(files.map((f) => `${f.kind} ${f.path}`));
    for (const [name, e] of table) expect(have.has(`${e.kind} ${e.path}`), `${name}: app${e.path}`).toBe(true);
  });

  it("lists every route.ts and page.tsx of app/ that is not a screen", () => {
    const listed = new Set(table.map(([, e]) => `${e.kind} ${e.path}`));
    const unlisted = files.filter((f) => !listed.has(`${f.kind} ${f.path}`) && !inScreenArea(f.path));
    expect(unlisted, "add these to ENDPOINTS (or SCREEN_AREAS) in lib/http/endpoints.ts").toEqual([]);
  });

  it("puts no endpoint inside a screen area", () => {
    expect(table.filter(([, e]) => inScreenArea(e.path)).map(([n]) => n)).toEqual([]);
  });
});

describe("the endpoint registry and the provider metadata", () => {
  const issuer = "https://op.example/base/";
  const metadata = providerMetadata(issuer) as Record<string, unknown>;

  it("advertises every endpoint with a metadata key at its path, and no other endpoint URL", () => {
    const advertised = Object.keys(metadata).filter((k) => /_(endpoint|uri)$|^service_documentation$|^check_session_iframe$/.test(k));
    expect(advertised).toEqual(table.flatMap(([, e]) => (e.metadata ? [e.metadata] : [])));
    for (const [, e] of table) if (e.metadata) expect(metadata[e.metadata]).toBe(`https://op.example/base${e.path}`);
  });

  it("keeps the document's keys in their published order", () => {
    expect(Object.keys(metadata)).toEqual(["version", "issuer", "authorization_endpoint", "token_endpoint",
      "userinfo_endpoint", "premiuminfo_endpoint", "jwks_uri", "revocation_endpoint", "introspection_endpoint",
      "pushed_authorization_request_endpoint", "backchannel_authentication_endpoint", // CIBA (issue 20)
      "end_session_endpoint", "mc_atp_endpoint", "check_session_iframe", "registration_endpoint",
      "op_policy_uri", "service_documentation", "op_tos_uri",
      "scopes_supported",
      "response_types_supported", "response_modes_supported", "grant_types_supported", "subject_types_supported",
      "acr_values_supported", "id_token_signing_alg_values_supported", "token_endpoint_auth_methods_supported",
      "token_endpoint_auth_signing_alg_values_supported", // private_key_jwt (issue 19)
      "revocation_endpoint_auth_methods_supported", "revocation_endpoint_auth_signing_alg_values_supported",
      "introspection_endpoint_auth_methods_supported", "introspection_endpoint_auth_signing_alg_values_supported",
      "code_challenge_methods_supported", "display_values_supported", "prompt_values_supported", "claims_supported",
      "claim_types_supported", "claims_parameter_supported", "request_parameter_supported",
      "request_uri_parameter_supported", "require_request_uri_registration",
      "request_object_signing_alg_values_supported", "require_pushed_authorization_requests", "ui_locales_supported", "claims_locales_supported",
      "authorization_response_iss_parameter_supported", "backchannel_logout_supported",
      "backchannel_logout_session_supported", "frontchannel_logout_supported", "frontchannel_logout_session_supported",
      "login_hint_methods_supported", "service_version_supported",
      "mobile_connect_version_supported", "mc_version", "mc_hash_algs_supported", "mc_amr_values_supported",
      "mc_di_scopes_supported",
      "backchannel_token_delivery_modes_supported", "backchannel_authentication_request_signing_alg_values_supported",
      "backchannel_user_code_parameter_supported", // CIBA (issue 20)
      "dpop_signing_alg_values_supported"]);
  });

  it("derives grant_types_supported from the token endpoint's grants", () => {
    expect(metadata.grant_types_supported).toEqual(Object.keys(GRANTS));
    expect(metadata.grant_types_supported).toEqual(["authorization_code", "refresh_token", "client_credentials",
      "urn:ietf:params:oauth:grant-type:jwt-bearer", "urn:openid:params:grant-type:ciba"]);
  });

  it("keeps PATHS (lib/oauth/discovery.ts) as the registry's fixed paths", () => {
    expect(DISCOVERY_PATHS).toBe(PATHS);
    expect(Object.values(PATHS)).toEqual(table.map(([, e]) => e.path).filter((p) => !p.includes("[")));
    expect(PATHS).toMatchObject({ authorization: "/authorize", endSession: "/logout", token: "/token" });
  });
});

describe("the endpoint registry and the lean server (server/routes.ts)", () => {
  it("routes exactly the lean endpoints, each to its route module's GET or POST", () => {
    expect([...HOT_PATHS].sort()).toEqual([...LEAN_PATHS].sort());
    for (const p of LEAN_PATHS) expect(hotRoute(p, "GET") ?? hotRoute(p, "POST"), p).toBeTypeOf("function");
    for (const [, e] of table) if (!e.lean) expect(hotRoute(sample(e.path), "GET"), e.path).toBeUndefined();
  });
});

describe("the endpoint registry and proxy.ts's matcher", () => {
  const [source] = proxyConfig.matcher;
  const matcher = new RegExp(tryToParsePath(source!).regexStr!);
  const STATIC = ["_next/static", "_next/image", "favicon\\.ico"];

  it("is one literal of the form Next.js reads at build time", () => {
    expect(proxyConfig.matcher).toHaveLength(1);
    expect(source).toMatch(/^\/\(\(\?!([^()]+)\)\.\*\)$/);
  });

  it("excludes exactly the first path segments of the api endpoints, besides static assets", () => {
    const alternatives = /^\/\(\(\?!([^()]+)\)\.\*\)$/.exec(source!)![1]!.split("|");
    expect(alternatives.slice(0, STATIC.length)).toEqual(STATIC);
    const excluded = alternatives.slice(STATIC.length).map((a) => a.replace(/\/$/, ""));
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const implied = [...new Set(api.map(([, e]) => escape(e.path.split("/")[1]!)))];
    expect([...excluded].sort()).toEqual([...implied].sort());
  });

  it("never runs on an api endpoint, always on a page and on every screen", () => {
    for (const [name, e] of api) expect(matcher.test(sample(e.path)), name).toBe(false);
    for (const [name, e] of pages) expect(matcher.test(e.path), name).toBe(true);
    for (const f of appFiles().filter((x) => inScreenArea(x.path))) {
      expect(matcher.test(sample(f.path)), f.path).toBe(true);
    }
  });
});
