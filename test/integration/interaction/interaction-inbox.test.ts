import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startServer, type RunningServer } from "@/test/support/server";

const baseUrl = inject("baseUrl");

describe("device inbox", () => {
  it("answers without JavaScript, with a reload link, and never caches", async () => {
    const res = await fetch(`${baseUrl}/handset/inbox?msisdn=%2B44%207700%20900000`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('href="/handset/inbox?msisdn=447700900000"');
    // No timed refresh: WCAG 2.2.1 (timing adjustable) — the reader reloads with the link.
    expect(html).not.toMatch(/http-equiv="refresh"/i);
    expect(res.headers.get("cache-control")).toMatch(/no-store/);
  });

  it("ignores a malformed number instead of failing", async () => {
    const res = await fetch(`${baseUrl}/handset/inbox?msisdn=%3Cscript%3E`);
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain("<script>alert");
  });
});

describe("with MESSAGING_CHANNEL=log (a production-like configuration)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ name: "inbox-off", env: { MESSAGING_CHANNEL: "log" } });
  }, 90_000);
  afterAll(() => server?.stop());

  it("the device inbox page does not exist", async () => {
    const res = await fetch(`${server.baseUrl}/handset/inbox?msisdn=447700900000`);
    expect(res.status).toBe(404);
  });
});
