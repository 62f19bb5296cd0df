import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestClient, createTestSubscriber } from "@/test/support/fixtures";
import { latestCode, flowPoster } from "@/test/support/sign-in-http";
import { redeemCode } from "@/test/support/codes";
import { beginAuthorization, csrfOf, getInteraction } from "@/e2e/fixtures/interaction-http";
import { startServer, type RunningServer } from "@/test/support/server";
import { testingOnPostgres } from "@/test/support/postgres";

// Issue 22, "OpenTelemetry traces", against the real server process: it runs with only the standard
// variables (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTLP over HTTP/JSON) pointing at a tiny OTLP receiver
// in this test, on the shared test database. A full flow (authorize → SMS-code sign-in → consent →
// code → token → premiuminfo) is driven and its spans asserted. The span structure with the SDK's
// InMemorySpanExporter is lib/tracing/spans.test.ts.

interface OtlpValue { stringValue?: string; intValue?: string | number; boolValue?: boolean }
interface OtlpSpan {
  traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number;
  attributes?: Array<{ key: string; value: OtlpValue }>;
}
interface Span { traceId: string; spanId: string; parent?: string; name: string; kind: number; attrs: Record<string, unknown> }
const SERVER = 2, CLIENT = 3;

const spans: Span[] = [];
const services = new Set<string>();
let receiver: http.Server;
let server: RunningServer;

