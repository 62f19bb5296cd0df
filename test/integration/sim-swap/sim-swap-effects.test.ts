import { execFile } from "node:child_process";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import { db } from "@/lib/db";
import { pseudonymiseSubscriber } from "@/lib/audit/pseudonymise-subscriber";
import { setClientLogout } from "@/lib/logout/set-client-logout";
import { recordSimSwap } from "@/lib/sim-swap/record-sim-swap";
import { suspendSubscriber } from "@/lib/subscribers/suspend-subscriber";
import { TEST_SECRETS } from "../../support/server";
import {
  authorize, baseUrl, expectCallback, expectInteraction, grant, requestFor, signedInBrowser,
} from "../../support/authorize-support";
import { createCibaClient, pollToken } from "../../support/ciba-support";
import { createBackchannelRequest, settle } from "../../support/ciba-delivery-support";
import { issueTestCode, obtainTokens, redeemCode } from "../../support/codes";
import { createTestClient, createTestSubscriber } from "../../support/fixtures";
import { enrolledDevice } from "../../support/mobile-support";

/**
 * What a SIM swap does to the subscriber (docs/sim-swap.md "Effects"), over HTTP against the shared test server:
 * the swap is recorded by the real admin CLI (`sim swap`), then each thing issued before it is tried again.
 */
const root = fileURLToPath(new URL("../../..", import.meta.url));
const TSX = path.join(root, "node_modules", ".bin", "tsx");
const jwks = createRemoteJWKSet(new URL(`${baseUrl}/jwks`));
const SCOPE = "openid mc_identity_phonenumber offline_access";

function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(TSX, ["scripts/admin.ts", ...args], { cwd: root, env: { ...process.env, ...TEST_SECRETS } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }));
  });
}

