import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SpanKind, trace } from "@opentelemetry/api";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { startTracing, stopTracing } from "./start-tracing";
import { traceRequest, routeOf } from "./trace-request";
import { dbSpan, dbSpanSync, outboundSpan, signSpan } from "./spans";
import { tracing } from "./tracing-state";
import { currentTraceId } from "./trace-id";

// The span structure with the in-memory exporter, in-process: a real node:http server whose handler
// goes through traceRequest as server/main.ts does. test/integration/tracing covers the real server.
const exporter = new InMemorySpanExporter();
let server: http.Server;
let base: string;
const seen: Array<string | undefined> = [];

beforeAll(async () => {
  await stopTracing();
  startTracing({ exporter });
  server = http.createServer((req, res) => traceRequest(req, res, () => {
    void (async () => {
      seen.push(currentTraceId());
      await dbSpan("sqlite", "SELECT id FROM Client WHERE id = ?", async () => undefined);
      dbSpanSync("sqlite", "UPDATE AccessToken SET revokedAt = ? WHERE id = ?", () => 1);
      await signSpan("RS256", "kid-1", async () => "jwt");
      await outboundSpan("POST", "https://rp.example/logout?token=secret", async (span) => {
        span.setAttribute("http.response.status_code", 204);
      });
      res.statusCode = 201;
      res.end("ok");
    })();
  }));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.close();
  await stopTracing();
});

describe("spans (in-memory exporter)", () => {
  it("one SERVER span per request with its children, no query string, the trace id as request id", async () => {
    exporter.reset();
    const res = await fetch(`${base}/authorize/resume/abc?code=SECRET&login_hint=447700900123`,
      { headers: { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" } });
    expect(res.status).toBe(201);
    await new Promise((r) => setTimeout(r, 20));
    const spans = exporter.getFinishedSpans();
    const root = spans.find((s) => s.kind === SpanKind.SERVER)!;
    expect(root.name).toBe("GET /authorize/resume/[id]");
    expect(root.attributes).toMatchObject({ "http.request.method": "GET", "url.path": "/authorize/resume/abc",
      "http.route": "/authorize/resume/[id]", "http.response.status_code": 201 });
    // An incoming traceparent is not followed: a new trace.
    expect(root.spanContext().traceId).not.toBe("0af7651916cd43dd8448eb211c80319c");
    expect(root.parentSpanContext).toBeUndefined();
    expect(seen.at(-1)).toBe(root.spanContext().traceId);
    const children = spans.filter((s) => s !== root);
    expect(children.map((s) => s.name).sort()).toEqual(["POST", "SELECT", "UPDATE", "jwt.sign"]);
    for (const c of children) {
      expect(c.spanContext().traceId).toBe(root.spanContext().traceId);
      expect(c.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    }
    const select = children.find((s) => s.name === "SELECT")!;
    expect(select.kind).toBe(SpanKind.CLIENT);
    expect(select.attributes).toEqual({ "db.system": "sqlite", "db.query.text": "SELECT id FROM Client WHERE id = ?" });
    expect(children.find((s) => s.name === "jwt.sign")!.attributes).toEqual({ "jwt.alg": "RS256", "jwt.kid": "kid-1" });
    expect(children.find((s) => s.name === "POST")!.attributes).toEqual({ "http.request.method": "POST",
      "server.address": "rp.example", "url.path": "/logout", "http.response.status_code": 204 });
    const everything = JSON.stringify(spans.map((s) => s.attributes));
    expect(everything).not.toMatch(/SECRET|447700900123|token=/);
  });

  it("a failing child is marked with the error's class only", async () => {
    exporter.reset();
    const span = tracing.tracer!.startSpan("outer");
    await expect(trace.getTracer("t").startActiveSpan("x", () =>
      dbSpan("postgresql", "SELECT 1", async () => { throw new TypeError("value 447700900123"); }))).rejects.toThrow();
    span.end();
    const failed = exporter.getFinishedSpans().find((s) => s.name === "SELECT")!;
    expect(failed.status.code).toBe(2);
    expect(failed.attributes["error.type"]).toBe("TypeError");
    expect(JSON.stringify({ attributes: failed.attributes, status: failed.status, events: failed.events }))
      .not.toContain("447700900123");
  });

  it("routes by the endpoint registry and the screen areas", () => {
    expect(routeOf("/token")).toBe("/token");
    expect(routeOf("/register/abc")).toBe("/register/[clientId]");
    expect(routeOf("/api/auth/callback/x")).toBe("/api/auth/[...nextauth]");
    expect(routeOf("/interaction/xyz")).toBe("/interaction/*");
    expect(routeOf("/nowhere")).toBeUndefined();
  });
});

describe("off", () => {
  it("with tracing off, traceRequest only calls the handler and no trace id is given", async () => {
    await stopTracing();
    startTracing({ env: {} });
    expect(tracing.on).toBe(false);
    let called = false;
    const res = new http.ServerResponse(new http.IncomingMessage(null as never));
    traceRequest({ url: "/token", method: "POST" } as http.IncomingMessage, res, () => { called = true; });
    expect(called).toBe(true);
    expect(currentTraceId()).toBeUndefined();
    await stopTracing();
    startTracing({ exporter });
  });
});
