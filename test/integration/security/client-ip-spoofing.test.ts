import { describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db";
import { pseudonymiseSubscriber } from "@/lib/audit/pseudonymise-subscriber";
import { createTestClient, createTestSubscriber } from "@/test/support/fixtures";
import { beginAuthorization, postStep } from "@/e2e/fixtures/interaction-http";

const baseUrl = inject("baseUrl");

/**
 * The shared test server runs with TRUSTED_PROXY=false: nothing stands in front of it, so the
 * client's address is the socket's peer. An X-Forwarded-For the client writes itself must not
 * choose its per-IP rate-limit bucket nor the address the audit log records.
 */
describe("client IP without a trusted proxy", () => {
  it("ignores a client-sent X-Forwarded-For: the audit log records the peer address", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber();
    const f = await beginAuthorization(baseUrl, client);
    const spoofed = { "x-forwarded-for": "192.0.2.250" };
    await postStep(baseUrl, f.id, "msisdn", { cookie: f.cookie, fields: { csrf_token: f.csrf, msisdn: s.msisdn }, headers: spoofed });
    await postStep(baseUrl, f.id, "code", { cookie: f.cookie, fields: { csrf_token: f.csrf, code: "000000" }, headers: spoofed });
    const events = await db.auditEvent.findMany({ where: { type: "sign_in", subscriberRef: pseudonymiseSubscriber(s.id) } });
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) expect(e.ip).toBe("127.0.0.1");
  });
});