const value = (v: OtlpValue) => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : v.boolValue);
const attrs = (list: OtlpSpan["attributes"] = []) => Object.fromEntries(list.map((a) => [a.key, value(a.value)]));

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { resourceSpans: Array<{
        resource: { attributes: OtlpSpan["attributes"] }; scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
      for (const rs of body.resourceSpans) {
        services.add(String(attrs(rs.resource.attributes)["service.name"]));
        for (const ss of rs.scopeSpans) for (const s of ss.spans) {
          spans.push({ traceId: s.traceId, spanId: s.spanId, parent: s.parentSpanId || undefined, name: s.name, kind: s.kind,
            attrs: attrs(s.attributes) });
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const port = (receiver.address() as AddressInfo).port;
  server = await startServer({ name: "tracing", databaseUrl: inject("databaseUrl"), env: {
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${port}/v1/traces`,
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json", OTEL_BSP_SCHEDULE_DELAY: "100",
    MESSAGING_CHANNEL: "inbox",
  } });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  receiver?.close();
});

/** The SERVER span of the request answered with `traceId` (X-Request-Id), once exported, and its trace. */
async function traceOf(traceId: string, until: (t: Span[]) => boolean = () => true): Promise<{ root: Span; all: Span[] }> {
  for (let i = 0; i < 100; i++) {
    const all = spans.filter((s) => s.traceId === traceId);
    const root = all.find((s) => s.kind === SERVER && !s.parent);
    if (root && until(all)) return { root, all };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no complete trace ${traceId} exported (${spans.length} spans seen)`);
}

/**
 * Every request span (a root SERVER span) named for this route, in the order the receiver got them. (Next.js
 * adds its own spans below ours on the requests it handles, and sets its route as `http.route` on ours.)
 */
const rootsFor = (route: string) => spans.filter((s) => s.kind === SERVER && !s.parent && s.name.endsWith(` ${route}`));

describe("a trace of a full flow (the real server, OTLP)", () => {
  it("one SERVER span per request; database, jwt.sign and outbound children; the request id is the trace id", async () => {
    const base = server.baseUrl;
    const client = await createTestClient({ scopes: ["openid", "mc_identity_phonenumber"] });
    const subscriber = await createTestSubscriber();
    const post = flowPoster(base);
    const f = await beginAuthorization(base, client, { scope: "openid mc_identity_phonenumber" });
    await post(f, "msisdn", { msisdn: subscriber.msisdn });
    const signedIn = await post(f, "code", { code: (await latestCode(subscriber.msisdn))! });
    expect(signedIn.headers.get("location")).toBe(`${base}/authorize/resume/${f.id}`);
    let res = await fetch(`${base}/authorize/resume/${f.id}`, { headers: { cookie: f.cookie }, redirect: "manual" });
    if (res.headers.get("location") === `${base}/interaction/${f.id}`) {
      f.csrf = csrfOf((await getInteraction(base, f.id, f.cookie)).html);
      await post(f, "consent", { decision: "allow" });
      res = await fetch(`${base}/authorize/resume/${f.id}`, { headers: { cookie: f.cookie }, redirect: "manual" });
    }
    const code = new URL(res.headers.get("location")!).searchParams.get("code")!;
    expect(code).toBeTruthy();
    const token = await redeemCode(base, client, code);
    expect(token.status).toBe(200);
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    const tokenTraceId = token.headers.get("x-request-id")!;
    expect(tokenTraceId).toMatch(/^[0-9a-f]{32}$/); // the trace id, not a random request id
    const premium = await fetch(`${base}/premiuminfo`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(premium.status).toBe(200);

    // /token: the SERVER span with its attributes, database statements and the id_token's signature as children.
    const { root, all } = await traceOf(tokenTraceId, (t) => t.some((s) => s.name === "jwt.sign"));
    expect(services).toEqual(new Set(["operator-identity-service"]));
    expect(root.name).toBe("POST /token");
    expect(root.attrs).toMatchObject({ "http.request.method": "POST", "url.path": "/token", "http.route": "/token",
      "http.response.status_code": 200 });
    const sign = all.find((s) => s.name === "jwt.sign")!;
    expect(sign.parent).toBe(root.spanId);
    expect(sign.attrs["jwt.alg"]).toBe("RS256");
    expect(sign.attrs["jwt.kid"]).toBeTruthy();
    const statements = all.filter((s) => s.kind === CLIENT && s.attrs["db.system"] === (testingOnPostgres() ? "postgresql" : "sqlite"));
    expect(statements.length).toBeGreaterThan(0);
    for (const s of statements) {
      expect(s.parent).toBe(root.spanId);
      expect(String(s.attrs["db.query.text"])).toMatch(/^(SELECT|INSERT|UPDATE|DELETE|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/);
    }

    // Every request of the flow has its one SERVER span: /authorize, the screens (Next.js), resume, token, premiuminfo.
    await traceOf(premium.headers.get("x-request-id") ?? "", () => true).catch(() => undefined);
    for (const route of ["/authorize", "/interaction/*", "/authorize/resume/[id]", "/token", "/premiuminfo"]) {
      expect(rootsFor(route).length, route).toBeGreaterThan(0);
    }
    const premiumRoot = rootsFor("/premiuminfo").at(-1)!;
    expect(spans.some((s) => s.traceId === premiumRoot.traceId && s.parent === premiumRoot.spanId && s.attrs["db.system"]))
      .toBe(true);
    // The outbound call of the flow: the one-time code sent to the handset, under the screen's request span.
    const send = spans.find((s) => s.name === "message.send")!;
    expect(send.kind).toBe(CLIENT);
    expect(send.attrs).toEqual({ "messaging.system": "inbox" });
    expect(spans.some((s) => s.spanId === send.parent && s.traceId === send.traceId)).toBe(true);

    // Never recorded: query strings, codes, tokens, the subscriber's number, statement parameters.
    const everything = JSON.stringify(spans);
    for (const secret of [code, accessToken, subscriber.msisdn, client.secret!, "st-123"]) {
      expect(everything).not.toContain(secret);
    }
    expect(spans.filter((s) => s.kind === SERVER).every((s) => !String(s.attrs["url.path"]).includes("?"))).toBe(true);
  }, 60_000);

  it("an error page's X-Request-Id is the trace id of its request", async () => {
    const res = await fetch(`${server.baseUrl}/authorize?client_id=nobody&response_type=code`, { redirect: "manual" });
    expect(res.status).toBe(400);
    const id = res.headers.get("x-request-id")!;
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(await res.text()).toContain(id);
    const { root } = await traceOf(id);
    expect(root.attrs).toMatchObject({ "http.route": "/authorize", "http.response.status_code": 400 });
  });
});
