import { describe, expect, it, vi } from "vitest";
import { useAbuseServer } from "@/test/support/abuse-server";
import { createTestSubscriber } from "@/test/support/fixtures";
/**
 * Handset enrolment sends its one-time codes under the sign-in screen's requester limits (issue 6).
 * Against a server of its own with the production limits (test/support/abuse-server.ts).
 */
const h = useAbuseServer("enrolment-limits");
vi.setConfig({ testTimeout: 90_000 });

describe("one-time codes", () => {
  it("handset enrolment: the same requester limits; the 429 page says when, with no form", async () => {
    const s = await createTestSubscriber();
    const enrol = (ip: string) => fetch(`${h.baseUrl}/handset/enrol/start`, {
      method: "POST", redirect: "manual", body: new URLSearchParams({ msisdn: s.msisdn }),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: h.baseUrl, "x-forwarded-for": ip },
    });
    const stranger = h.newIp();
    const statuses = [];
    let last: Response | undefined;
    for (let i = 0; i < 6; i++) statuses.push((last = await enrol(stranger)).status);
    expect(statuses).toEqual([303, 303, 303, 303, 303, 429]);
    const retryAfter = Number(last!.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    const html = await last!.text();
    const time = new Intl.DateTimeFormat("en", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" });
    expect(html).toMatch(new RegExp(`Too many codes were requested\\. Try again at (${[-1, 0, 1]
      .map((d) => time.format(new Date(Date.now() + (retryAfter + d) * 1000))).join("|")}) \\(in \\d+ minutes?\\)`));
    expect(html).not.toContain("<form");
    expect((await enrol(h.newIp())).status).toBe(303); // the subscriber, elsewhere
  });

});
