import { describe, expect, it, vi } from "vitest";
import { useAbuseServer } from "@/test/support/abuse-server";
import { basic } from "@/test/support/codes";
import { createTestSubscriber } from "@/test/support/fixtures";
import { parsePrometheusText, sumOf } from "@/test/support/prometheus-text";

/**
 * Lockouts and throttles in the metrics, against a server with the production limits (test/support/abuse-server.ts,
 * which trusts one proxy: the scrape names its address in X-Forwarded-For as the proxy would).
 */
const h = useAbuseServer("metrics-abuse");
vi.setConfig({ testTimeout: 90_000 });

async function scrape() {
  const res = await fetch(`${h.baseUrl}/metrics`, { headers: { "x-forwarded-for": "127.0.0.1" } });
  expect(res.status).toBe(200);
  return parsePrometheusText(await res.text());
}

describe("abuse metrics", () => {
  it("a PIN lockout moves ois_lockouts_total{kind=pin} and a locked sign-in at level 3", async () => {
    const before = await scrape();
    const s = await createTestSubscriber({ pin: "8642" });
    const { last } = await h.failPins(s, 5);
    expect(last).toBe("pin_locked");
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) => sumOf(after, name, labels) - sumOf(before, name, labels);
    expect(moved("ois_lockouts_total", { kind: "pin" })).toBe(1);
    expect(moved("ois_sign_ins_total", { level: "3", outcome: "failure" })).toBe(4);
    expect(moved("ois_sign_ins_total", { level: "3", outcome: "locked" })).toBe(1);
  });

  it("client authentication failures past the limit move ois_throttles_total by the limit's name", async () => {
    const before = await scrape();
    const ip = h.newIp();
    let last = 0;
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${h.baseUrl}/token`, { method: "POST", headers: {
        "content-type": "application/x-www-form-urlencoded", authorization: basic(h.client.id, "wrong-secret"),
        "x-forwarded-for": ip }, body: new URLSearchParams({ grant_type: "authorization_code", code: "x",
        redirect_uri: "https://rp.example.test/callback" }) });
      last = res.status;
    }
    expect(last).toBe(429);
    const after = await scrape();
    const names = after.get("ois_throttles_total")!.samples.map((x) => x.labels.limit);
    expect(sumOf(after, "ois_throttles_total") - sumOf(before, "ois_throttles_total")).toBeGreaterThanOrEqual(1);
    expect(names.every((n) => /^[a-z0-9_.:-]+$/i.test(n!))).toBe(true);
  });
});
