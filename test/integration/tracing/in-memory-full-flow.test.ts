import { spawnSync } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SpanKind } from "@opentelemetry/api";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { startTracing } from "@/lib/tracing/start-tracing";
import { tracing } from "@/lib/tracing/tracing-state";
import { createClient } from "@/lib/clients/create-client";
import { randomToken } from "@/lib/crypto";
import { createTestSubscriber } from "@/test/support/fixtures";
import { latestCode, flowPoster } from "@/test/support/sign-in-http";
import { beginAuthorization, csrfOf, getInteraction } from "@/e2e/fixtures/interaction-http";
import { freePort, freshDatabase, TEST_ABUSE_LIMITS, TEST_SECRETS } from "@/test/support/server";
import { testingOnPostgres } from "@/test/support/postgres";
import { ASSERTION_TYPE, assertion, startJwksServer, testKey } from "@/test/integration/client-auth/support";

// Issue 22, "Done when": a trace of a full flow captured with the SDK's InMemorySpanExporter. The REAL
// production server (.next/server.mjs: server/main.ts with the Next.js request handler, as `npm start`
// runs it) is loaded into this test's own process (this file runs in a fork of its own), after
// lib/tracing's startTracing({ exporter }) has registered the provider: the bundle's copy of lib/tracing
// (and the Next.js build's) finds it through the process-wide state on globalThis (lib/tracing/tracing-state.ts)
// and @opentelemetry/api's global registry, so its startTracing does nothing and every span it makes lands
// in `exporter` (SimpleSpanProcessor: at once). Fresh database; the flow's client authenticates with
// private_key_jwt and keys at a jwks_uri served here, so /token makes an outbound call (the key-set fetch).
// test/integration/tracing/full-flow-trace.test.ts is the same flow exported by a separate server process
// over OTLP/HTTP.

const root = process.cwd();
const exporter = new InMemorySpanExporter();
let base: string;
let listening: http.Server | undefined;
let jwks: Awaited<ReturnType<typeof startJwksServer>>;

