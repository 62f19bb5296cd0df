import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestClient, createTestSubscriber } from "@/test/support/fixtures";
import { flowPoster, latestCode } from "@/test/support/sign-in-http";
import { redeemCode } from "@/test/support/codes";
import { parsePrometheusText, sumOf, type PromFamily } from "@/test/support/prometheus-text";
import { startServer, type RunningServer } from "@/test/support/server";
import { beginAuthorization, csrfOf, getInteraction } from "@/e2e/fixtures/interaction-http";

const baseUrl = inject("baseUrl");
const post = flowPoster(baseUrl);

async function scrape(url = baseUrl, init: RequestInit = {}): Promise<Map<string, PromFamily>> {
  const res = await fetch(`${url}/metrics`, init);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await res.text());
}

/** GET /metrics from a chosen local address (127.0.0.2 is loopback too, but outside 127.0.0.1/32). */
function getFrom(url: string, localAddress: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(`${url}/metrics`, { localAddress, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (c: string) => (body += c)).on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject).end();
  });
}

describe("GET /metrics after a full flow", () => {
  it("exposes the named series, and they moved: requests, sign-ins, codes, tokens", async () => {
    const before = await scrape();
    const client = await createTestClient();
    const s = await createTestSubscriber();
    const f = await beginAuthorization(baseUrl, client);
    await post(f, "msisdn", { msisdn: `+${s.msisdn}` });
    await post(f, "code", { code: (await latestCode(s.msisdn))! });
    const toConsent = await fetch(`${baseUrl}/authorize/resume/${f.id}`, { headers: { cookie: f.cookie }, redirect: "manual" });
    expect(toConsent.headers.get("location")).toBe(`${baseUrl}/interaction/${f.id}`);
    f.csrf = csrfOf((await getInteraction(baseUrl, f.id, f.cookie)).html);
    await post(f, "consent", { decision: "allow" });
    const resumed = await fetch(`${baseUrl}/authorize/resume/${f.id}`, { headers: { cookie: f.cookie }, redirect: "manual" });
    const code = new URL(resumed.headers.get("location")!).searchParams.get("code");
    expect(code).toBeTruthy();
    expect((await redeemCode(baseUrl, client, code!)).status).toBe(200);
    const after = await scrape();

    for (const name of ["ois_http_requests_total", "ois_http_request_duration_seconds", "ois_sign_ins_total",
      "ois_codes_sent_total", "ois_tokens_issued_total", "ois_lockouts_total", "ois_throttles_total",
      "ois_backchannel_notifications_total", "ois_handset_requests_pending", "ois_db_pool_connections",
      "ois_sqlite_wal_bytes", "ois_process_resident_memory_bytes", "ois_nodejs_eventloop_lag_seconds"]) {
      expect(after.has(name), name).toBe(true);
    }
    expect(after.get("ois_http_request_duration_seconds")!.type).toBe("histogram");
    expect(after.get("ois_handset_requests_pending")!.type).toBe("gauge");
    const moved = (name: string, labels: Record<string, string>) => sumOf(after, name, labels) - sumOf(before, name, labels);
    expect(moved("ois_http_requests_total", { endpoint: "authorization", method: "GET", outcome: "3xx" })).toBeGreaterThanOrEqual(1);
    expect(moved("ois_http_requests_total", { endpoint: "token", method: "POST", outcome: "2xx" })).toBeGreaterThanOrEqual(1);
    expect(moved("ois_http_requests_total", { endpoint: "resume", outcome: "3xx" })).toBeGreaterThanOrEqual(1);
    expect(moved("ois_http_requests_total", { endpoint: "screen" })).toBeGreaterThanOrEqual(3);
    expect(moved("ois_http_request_duration_seconds_count", { endpoint: "token" })).toBeGreaterThanOrEqual(1);
    expect(moved("ois_sign_ins_total", { level: "2", outcome: "success" })).toBeGreaterThanOrEqual(1);
    expect(moved("ois_codes_sent_total", { channel: "inbox" })).toBeGreaterThanOrEqual(1);
    expect(moved("ois_tokens_issued_total", { grant: "authorization_code" })).toBeGreaterThanOrEqual(1);
    // Labels stay in their bounded sets: never a raw path or a request id.
    for (const s of after.get("ois_http_requests_total")!.samples) expect(s.labels.endpoint).not.toMatch(/\//);
  });

  it("counts a wrong code as a failed sign-in", async () => {
    const before = await scrape();
    const client = await createTestClient();
    const s = await createTestSubscriber();
    const f = await beginAuthorization(baseUrl, client);
    await post(f, "msisdn", { msisdn: `+${s.msisdn}` });
    const code = (await latestCode(s.msisdn))!;
    await post(f, "code", { code: code === "000000" ? "111111" : "000000" });
    const after = await scrape();
    const failures = (f: Map<string, PromFamily>) => sumOf(f, "ois_sign_ins_total", { outcome: "failure" });
    expect(failures(after) - failures(before)).toBeGreaterThanOrEqual(1);
  });
});

describe("who may scrape", () => {
  const token = "metrics-token-for-the-test-0123456789abcdef";
  let server: RunningServer;
  let off: RunningServer;
  beforeAll(async () => {
    [server, off] = await Promise.all([
      startServer({ name: "metrics-access", env: { METRICS_ALLOWED_NETWORKS: "127.0.0.1/32", METRICS_TOKEN: token } }),
      startServer({ name: "metrics-off", env: { METRICS: "off" } }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([server?.stop(), off?.stop()]);
  });

  it("answers an allowed network, refuses any other address with a bare 404, and lets the bearer token in", async () => {
    expect((await getFrom(server.baseUrl, "127.0.0.1")).status).toBe(200);
    const refused = await getFrom(server.baseUrl, "127.0.0.2");
    expect(refused.status).toBe(404);
    expect(refused.body).not.toContain("ois_");
    expect((await getFrom(server.baseUrl, "127.0.0.2", { authorization: "Bearer wrong-token" })).status).toBe(404);
    // A client-sent X-Forwarded-For is not the client's address (TRUSTED_PROXY=false): still refused.
    expect((await getFrom(server.baseUrl, "127.0.0.2", { "x-forwarded-for": "127.0.0.1" })).status).toBe(404);
    const allowed = await getFrom(server.baseUrl, "127.0.0.2", { authorization: `Bearer ${token}` });
    expect(allowed.status).toBe(200);
    const families = parsePrometheusText(allowed.body);
    expect(families.has("ois_http_requests_total")).toBe(true);
    expect(allowed.body).not.toContain(token);
  });

  it("METRICS=off records nothing: /metrics is a 404 even from loopback, requests still served", async () => {
    expect((await fetch(`${off.baseUrl}/.well-known/openid-configuration`)).status).toBe(200);
    const res = await fetch(`${off.baseUrl}/metrics`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("ois_");
  });
});