/** A relying party's back-channel logout endpoint: records each POST (form body). */
interface Received { path: string; body: string }
let receiver: Server;
let receiverBase: string;
const received: Received[] = [];
beforeAll(async () => {
  receiver = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (c: Buffer) => { body += c.toString(); });
    req.on("end", () => {
      received.push({ path: req.url ?? "", body });
      res.writeHead(200, { "Cache-Control": "no-store" }).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

async function waitFor(p: string, timeoutMs = 15_000): Promise<Received> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const got = received.find((r) => r.path === p);
    if (got) return got;
    if (Date.now() > until) throw new Error(`${p}: no logout notification after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const errorOf = async (res: Response) => ({ status: res.status, ...(await res.json() as { error: string }) });
const refresh = (client: { id: string; secret?: string }, token: string) => fetch(`${baseUrl}/token`, {
  method: "POST", body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token }),
  headers: { "content-type": "application/x-www-form-urlencoded",
    authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}` },
});
const userinfo = (token: string) => fetch(`${baseUrl}/userinfo`, { headers: { authorization: `Bearer ${token}` } });

describe("a SIM swap recorded with the admin CLI", () => {
  it("ends the browser session, tokens, handset, CIBA requests and codes, and tells the relying party", async () => {
    const subscriber = await createTestSubscriber();
    const client = await createTestClient();
    const logoutPath = `/bc/${client.id}`;
    await setClientLogout({ clientId: client.id, changes: { backchannel_logout_uri: `${receiverBase}${logoutPath}`,
      backchannel_logout_session_required: true } });
    await grant(subscriber, client, SCOPE);
    const { browserId, session } = await signedInBrowser(subscriber, { authTime: new Date(Date.now() - 10_000) });
    const tokens = await obtainTokens(baseUrl, client, subscriber, { scope: SCOPE, sessionId: session.id });
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const unredeemed = await issueTestCode({ client, subscriber, sessionId: session.id });
    const handsetCookie = await enrolledDevice(subscriber);
    const cibaClient = await createCibaClient();
    const pending = await createBackchannelRequest({ clientId: cibaClient.id, subscriberId: subscriber.id });
    const approved = await createBackchannelRequest({ clientId: cibaClient.id, subscriberId: subscriber.id });
    expect(await settle(approved.id)).toBe(true);

    // Before: everything works.
    const q = requestFor(client, { scope: "openid" });
    expectCallback(await authorize(q, { browserId }), client, q.state);
    expect((await userinfo(tokens.access_token)).status).toBe(200);
    const handsetBefore = await fetch(`${baseUrl}/handset`, { headers: { cookie: handsetCookie } });
    expect(await handsetBefore.text()).not.toContain("not registered");

    const run = await admin("sim", "swap", `+${subscriber.msisdn}`, "--json");
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({ msisdn: subscriber.msisdn, recorded: true, subscriber: true, sessions_ended: 1,
      devices_removed: 1, backchannel_requests_denied: 2, logout_notified: true });
    // the test code and the one the "before" /authorize issued
    expect(out.authorization_codes_expired).toBe(2);
    expect(out.access_tokens_revoked).toBeGreaterThanOrEqual(1);
    expect(out.refresh_tokens_revoked).toBeGreaterThanOrEqual(1);

    // The browser session no longer counts: /authorize asks to sign in again.
    const q2 = requestFor(client, { scope: "openid" });
    await expectInteraction(await authorize(q2, { browserId }));
    // The refresh token is refused; the access token is refused at /userinfo.
    expect(await errorOf(await refresh(client, tokens.refresh_token!))).toMatchObject({ status: 400,
      error: "invalid_grant" });
    expect((await userinfo(tokens.access_token)).status).toBe(401);
    // A code issued before the swap no longer redeems.
    expect(await errorOf(await redeemCode(baseUrl, client, unredeemed))).toMatchObject({ status: 400,
      error: "invalid_grant" });
    // The enrolled handset's cookie no longer works: it must enrol again.
    const handsetAfter = await (await fetch(`${baseUrl}/handset`, { headers: { cookie: handsetCookie } })).text();
    expect(handsetAfter).toContain("not registered");
    expect((await fetch(`${baseUrl}/handset/events`, { headers: { cookie: handsetCookie } })).status).toBe(401);
    // Pending and approved-not-redeemed CIBA requests are denied.
    expect(await errorOf(await pollToken(cibaClient, pending.authReqId))).toMatchObject({ status: 400,
      error: "access_denied" });
    expect(await errorOf(await pollToken(cibaClient, approved.authReqId))).toMatchObject({ status: 400,
      error: "access_denied" });

    // The relying party registered for back-channel logout gets a logout token for the session.
    const got = await waitFor(logoutPath);
    const logoutToken = new URLSearchParams(got.body).get("logout_token")!;
    const { payload } = await jwtVerify(logoutToken, jwks, { issuer: baseUrl, audience: client.id, typ: "logout+jwt" });
    expect(payload.sid).toBe(session.id);
    expect(payload.sub).toBe(decodeJwt(tokens.id_token).sub);
    expect(await db.logoutNotification.count({ where: { clientId: client.id, reason: "sim_swap" } })).toBe(1);

    // Audited: sim_swap with the pseudonym (never the subscriber id or number), and the CLI command.
    const audit = await db.auditEvent.findFirstOrThrow({ where: { type: "sim_swap",
      subscriberRef: pseudonymiseSubscriber(subscriber.id) } });
    expect(audit.detail).not.toContain(subscriber.msisdn);
    expect(JSON.parse(audit.detail!)).toMatchObject({ source: "cli", sessions_ended: 1, devices_removed: 1 });
    expect(await db.auditEvent.count({ where: { type: "admin_sim_swap" } })).toBeGreaterThanOrEqual(1);
    // The subscriber is still active: the number's new holder signs in and enrols again.
    expect((await db.subscriber.findUniqueOrThrow({ where: { id: subscriber.id } })).status).toBe("active");
  }, 90_000);

  it("only ends what predates the change: a historical event leaves a later session and token alone", async () => {
    const subscriber = await createTestSubscriber();
    const client = await createTestClient();
    const { browserId } = await signedInBrowser(subscriber);
    const tokens = await obtainTokens(baseUrl, client, subscriber, { scope: SCOPE, authTime: new Date() });
    await grant(subscriber, client);
    const r = await recordSimSwap({ msisdn: subscriber.msisdn, at: new Date(Date.now() - 86_400_000), source: "cli" });
    expect(r.effects).toMatchObject({ sessionsEnded: 0, accessTokensRevoked: 0, refreshTokensRevoked: 0,
      devicesRemoved: 0, logoutNotified: false });
    const q = requestFor(client, { scope: "openid" });
    expectCallback(await authorize(q, { browserId }), client, q.state);
    expect((await userinfo(tokens.access_token)).status).toBe(200);
    expect((await refresh(client, tokens.refresh_token!)).status).toBe(200);
  });

  it("refuses a time in the future and a malformed number; records a number that is no subscriber's", async () => {
    const future = await admin("sim", "swap", "447700900999", "--at", new Date(Date.now() + 3_600_000).toISOString(),
      "--json");
    expect(future.code).toBe(1);
    expect(JSON.parse(future.stdout)).toEqual({ error: "swapped_at is in the future" });
    const bad = await admin("sim", "swap", "12ab", "--json");
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).error).toMatch(/malformed MSISDN/);
    const badRef = await admin("sim", "swap", "447700900999", "--reference", "two words", "--json");
    expect(badRef.code).toBe(1);
    expect(JSON.parse(badRef.stdout).error).toMatch(/^reference must be/);
    expect(await db.simSwapEvent.count({ where: { msisdn: "447700900999" } })).toBe(0);
    const msisdn = `4470${String(Date.now()).slice(-8)}`;
    const r = await recordSimSwap({ msisdn, source: "cli" });
    expect(r).toMatchObject({ created: true, subscriber: false });
    expect(await db.simSwapEvent.count({ where: { msisdn } })).toBe(1);
  }, 60_000);
});

describe("suspension after the refactor (cutSubscriberAccessIn shared with the SIM swap)", () => {
  it("still ends sessions, revokes tokens and denies CIBA requests", async () => {
    const subscriber = await createTestSubscriber();
    const client = await createTestClient();
    const { session } = await signedInBrowser(subscriber);
    const tokens = await obtainTokens(baseUrl, client, subscriber, { scope: SCOPE });
    const cibaClient = await createCibaClient();
    const pending = await createBackchannelRequest({ clientId: cibaClient.id, subscriberId: subscriber.id });
    await suspendSubscriber({ msisdn: subscriber.msisdn });
    expect((await db.session.findUniqueOrThrow({ where: { id: session.id } })).endedAt).not.toBeNull();
    expect((await userinfo(tokens.access_token)).status).toBe(401);
    expect((await db.backchannelRequest.findUniqueOrThrow({ where: { id: pending.id } })).status).toBe("denied");
  });
});
