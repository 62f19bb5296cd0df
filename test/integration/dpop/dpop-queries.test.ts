import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { recordStatements } from "@/test/support/statement-recorder";
import { config } from "@/lib/config";
import { sha256 } from "@/lib/crypto";
import { getActiveKey } from "@/lib/keys/key-store";
import { currentDpopNonce } from "@/lib/oauth/dpop/dpop-nonce";
import { createTestClient, createTestSubscriber } from "@/test/support/fixtures";
import { basic, issueTestCode } from "@/test/support/codes";

/**
 * The statements a DPoP request adds (docs/dpop.md, "Cost"), in-process as in
 * test/integration/token/queries-per-request.test.ts: one replay-cache INSERT per proof, nothing else. The
 * requests go to http://op.test/…, the proofs name the issuer's URLs: `htu` is checked against ISSUER.
 */
const measure = recordStatements();
const kinds = (list: string[]) => ({
  reads: list.filter((s) => /^SELECT/i.test(s)).length,
  replay: list.filter((s) => /^INSERT INTO "UsedJwtId"/i.test(s)).length,
  otherWrites: list.filter((s) => /^(UPDATE|INSERT)/i.test(s) && !/^INSERT INTO "UsedJwtId"/i.test(s)).length,
});

describe("queries per DPoP request", () => {
  it("token and premium info with a proof: the same statements as without, plus one replay-cache INSERT each", async () => {
    const { handleTokenRequest } = await import("@/lib/oauth/token/handle-token-request");
    const { handlePremiumInfo } = await import("@/lib/oauth/resource/handle-premium-info");
    const issuer = config().ISSUER.replace(/\/$/, "");
    const key = await generateKeyPair("ES256");
    const jwk = await exportJWK(key.publicKey);
    const proof = (claims: Record<string, unknown>) => new SignJWT({ jti: randomUUID(), iat: Math.floor(Date.now() / 1000),
      ...claims }).setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk }).sign(key.privateKey);
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    await getActiveKey("sig");
    const tokenRequest = async (body: Record<string, string>) => new Request("http://op.test/token", { method: "POST",
      body: new URLSearchParams(body), headers: { "Content-Type": "application/x-www-form-urlencoded",
        Authorization: basic(client.id, client.secret!),
        DPoP: await proof({ htm: "POST", htu: `${issuer}/token`, nonce: currentDpopNonce() }) } });
    await handleTokenRequest(await tokenRequest({ grant_type: "authorization_code", code: "x", redirect_uri: "y" }))
      .catch(() => undefined);

    const code = await issueTestCode({ client, subscriber, scope: "openid mc_identity_phonenumber offline_access" });
    const issued = await measure(async () => handleTokenRequest(await tokenRequest(
      { grant_type: "authorization_code", code, redirect_uri: client.redirectUri })));
    expect(issued.status).toBe(200);
    expect(issued.body.token_type).toBe("DPoP");
    expect(kinds(issued.statements)).toEqual({ reads: 1, replay: 1, otherWrites: 4 });

    const token = issued.body.access_token as string;
    const pi = await measure(async () => handlePremiumInfo(new Request("http://op.test/premiuminfo", { headers: {
      Authorization: `DPoP ${token}`, DPoP: await proof({ htm: "GET", htu: `${issuer}/premiuminfo`, ath: sha256(token) }) } })));
    expect(pi.status).toBe(200);
    expect(kinds(pi.statements)).toEqual({ reads: 1, replay: 1, otherWrites: 0 });
    // On SQLite the INSERT is a group commit of its own (BEGIN IMMEDIATE … COMMIT); on PostgreSQL one statement.
    expect(pi.statements.filter((s) => /^(BEGIN|COMMIT)/i.test(s))).toHaveLength(config().DATABASE_URL.startsWith("file:") ? 2 : 0);
  });
});
