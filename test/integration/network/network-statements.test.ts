import { describe, expect, it } from "vitest";
import { browserCookieName } from "@/lib/sessions/browser-cookie";
import { handleAuthorize } from "@/lib/oauth/authorize/handle-authorize";
import { createTestClient, createTestSubscriber, grant, requestFor, signedInBrowser } from "../../support/authorize-support";
import { mapRange } from "../../support/network-support";
import { statementLog } from "../../support/statement-recorder";

// What network-based authentication costs /authorize (docs/network-authentication.md): nothing when a session
// answers; one NetworkRange look-up when a sign-in is needed. In process (as queries-per-request.test.ts), the
// address handed over in X-Forwarded-For as server/main.ts does.
const statements = statementLog();
const lookups = () => statements.filter((s) => /NetworkRange/.test(s));

function call(query: Record<string, string>, from: string, browserId?: string) {
  const headers: Record<string, string> = { "x-forwarded-for": from };
  if (browserId) headers.cookie = `${browserCookieName()}=${browserId}`;
  return handleAuthorize(new Request(`http://127.0.0.1/authorize?${new URLSearchParams(query)}`, { headers }));
}

describe("statements of network-based authentication at /authorize", () => {
  it("a session that answers: no look-up, even from a mapped address", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    await grant(subscriber, client);
    await mapRange("192.0.2.201", subscriber.msisdn);
    const { browserId } = await signedInBrowser(subscriber);
    await call(requestFor(client), "192.0.2.201", browserId); // warms the client cache
    statements.length = 0;
    const res = await call(requestFor(client), "192.0.2.201", browserId);
    expect(res.headers.get("location")).toContain("code=");
    expect(lookups()).toEqual([]);
  });

  it("a sign-in needed: one look-up; an address the network does not know adds nothing else", async () => {
    const client = await createTestClient();
    await call(requestFor(client), "192.0.2.202");
    statements.length = 0;
    const res = await call(requestFor(client), "192.0.2.202");
    expect(res.headers.get("location")).toContain("/interaction/");
    expect(lookups()).toHaveLength(1);
    expect(statements.filter((s) => /Subscriber|Session"? \(|INSERT INTO "?Session|AuditEvent/.test(s))).toEqual([]);
  });
});
