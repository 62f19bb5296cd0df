import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { logger } from "@/lib/log";
import { getClient } from "@/lib/clients/get-client";
import { createBackchannelRequest } from "@/lib/ciba/bc-authorize/create-backchannel-request";
import { backchannelSmsText } from "@/lib/ciba/bc-authorize/sms-text";
import { checkLinkCode } from "@/lib/ciba/answer-by-link";
import { smsCodeHash, SMS_LINK_PATH } from "@/lib/ciba/sms-link";
import { hashOneTimeCode } from "@/lib/interaction/one-time-code";
import { hashedLoginHint } from "@/lib/oauth/id-token";
import { settleBackchannelRequest } from "@/lib/ciba/settle-backchannel-request";
import { decodeJwt } from "jose";
import { bcAuthorize, expectAccepted } from "./bc-support";
import { createTestSubscriber } from "../../support/authorize-support";
import { createCibaClient, pollToken } from "../../support/ciba-support";

/**
 * Issue 20, the text-message fallback of CIBA (lib/ciba/bc-authorize/create-backchannel-request.ts, sms-text.ts,
 * lib/ciba/sms-link.ts): S1, the text message carries no words a client chose (no binding message; a dynamic
 * client is "a service"); S2, the message is sent after the answer and a failure ends the request `expired`, never a
 * 503; N1, the link's code is stored as an HMAC under the service's key. The gateway is this process's (mocked).
 */

const gateway = vi.hoisted(() => ({
  sent: [] as { msisdn: string; body: string }[],
  mode: "ok" as "ok" | "fail" | "hold",
  release: null as null | (() => void),
}));

vi.mock("@/lib/messaging/messaging-channel", () => ({
  getMessagingChannel: () => ({
    send: (m: { msisdn: string; body: string }) => {
      gateway.sent.push(m);
      if (gateway.mode === "fail") return Promise.reject(new Error(`gateway down for ${m.msisdn}: ${m.body}`));
      if (gateway.mode === "hold") return new Promise<void>((resolve) => { gateway.release = resolve; });
      return Promise.resolve();
    },
  }),
}));

const PHISH = "Fraud alert: call 0800 123 456 now";

type Sub = Awaited<ReturnType<typeof createTestSubscriber>>;

async function create(clientId: string, subscriber: Sub, opts: { locale?: string | null; notificationToken?: string } = {}) {
  const registered = (await getClient({ clientId }))!;
  return createBackchannelRequest({ client: registered,
    subscriber: { id: subscriber.id, msisdn: subscriber.msisdn, status: "active", locale: opts.locale ?? null,
      userCodeHash: null },
    request: { scopes: ["openid"], acr: "2", hint: { kind: "login_hint", value: subscriber.msisdn },
      bindingMessage: PHISH, expiresIn: 300, notificationToken: opts.notificationToken ?? null, userCode: undefined },
    loginHint: subscriber.msisdn, ip: "127.0.0.1", userAgent: null });
}

async function settledRow(subscriberId: string) {
  for (let i = 0; i < 200; i++) {
    const row = await db.backchannelRequest.findFirst({ where: { subscriberId } });
    if (row && row.status !== "pending") return row;
    await new Promise((r) => setTimeout(r, 20));
  }
  return db.backchannelRequest.findFirst({ where: { subscriberId } });
}