beforeAll(async () => {
  jwks = await startJwksServer();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const databaseUrl = freshDatabase("tracing-in-memory");
  // The server's environment, as test/support/server.ts gives a spawned one; this process's own lib/ copy
  // (the fixtures below) reads the same variables, so both talk to the fresh database.
  for (const k of Object.keys(process.env)) if (k.startsWith("OTEL_")) delete process.env[k];
  Object.assign(process.env, TEST_SECRETS, TEST_ABUSE_LIMITS, {
    ISSUER: base, DATABASE_URL: databaseUrl, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn",
    DEMO_DATA: "true", MESSAGING_CHANNEL: "inbox", ALLOW_LOOPBACK_CLIENT_URLS: "true",
  });
  expect(tracing.started).toBe(false);
  startTracing({ exporter });
  expect(tracing.on).toBe(true);

  // The bundle carrying the current lib/ (as startServer does), then loaded by Node itself (not through
  // Vitest's module transform) exactly as `node .next/server.mjs` runs it: it starts listening on import.
  const bundled = spawnSync(process.execPath, ["scripts/build-server.mjs"], { cwd: root, env: process.env, encoding: "utf8" });
  if (bundled.status !== 0) throw new Error(`scripts/build-server.mjs failed: ${bundled.stderr || bundled.stdout}`);
  // The server's node:http server, recorded when it listens, to close it at the end (its SIGTERM handler exits the process).
  const listen = http.Server.prototype.listen;
  http.Server.prototype.listen = function (this: http.Server, ...args: unknown[]) {
    if (args[0] === port) listening = this;
    return (listen as (...a: unknown[]) => http.Server).apply(this, args);
  } as typeof listen;
  try {
    await import(/* @vite-ignore */ pathToFileURL(path.join(root, process.env.NEXT_DIST_DIR || ".next", "server.mjs")).href);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ok = await fetch(`${base}/api/health`).then((r) => r.ok, () => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error("the in-process server did not become healthy within 60 s");
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    http.Server.prototype.listen = listen;
  }
  expect(listening).toBeDefined();
}, 120_000);

afterAll(async () => {
  if (listening) {
    listening.closeAllConnections();
    await new Promise<void>((r) => listening!.close(() => r()));
  }
  await jwks?.close();
});

const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;
const idOf = (s: ReadableSpan) => s.spanContext().spanId;
const traceOf = (s: ReadableSpan) => s.spanContext().traceId;
/** A span of Next.js's fetch wrapper for a request THIS test sent (client side: no parent; see below). */
const isTestClientFetch = (s: ReadableSpan) => s.instrumentationScope.name === "next.js"
  && s.attributes["next.span_type"] === "AppRender.fetch" && s.parentSpanContext === undefined;
const isRoot = (s: ReadableSpan) => s.kind === SpanKind.SERVER && parentOf(s) === undefined;

/** The root SERVER span of the request answered with `requestId` (X-Request-Id: the trace id), and its whole trace. */
function traceFor(requestId: string | null) {
  const all = exporter.getFinishedSpans().filter((s) => traceOf(s) === requestId);
  const root = all.find(isRoot);
  if (!root) throw new Error(`no request span for ${requestId}`);
  return { root, all, children: all.filter((s) => parentOf(s) === idOf(root)) };
}

/** The spans below `root` (any depth: Next.js puts its own spans between ours on the requests it renders). */
function below(root: ReadableSpan): ReadableSpan[] {
  const all = exporter.getFinishedSpans().filter((s) => traceOf(s) === traceOf(root));
  const ids = new Set([idOf(root)]);
  const out: ReadableSpan[] = [];
  for (let grew = true; grew;) {
    grew = false;
    for (const s of all) if (!ids.has(idOf(s)) && ids.has(parentOf(s) ?? "")) { ids.add(idOf(s)); out.push(s); grew = true; }
  }
  return out;
}

const dbSystem = () => (testingOnPostgres() ? "postgresql" : "sqlite");
const isStatement = (s: ReadableSpan) => s.kind === SpanKind.CLIENT && s.attributes["db.system"] === dbSystem();

describe("a trace of a full flow (the real server in-process, InMemorySpanExporter)", () => {
  it("authorize → SMS-code sign-in → consent → code → token (private_key_jwt, jwks_uri) → premiuminfo", async () => {
    // The relying party: private_key_jwt with its keys at a jwks_uri (fetched by /token).
    const key = await testKey("ES256");
    jwks.state.keys = [key.jwk];
    const name = `TraceRp${randomToken(8).replace(/[^A-Za-z0-9]/g, "")}`;
    const redirectUri = "https://rp.example.test/callback";
    const { client } = await createClient({ name, redirectUris: [redirectUri], scopes: ["openid", "mc_identity_phonenumber"],
      authMethod: "private_key_jwt", jwksUri: `${jwks.base}/jwks/trace` });
    const subscriber = await createTestSubscriber();
    exporter.reset(); // only the flow's requests from here

    const post = flowPoster(base);
    const f = await beginAuthorization(base, { id: client.id, name, redirectUri }, { scope: "openid mc_identity_phonenumber" });
    await post(f, "msisdn", { msisdn: subscriber.msisdn });
    const smsCode = (await latestCode(subscriber.msisdn))!;
    expect(smsCode).toMatch(/^\d{6}$/);
    const signedIn = await post(f, "code", { code: smsCode });
    expect(signedIn.headers.get("location")).toBe(`${base}/authorize/resume/${f.id}`);
    let res = await fetch(`${base}/authorize/resume/${f.id}`, { headers: { cookie: f.cookie }, redirect: "manual" });
    let consented = false;
    if (res.headers.get("location") === `${base}/interaction/${f.id}`) {
      f.csrf = csrfOf((await getInteraction(base, f.id, f.cookie)).html);
      await post(f, "consent", { decision: "allow" });
      consented = true;
      res = await fetch(`${base}/authorize/resume/${f.id}`, { headers: { cookie: f.cookie }, redirect: "manual" });
    }
    const code = new URL(res.headers.get("location")!).searchParams.get("code")!;
    expect(code).toBeTruthy();
    const clientAssertion = await assertion(key, client.id, base);
    const token = await fetch(`${base}/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri,
        client_assertion_type: ASSERTION_TYPE, client_assertion: clientAssertion }) });
    const tokenBody = (await token.json()) as { access_token: string; id_token: string };
    expect(token.status, JSON.stringify(tokenBody)).toBe(200);
    expect(jwks.hits("/jwks/trace")).toBe(1);
    const premium = await fetch(`${base}/premiuminfo`, { headers: { authorization: `Bearer ${tokenBody.access_token}` } });
    expect(premium.status).toBe(200);
    await premium.arrayBuffer();

    // Next.js wraps the global fetch of the process it runs in and would record every call as a span named with
    // its full URL (query included); lib/tracing turns that off (NEXT_OTEL_FETCH_DISABLED) when tracing is on, so
    // neither the server's outbound calls nor this test's own requests (in the same process here) appear as such.
    const finished = exporter.getFinishedSpans();
    const clientSide = finished.filter(isTestClientFetch);
    expect(clientSide).toEqual([]);
    const spans = finished.filter((x) => !isTestClientFetch(x));
    expect(new Set(spans.map((s) => s.resource.attributes["service.name"]))).toEqual(new Set(["operator-identity-service"]));

    // One SERVER span per request of the flow (each the root of its own trace), named for its route.
    const roots = spans.filter(isRoot);
    const routes = roots.map((s) => s.name);
    const expected = ["GET /authorize", "GET /interaction/*", "POST /interaction/*", "POST /interaction/*",
      "GET /authorize/resume/[id]", ...(consented ? ["GET /interaction/*", "POST /interaction/*", "GET /authorize/resume/[id]"] : []),
      "POST /token", "GET /premiuminfo"];
    expect([...routes].sort()).toEqual([...expected].sort());
    expect(new Set(roots.map(traceOf)).size).toBe(roots.length);
    for (const r of roots) {
      expect(r.attributes["http.response.status_code"], r.name).toBeTypeOf("number");
      expect(String(r.attributes["url.path"])).not.toContain("?");
    }
    // Every span belongs to the trace of one of these requests (no stray single-span traces: background
    // loops' statements are not traced).
    const rootTraces = new Set(roots.map(traceOf));
    for (const s of spans) expect(rootTraces.has(traceOf(s)), s.name).toBe(true);
    for (const s of clientSide) expect(rootTraces.has(traceOf(s)), s.name).toBe(false);
    // Next.js's own spans sit below ours on the requests it handles (the screens, the resume), never as roots.
    expect(spans.some((x) => x.instrumentationScope.name === "next.js")).toBe(true);

    // /token: its database statements, the id_token's signature and the jwks_uri fetch, children of its SERVER span.
    const t = traceFor(token.headers.get("x-request-id"));
    expect(t.root.name).toBe("POST /token");
    expect(t.root.attributes).toMatchObject({ "http.request.method": "POST", "url.path": "/token", "http.route": "/token",
      "http.response.status_code": 200 });
    const sign = t.children.filter((s) => s.name === "jwt.sign");
    expect(sign.length).toBeGreaterThan(0);
    expect(sign[0]!.kind).toBe(SpanKind.INTERNAL);
    expect(sign[0]!.attributes["jwt.alg"]).toBe("RS256");
    expect(sign[0]!.attributes["jwt.kid"]).toBeTruthy();
    const statements = t.all.filter(isStatement);
    expect(statements.length).toBeGreaterThan(0);
    for (const s of statements) {
      expect(parentOf(s)).toBe(idOf(t.root));
      expect(s.name).toBe(String(s.attributes["db.query.text"]).split(/\s/)[0]!.toUpperCase());
      expect(String(s.attributes["db.query.text"])).toMatch(/^(SELECT|INSERT|UPDATE|DELETE|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/);
    }
    const keyFetch = t.children.find((s) => s.kind === SpanKind.CLIENT && s.attributes["url.path"] === "/jwks/trace")!;
    expect(keyFetch).toBeDefined();
    expect(keyFetch.name).toBe("GET");
    expect(keyFetch.attributes).toEqual({ "http.request.method": "GET", "server.address": "127.0.0.1", "url.path": "/jwks/trace",
      "http.response.status_code": 200 });

    // The sign-in's text message: message.send under the request that sent it (the msisdn step).
    const sending = roots.find((x) => x.attributes["url.path"] === `/interaction/${f.id}/msisdn`)!;
    expect(sending.name).toBe("POST /interaction/*");
    expect(sending.attributes["http.route"]).toBe("/interaction/[id]/msisdn"); // Next.js's route, set on our span
    const send = below(sending).filter((x) => x.name === "message.send");
    expect(send).toHaveLength(1);
    expect(send[0]!.kind).toBe(SpanKind.CLIENT);
    expect(send[0]!.attributes).toEqual({ "messaging.system": "inbox" });
    expect(below(sending).some(isStatement)).toBe(true);
    expect(spans.filter((x) => x.name === "message.send")).toHaveLength(1);

    // /authorize and /premiuminfo read the database under their own request span.
    for (const route of ["GET /authorize", "GET /premiuminfo"]) {
      const r = roots.find((x) => x.name === route)!;
      expect(below(r).some((x) => isStatement(x) && parentOf(x) === idOf(r)), route).toBe(true);
    }

    // Never recorded: query strings, codes, tokens, the client assertion, the subscriber's number, cookies, state.
    const everything = JSON.stringify(spans.map((x) => ({ name: x.name, attributes: x.attributes, events: x.events })));
    const cookieValue = f.cookie.split(";")[0]!.split("=").slice(1).join("=");
    for (const secret of [smsCode, code, tokenBody.access_token, tokenBody.id_token, clientAssertion, subscriber.msisdn,
      cookieValue, f.csrf, "st-123", "n-123"]) {
      expect(secret.length).toBeGreaterThan(4);
      expect(everything).not.toContain(secret);
    }
  }, 60_000);
});
