import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { randomToken } from "@/lib/crypto";
import { pseudonymiseSubscriber } from "@/lib/audit/pseudonymise-subscriber";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { baseUrl, createTestSubscriber } from "../../support/authorize-support";
import { consoleSignIn, createTestStaff } from "../../support/console-support";

/** The console's audit log page (issue 22): every role reads it; subscribers only as pseudonyms. */
describe("console audit log", () => {
  it("shows a viewer the events filtered by type, client, outcome and time, newest first, without any number", async () => {
    const s = await createTestSubscriber();
    const clientId = `audit-${randomToken(6)}`;
    const t0 = Date.now() - 3600_000;
    for (let i = 0; i < 3; i++) {
      await recordAuditEvent({ type: "sign_in", outcome: i === 2 ? "failure" : "success", subscriberId: s.id, clientId,
        at: new Date(t0 + i * 60_000), detail: { n: i } });
    }
    const viewer = await createTestStaff("viewer");
    const session = await consoleSignIn(baseUrl, viewer);
    const res = await session.get(`/console/audit?client=${clientId}&type=sign_in`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(pseudonymiseSubscriber(s.id).slice(0, 12));
    expect(html).not.toContain(s.msisdn);
    expect(html).not.toContain(s.id);
    // Newest first.
    expect(html.indexOf("&quot;n&quot;:2")).toBeLessThan(html.indexOf("&quot;n&quot;:0"));
    const failures = await (await session.get(`/console/audit?client=${clientId}&outcome=failure`)).text();
    expect(failures).toContain("&quot;n&quot;:2");
    expect(failures).not.toContain("&quot;n&quot;:1");
    const from = new Date(t0 + 30_000).toISOString();
    const to = new Date(t0 + 90_000).toISOString();
    const range = await (await session.get(`/console/audit?client=${clientId}&from=${from}&to=${to}`)).text();
    expect(range).toContain("&quot;n&quot;:1");
    expect(range).not.toContain("&quot;n&quot;:0");
    expect(range).not.toContain("&quot;n&quot;:2");
    const bad = await (await session.get("/console/audit?from=yesterday")).text();
    expect(bad).toContain("A time is not valid");
  });

  it("pages by cursor and names the acting staff member by username", async () => {
    const clientId = `page-${randomToken(6)}`;
    const admin = await createTestStaff("admin");
    const { id: staffId } = (await db.staff.findUnique({ where: { username: admin.username } }))!;
    const t0 = Date.now() - 7200_000;
    for (let i = 0; i < 55; i++) {
      await recordAuditEvent({ type: "console_test_thing", outcome: "success", clientId, staffId,
        at: new Date(t0 + i * 1000), detail: { n: i } });
    }
    const session = await consoleSignIn(baseUrl, await createTestStaff("viewer"));
    const first = await (await session.get(`/console/audit?client=${clientId}`)).text();
    expect(first).toContain(admin.username);
    expect(first).toContain("&quot;n&quot;:54");
    expect(first).not.toContain("&quot;n&quot;:4}");
    const next = /href="(\/console\/audit\?[^"]*before=[^"]+)"/.exec(first)?.[1]?.replaceAll("&amp;", "&");
    expect(next).toBeTruthy();
    const second = await (await session.get(next!)).text();
    expect(second).toContain("&quot;n&quot;:4}");
    expect(second).toContain("&quot;n&quot;:0}");
    expect(second).not.toContain("&quot;n&quot;:5}");
  });

  it("answers extreme or malformed times and cursors with the page and a clear message, never a 500", async () => {
    const session = await consoleSignIn(baseUrl, await createTestStaff("viewer"));
    for (const query of [
      "from=-271821-04-20T00:00:00Z", "from=%2B275760-09-13T00:00:00Z", "to=1999-12-31T23:59", "to=10000-01-01T00:00",
      "before=999999999999999.abc", "before=0.abc", "before=-1.abc", "before=1700000000000.a%20b",
    ]) {
      const res = await session.get(`/console/audit?${query}`);
      expect(res.status, query).toBe(200);
      expect(await res.text(), query).toContain("A time is not valid");
    }
    // The edges of the range are valid.
    for (const query of ["from=2000-01-01T00:00", "to=9999-12-31T23:59", `before=${Date.now()}.x`]) {
      const html = await (await session.get(`/console/audit?${query}`)).text();
      expect(html, query).not.toContain("A time is not valid");
    }
  });

  it("sends a visitor without a session to the sign-in page", async () => {
    const res = await fetch(`${baseUrl}/console/audit`, { redirect: "manual" });
    expect(res.headers.get("location")).toContain("/console/sign-in");
  });
});