async function sentTo(msisdn: string) {
  for (let i = 0; i < 200; i++) {
    const m = gateway.sent.find((s) => s.msisdn === msisdn);
    if (m) return m;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("no text message");
}

const unhandled: unknown[] = [];
beforeAll(() => {
  process.on("unhandledRejection", (reason) => { unhandled.push(reason); });
});
afterEach(() => { gateway.mode = "ok"; gateway.release?.(); gateway.release = null; });

describe("S1: the text message carries no words a client chose", () => {
  it("a dynamic client: 'A service', no client_name, no binding message (English and French)", async () => {
    const client = await createCibaClient();
    await db.client.update({ where: { id: client.id }, data: { registeredBy: "dynamic", name: "Fraud alert: call 0800 999" } });
    const carol = await createTestSubscriber();
    await create(client.id, carol);
    const en = (await sentTo(carol.msisdn)).body;
    expect(en).toMatch(/^(.*: )?A service asks you to approve a sign-in\. /);
    expect(en).not.toContain("Fraud");
    expect(en).not.toContain("0800");
    expect(en).toContain(SMS_LINK_PATH);

    const dora = await createTestSubscriber();
    await create(client.id, dora, { locale: "fr-FR" });
    const fr = (await sentTo(dora.msisdn)).body;
    expect(fr).toMatch(/Un service demande votre accord pour vous connecter\. /);
    expect(fr).not.toContain("Fraud");
    expect(fr).not.toContain("0800");
  });

  it("an operator-registered client: its name, still no binding message", async () => {
    const client = await createCibaClient();
    const erin = await createTestSubscriber();
    await create(client.id, erin);
    const body = (await sentTo(erin.msisdn)).body;
    expect(body).toContain(`${client.name} asks you to approve a sign-in.`);
    expect(body).not.toContain(PHISH);
    expect(body).not.toContain("0800");
  });

  it("backchannelSmsText names only an admin-registered client", () => {
    const args = { locale: null, clientName: "Shop", url: "https://op.example/x", code: "123456" };
    expect(backchannelSmsText({ ...args, registeredBy: "admin" })).toContain("Shop asks you");
    expect(backchannelSmsText({ ...args, registeredBy: "dynamic" })).not.toContain("Shop");
    expect(backchannelSmsText({ ...args, locale: "fr", registeredBy: "dynamic" })).toContain("Un service demande");
  });
});

describe("S2: the client is answered before the gateway, and a failed send ends the request", () => {
  it("the answer does not wait for the gateway", async () => {
    gateway.mode = "hold";
    const client = await createCibaClient();
    const gus = await createTestSubscriber();
    const created = await create(client.id, gus);
    expect(created.channel).toBe("sms");
    expect(gateway.release).not.toBeNull(); // still sending: the answer came first
    expect(await db.backchannelRequest.findFirst({ where: { subscriberId: gus.id } }))
      .toMatchObject({ status: "pending" });
  });

  it("a failed send: expired (its code no longer works), a poll client reads expired_token; no 503", async () => {
    gateway.mode = "fail";
    const warn = vi.spyOn(logger, "warn");
    const client = await createCibaClient();
    const hal = await createTestSubscriber();
    const created = await create(client.id, hal);
    const row = await settledRow(hal.id);
    expect(row).toMatchObject({ status: "expired", channel: "sms" });
    const { body } = await sentTo(hal.msisdn);
    const token = new RegExp(`${SMS_LINK_PATH}/([A-Za-z0-9_-]+)`).exec(body)![1]!;
    const code = /\b(\d{6})\b/.exec(body)![1]!;
    expect(await checkLinkCode({ token, code })).toEqual({ result: "expired" });
    const res = await pollToken(client, created.authReqId);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("expired_token");
    // Logged, without the number or the code (nor the gateway's message, which here holds both).
    const logged = JSON.stringify(warn.mock.calls);
    expect(logged).toContain("not sent");
    expect(logged).not.toContain(hal.msisdn);
    expect(logged).not.toContain(code);
    warn.mockRestore();
    expect(unhandled).toEqual([]);
  });

  it("a failed send for a ping client: expired and the notification is queued", async () => {
    gateway.mode = "fail";
    const client = await createCibaClient({ mode: "ping", notificationEndpoint: "https://rp.example.test/cb" });
    const ivy = await createTestSubscriber();
    await create(client.id, ivy, { notificationToken: "ping-notification-token-0123456789" });
    const row = await settledRow(ivy.id);
    expect(row).toMatchObject({ status: "expired" });
    expect(await db.backchannelNotification.count({ where: { requestId: row!.id } })).toBeGreaterThanOrEqual(1);
    expect(unhandled).toEqual([]);
  });
});

describe("N1: the link's code is stored as an HMAC under the service's key", () => {
  it("codeHash is smsCodeHash, not the SHA-256 salted with the request id", async () => {
    const client = await createCibaClient();
    const jo = await createTestSubscriber();
    await create(client.id, jo);
    const code = /\b(\d{6})\b/.exec((await sentTo(jo.msisdn)).body)![1]!;
    const row = (await db.backchannelRequest.findFirst({ where: { subscriberId: jo.id } }))!;
    expect(row.codeHash).toBe(smsCodeHash({ requestId: row.id, code }));
    expect(row.codeHash).not.toBe(hashOneTimeCode({ requestId: row.id, code }));
  });
});

describe("N2: the hint is stored only as its hashed_login_hint", () => {
  it("BackchannelRequest.loginHint is hashedLoginHint(hint), never the number", async () => {
    const client = await createCibaClient();
    const kim = await createTestSubscriber();
    await create(client.id, kim);
    const row = (await db.backchannelRequest.findFirst({ where: { subscriberId: kim.id } }))!;
    expect(row.loginHint).toBe(hashedLoginHint(kim.msisdn));
    expect(row.loginHint).not.toContain(kim.msisdn);
  });

  // Needs the companion change in lib/oauth/id-token.ts and lib/ciba/backchannel-tokens.ts (the stored value is
  // already the claim): without it the id_token carries the hash of the hash.
  it("end to end: the id_token's hashed_login_hint is the SHA-256 of the hint as sent", async () => {
    const client = await createCibaClient();
    const lea = await createTestSubscriber();
    const hint = `MSISDN:${lea.msisdn}`;
    const { authReqId, row } = await expectAccepted(await bcAuthorize(client, { scope: "openid", login_hint: hint }));
    const at = new Date();
    await db.$transaction((tx) => settleBackchannelRequest(tx, { requestId: row.id, at,
      settlement: { outcome: "approved", acr: "2", amr: ["otp", "sms"] } }));
    const res = await pollToken(client, authReqId);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id_token: string };
    expect(decodeJwt(body.id_token).hashed_login_hint).toBe(hashedLoginHint(hint));
  });
});
