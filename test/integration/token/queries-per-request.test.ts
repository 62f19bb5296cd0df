import { describe, expect, it } from "vitest";
import { recordStatements } from "@/test/support/statement-recorder";
import { config } from "@/lib/config";
import { getActiveKey } from "@/lib/keys/key-store";
import { createTestClient, createTestSubscriber } from "@/test/support/fixtures";
import { basic, issueTestCode } from "@/test/support/codes";

/**
 * Counts the SQL statements each hot-path handler runs, in-process against the test database,
 * through a Prisma client that reports its queries (installed where lib/db.ts looks for it).
 */
const measure = recordStatements();
const tokenRequest = (c: { id: string; secret?: string; redirectUri: string }, body: Record<string, string>) =>
  new Request("http://op.test/token", { method: "POST", body: new URLSearchParams(body),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic(c.id, c.secret!) } });

describe("queries per request", () => {
  it("authorization_code: 1 code read + BEGIN, conditional update, token insert(s), audit insert, COMMIT", async () => {
    const { handleTokenRequest } = await import("@/lib/oauth/token/handle-token-request");
    const { handlePremiumInfo } = await import("@/lib/oauth/resource/handle-premium-info");
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    // Warm the client cache and the key cache, as on a running server.
    await getActiveKey("sig");
    await handleTokenRequest(tokenRequest(client, { grant_type: "authorization_code", code: "x", redirect_uri: "y" }))
      .catch(() => undefined);
    const code = await issueTestCode({ client, subscriber, scope: "openid mc_identity_phonenumber offline_access" });
    const issued = await measure(() => handleTokenRequest(tokenRequest(client,
      { grant_type: "authorization_code", code, redirect_uri: client.redirectUri })));
    expect(issued.status).toBe(200);
    const reads = issued.statements.filter((s) => /^SELECT/i.test(s));
    const writes = issued.statements.filter((s) => /^(UPDATE|INSERT)/i.test(s));
    expect(reads).toHaveLength(1);
    expect(writes).toHaveLength(4); // spend the code, access token, refresh token, audit event
    expect(issued.statements.filter((s) => /^(BEGIN|COMMIT)/i.test(s))).toHaveLength(2);

    const refreshed = await measure(() => handleTokenRequest(tokenRequest(client,
      { grant_type: "refresh_token", refresh_token: issued.body.refresh_token })));
    expect(refreshed.status).toBe(200);
    expect(refreshed.statements.filter((s) => /^SELECT/i.test(s))).toHaveLength(1); // token + subscriber status
    expect(refreshed.statements.filter((s) => /^(UPDATE|INSERT)/i.test(s))).toHaveLength(4); // + audit event

    const pi = await measure(() => handlePremiumInfo(new Request(`http://op.test/premiuminfo?token=${issued.body.access_token}`)));
    expect(pi.status).toBe(200);
    expect(pi.statements).toHaveLength(1); // the access token joined with its subscriber
  });
});
