import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { useAbuseServer, errorOf, latestCode } from "@/test/support/abuse-server";
import { createTestSubscriber } from "@/test/support/fixtures";
import { beginAuthorization, getInteraction } from "@/e2e/fixtures/interaction-http";
/**
 * The one-time code limits of the sign-in screen (issue 6, "Abuse and brute force"): attempts per code,
 * codes per requester, number, client IP (NAT ranges, IPv6 /64) and sign-in.
 * Against a server of its own with the production limits (test/support/abuse-server.ts).
 */
const h = useAbuseServer("code-limits");
vi.setConfig({ testTimeout: 90_000 });

describe("one-time codes", () => {
  it("a code allows 3 wrong attempts, then it is dead even for the right code", async () => {
    const s = await createTestSubscriber();
    const ip = h.newIp();
    const f = await beginAuthorization(h.baseUrl, h.client);
    await h.post(f, "msisdn", { msisdn: s.msisdn }, ip);
    const code = (await latestCode(s.msisdn))!;
    const wrong = code === "000000" ? "111111" : "000000";
    const errors = [];
    for (let i = 0; i < 3; i++) errors.push(errorOf(await h.post(f, "code", { code: wrong }, ip)));
    expect(errors).toEqual(["code_invalid", "code_invalid", "code_burnt"]);
    expect(errorOf(await h.post(f, "code", { code }, ip))).toBe("code_burnt");
    expect((await db.authorizationRequest.findUniqueOrThrow({ where: { id: f.id } })).status).toBe("pending");
  });

  it("a stranger cannot lock a subscriber out: 5 codes per requester and number, the screen says when to try again", async () => {
    const s = await createTestSubscriber();
    const stranger = h.newIp();
    const answers = [];
    for (let i = 0; i < 6; i++) {
      const f = await beginAuthorization(h.baseUrl, h.client); // a fresh browser each time: only the address is his
      answers.push({ f, res: await h.post(f, "msisdn", { msisdn: s.msisdn }, stranger) });
    }
    expect(answers.slice(0, 5).map(({ res }) => errorOf(res))).toEqual([null, null, null, null, null]);
    const { f, res } = answers[5]!;
    expect(errorOf(res)).toBe("send_limited");
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    const location = new URL(res.headers.get("location")!);
    const until = Number(location.searchParams.get("until"));
    expect(Math.abs(until - (Date.now() / 1000 + retryAfter))).toBeLessThan(5);
    // The screen names the time and offers no number form that cannot work until then.
    const page = await getInteraction(h.baseUrl, f.id, f.cookie, location.search);
    expect(page.html).toContain("Too many codes have been requested");
    const time = new Intl.DateTimeFormat("en", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" });
    expect(page.html).toContain(`Try again at ${time.format(new Date(until * 1000))} (in `);
    expect(page.html).not.toContain('name="msisdn"');
    expect(page.html).toContain('id="start-again"');
    // The subscriber, elsewhere, still gets a code.
    const own = await beginAuthorization(h.baseUrl, h.client);
    expect(errorOf(await h.post(own, "msisdn", { msisdn: s.msisdn }, h.newIp()))).toBeNull();
    expect(await db.message.count({ where: { msisdn: s.msisdn } })).toBe(6);
  });

  it("the per-number ceiling (20 per 15 minutes, known or unknown) needs several requesters, and counts only what they were allowed", async () => {
    const known = await createTestSubscriber();
    for (const msisdn of [known.msisdn, "447700999002"]) {
      const byRequester = [];
      for (let r = 0; r < 5; r++) {
        const ip = h.newIp();
        // Six tries each: the sixth is refused by the requester limit and does not count against the number.
        const statuses = [];
        for (let i = 0; i < 6; i++) statuses.push(errorOf(await h.post(await beginAuthorization(h.baseUrl, h.client), "msisdn", { msisdn }, ip)));
        byRequester.push(statuses.map((e) => (e === null ? "sent" : e)).join(" "));
      }
      const five = "sent sent sent sent sent send_limited";
      expect(byRequester).toEqual([five, five, five, five, Array(6).fill("send_limited").join(" ")]);
    }
    expect(await db.message.count({ where: { msisdn: known.msisdn } })).toBe(20);
  });

  it("at most 20 codes per client IP per hour, whatever the numbers", async () => {
    const ip = h.newIp();
    const results = [];
    for (let i = 0; i < 21; i++) {
      const f = await beginAuthorization(h.baseUrl, h.client);
      results.push(await h.post(f, "msisdn", { msisdn: `4477009991${String(i).padStart(2, "0")}` }, ip));
    }
    expect(results.slice(0, 20).every((r) => errorOf(r) === null)).toBe(true);
    expect(errorOf(results[20]!)).toBe("send_limited");
    const retryAfter = Number(results[20]!.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Another address is not affected.
    const f = await beginAuthorization(h.baseUrl, h.client);
    expect(errorOf(await h.post(f, "msisdn", { msisdn: "447700999150" }, h.newIp()))).toBeNull();
  });

  it("carrier-grade NAT ranges (CARRIER_NAT_RANGES) have their own, higher per-address limit", async () => {
    const nat = "100.64.7.9";
    const results = [];
    for (let i = 0; i < 31; i++) {
      results.push(errorOf(await h.post(await beginAuthorization(h.baseUrl, h.client), "msisdn", { msisdn: `4477009992${String(i).padStart(2, "0")}` }, nat)));
    }
    expect(results.slice(0, 30).every((e) => e === null)).toBe(true); // 20 would stop an ordinary address
    expect(results[30]).toBe("send_limited");
  });

  it("IPv6: one /64 is one address for the limits", async () => {
    const results = [];
    for (let i = 0; i < 21; i++) {
      const ip = `2001:db8:1:2::${(i + 1).toString(16)}`;
      results.push(errorOf(await h.post(await beginAuthorization(h.baseUrl, h.client), "msisdn", { msisdn: `4477009993${String(i).padStart(2, "0")}` }, ip)));
    }
    expect(results.slice(0, 20).every((e) => e === null)).toBe(true);
    expect(results[20]).toBe("send_limited");
    expect(errorOf(await h.post(await beginAuthorization(h.baseUrl, h.client), "msisdn", { msisdn: "447700999399" }, "2001:db8:1:3::1"))).toBeNull();
  });

  it("at most 3 new codes per sign-in; the current code stays valid", async () => {
    const s = await createTestSubscriber();
    const ip = h.newIp();
    const f = await beginAuthorization(h.baseUrl, h.client);
    await h.post(f, "msisdn", { msisdn: s.msisdn }, ip);
    for (let i = 0; i < 3; i++) expect(errorOf(await h.post(f, "resend", {}, ip))).toBeNull();
    const code = (await latestCode(s.msisdn))!;
    const limited = await h.post(f, "resend", {}, ip);
    expect(errorOf(limited)).toBe("send_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const page = await getInteraction(h.baseUrl, f.id, f.cookie, new URL(limited.headers.get("location")!).search);
    expect(page.html).toContain("Try again at ");
    expect(page.html).not.toContain('id="resend"');
    expect(page.html).toContain('name="code"'); // the current code still works
    expect(await db.message.count({ where: { msisdn: s.msisdn } })).toBe(4);
    expect((await h.post(f, "code", { code }, ip)).headers.get("location")).toBe(`${h.baseUrl}/authorize/resume/${f.id}`);
  });
});
