import http from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startServer, type RunningServer } from "@/test/support/server";

// The production server answers the protocol endpoints itself (server/routes.ts) and everything else
// through Next.js. Its answers must not differ from what Next.js sends for the same route: status,
// every header (next.config.js headers() included) and error bodies. A second server with
// LEAN_SERVER=off (every request through Next.js) gives the reference.

// Differ by nature: per response (date, request id), transport (framing, keep-alive), and Next.js's
// RSC content negotiation `Vary`, which only concerns its pages, never these JSON/redirect endpoints.
const TRANSPORT = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length", "x-request-id", "vary"]);

const CASES: Array<{ name: string; path: string; init?: RequestInit; body?: boolean }> = [
  { name: "metadata", path: "/.well-known/openid-configuration" },
  { name: "jwks", path: "/jwks" },
  { name: "health", path: "/api/health", body: true },
  { name: "token without client", path: "/token", init: { method: "POST", body: "grant_type=authorization_code",
    headers: { "content-type": "application/x-www-form-urlencoded" } }, body: true },
  { name: "token with unknown client", path: "/token", init: { method: "POST", body: "grant_type=authorization_code&code=x",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${btoa("nobody:secret")}` } }, body: true },
  { name: "token with a bad body type", path: "/token", init: { method: "POST", body: "x", headers: { "content-type": "text/plain" } } },
  { name: "premiuminfo without token", path: "/premiuminfo", body: true },
  { name: "premiuminfo with unknown token", path: "/premiuminfo", init: { headers: { authorization: "Bearer nope" } }, body: true },
  { name: "userinfo without token", path: "/userinfo", body: true },
  { name: "revoke without client", path: "/revoke", init: { method: "POST", body: "token=x",
    headers: { "content-type": "application/x-www-form-urlencoded" } }, body: true },
  { name: "introspect without client", path: "/introspect", init: { method: "POST", body: "token=x",
    headers: { "content-type": "application/x-www-form-urlencoded" } }, body: true },
  { name: "authorize with unknown client", path: "/authorize?response_type=code&client_id=nobody&scope=openid" },
  { name: "authorize POST with a bad body type", path: "/authorize", init: { method: "POST", body: "{}",
    headers: { "content-type": "application/json" } } },
  { name: "token GET (405, Next.js)", path: "/token" },
];

let next: RunningServer;
beforeAll(async () => {
  next = await startServer({ name: "next-path", env: { LEAN_SERVER: "off" } });
});
afterAll(() => next?.stop());

function headersOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!TRANSPORT.has(k)) out[k] = v;
  });
  return out;
}

describe("lean server vs the Next.js path", () => {
  for (const c of CASES) {
    it(`${c.name}: same status, headers and body`, async () => {
      const [lean, ref] = await Promise.all([
        fetch(`${inject("baseUrl")}${c.path}`, { redirect: "manual", ...c.init }),
        fetch(`${next.baseUrl}${c.path}`, { redirect: "manual", ...c.init }),
      ]);
      expect(lean.status).toBe(ref.status);
      expect(headersOf(lean)).toEqual(headersOf(ref));
      expect(lean.headers.has("x-request-id")).toBe(ref.headers.has("x-request-id"));
      const [a, b] = [await lean.text(), await ref.text()];
      if (c.body) expect(a).toBe(b);
    });
  }

  it("answers the protocol endpoints without Next.js and hands the rest to it", async () => {
    // Next.js adds its RSC `Vary` to everything it serves; the lean path does not.
    const hot = await fetch(`${inject("baseUrl")}/jwks`);
    expect(hot.headers.get("vary")).toBeNull();
    expect(hot.headers.get("content-length")).toBe(String((await hot.arrayBuffer()).byteLength));
    const viaNext = await fetch(`${next.baseUrl}/jwks`);
    expect(viaNext.headers.get("vary")).toMatch(/rsc/i);
    const page = await fetch(`${inject("baseUrl")}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get("vary")).toMatch(/rsc/i);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
  });

  it("answers HEAD on a hot path (through Next.js)", async () => {
    const head = await fetch(`${inject("baseUrl")}/.well-known/openid-configuration`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });
});

describe("oversized bodies on the production server", () => {
  const baseUrl = inject("baseUrl");

  /** POSTs /token with a chunked body that never ends; resolves with the answer's status and whether the connection then closed. */
  function endlessChunkedPost(): Promise<{ status: number; closed: boolean }> {
    return new Promise((resolve, reject) => {
      const url = new URL("/token", baseUrl);
      const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "transfer-encoding": "chunked" } });
      const chunk = Buffer.alloc(8 * 1024, "a");
      const timer = setInterval(() => req.write(chunk), 5);
      req.on("response", (res) => {
        res.resume();
        res.on("end", () => {
          res.socket?.once("close", () => { clearInterval(timer); resolve({ status: res.statusCode!, closed: true }); });
          setTimeout(() => { clearInterval(timer); resolve({ status: res.statusCode!, closed: res.socket?.destroyed ?? true }); }, 3000);
        });
      });
      req.on("error", (e) => { clearInterval(timer); if ((e as NodeJS.ErrnoException).code !== "EPIPE" && (e as NodeJS.ErrnoException).code !== "ECONNRESET") reject(e); });
    });
  }

  it("answers 413 to a chunked body that never ends, without waiting for its end, and closes the connection", async () => {
    const { status, closed } = await endlessChunkedPost();
    expect(status).toBe(413);
    expect(closed).toBe(true);
  });

  it("a client still sending an over-long body reads the 413, not a connection reset (bounded lingering close)", async () => {
    const post = (chunks: number, declared: boolean) => fetch(new URL("/token", baseUrl), {
      method: "POST", duplex: "half",
      headers: { "content-type": "application/json", ...(declared ? { "content-length": String(chunks * 1024) } : {}) },
      body: new ReadableStream({
        async pull(c) {
          // Slow enough that the server answers while the client is still writing.
          for (let i = 0; i < chunks; i++) {
            c.enqueue(new TextEncoder().encode(" ".repeat(1024)));
            if (i % 8 === 7) await new Promise((r) => setTimeout(r, 1));
          }
          c.close();
        },
      }),
    } as RequestInit);
    for (let i = 0; i < 15; i++) {
      expect((await post(40, false)).status).toBe(413); // chunked, cut off at the cap
      expect((await post(40, true)).status).toBe(413); // declared too large: refused from the header
    }
  });

  it("answers 413 from the declared Content-Length alone, before any body byte is sent", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL("/token", baseUrl);
      const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(50 * 1024 * 1024) } });
      req.on("response", (res) => { res.resume(); resolve(res.statusCode!); req.destroy(); });
      req.on("error", (e) => { if ((e as NodeJS.ErrnoException).code !== "ECONNRESET") reject(e); });
      req.flushHeaders();
    });
    expect(status).toBe(413);
  });
});
