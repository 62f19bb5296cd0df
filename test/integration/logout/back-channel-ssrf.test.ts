import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "@/lib/clients/create-client";
import { randomToken } from "@/lib/crypto";
import { db } from "@/lib/db";
import { setClientLogout } from "@/lib/logout/set-client-logout";
import { withdrawConsent } from "@/lib/subscribers/withdraw-consent";
import { createTestClient, createTestSubscriber } from "../../support/fixtures";

/**
 * Server-side request forgery through back-channel logout (docs/logout.md "Security notes"): the shared test
 * server runs with the production rule (ALLOW_LOOPBACK_CLIENT_URLS unset). A dynamically registered client
 * whose back-channel URI names, or resolves at delivery to, a loopback, private or link-local address gets no
 * POST; its notification is given up at the first attempt with the reason. An operator-registered client keeps
 * its URI, internal or not.
 */
let receiver: Server;
let receiverBase: string;
let port: number;
const received: string[] = [];
beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received.push(req.url ?? "");
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  port = (receiver.address() as AddressInfo).port;
  receiverBase = `http://127.0.0.1:${port}`;
});
afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

/** A client that registered itself (RFC 7591), with a back-channel URI that was public when registered. */
async function dynamicClient() {
  const { client } = await createClient({ name: `Dyn${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`,
    redirectUris: ["https://rp.example.test/cb"], scopes: ["openid"], registeredBy: "dynamic" });
  await setClientLogout({ clientId: client.id, changes: { backchannel_logout_uri: "https://rp.example.test/bc" } });
  return client.id;
}

/** The URI re-pointed after registration (as a DNS name re-pointed would be), then a notification queued. */
async function queueFor(clientId: string, uri: string) {
  await db.client.update({ where: { id: clientId }, data: { backchannelLogoutUri: uri } });
  const id = randomToken(16);
  await db.logoutNotification.create({ data: { id, clientId, uri, sub: "s", sid: null, reason: "logout",
    attempts: 0, nextAttemptAt: new Date() } });
  return id;
}

async function settled(id: string) {
  await expect.poll(async () => {
    const row = await db.logoutNotification.findUniqueOrThrow({ where: { id } });
    return row.failedAt ?? row.deliveredAt;
  }, { timeout: 15_000 }).not.toBeNull();
  return db.logoutNotification.findUniqueOrThrow({ where: { id } });
}

describe("back-channel delivery to a dynamically registered client (SSRF guard at send time)", () => {
  it.each([
    ["the cloud metadata address", "https://169.254.169.254/latest/meta-data/iam"],
    ["a private IPv4 address", "https://10.0.0.1/bc"],
    ["an IPv4-mapped private IPv6 address", "https://[::ffff:192.168.1.1]/bc"],
    ["a unique-local IPv6 address", "https://[fd00::1]/bc"],
  ])("%s: no request, given up at once with the reason", async (_label, uri) => {
    const id = await queueFor(await dynamicClient(), uri);
    const row = await settled(id);
    expect(row).toMatchObject({ attempts: 1, deliveredAt: null, lastStatus: null });
    expect(row.failedAt).not.toBeNull();
    expect(row.lastError).toMatch(/^refused: the URL's host is a private, loopback or reserved address/);
  }, 30_000);

  it("a name that resolves to loopback at delivery, and a loopback relying party: nothing is POSTed", async () => {
    const named = await dynamicClient();
    const byName = await queueFor(named, `https://localhost:${port}/dyn/${named}`);
    const overHttp = await dynamicClient();
    const byAddress = await queueFor(overHttp, `${receiverBase}/dyn/${overHttp}`);
    expect(await settled(byName)).toMatchObject({ attempts: 1, deliveredAt: null,
      lastError: expect.stringMatching(/private, loopback or reserved address/) });
    expect(await settled(byAddress)).toMatchObject({ attempts: 1, deliveredAt: null,
      lastError: expect.stringMatching(/refused: the URL must use https/) });
    await new Promise((r) => setTimeout(r, 2_500)); // no retry at the next poll
    expect(received.filter((p) => p.startsWith("/dyn/"))).toEqual([]);
    for (const id of [byName, byAddress]) {
      expect((await db.logoutNotification.findUniqueOrThrow({ where: { id } })).attempts).toBe(1);
    }
  }, 30_000);

  it("queued by an event: consent withdrawn from a client re-pointed at an internal address", async () => {
    const clientId = await dynamicClient();
    await db.client.update({ where: { id: clientId }, data: { backchannelLogoutUri: "https://10.20.30.40/bc" } });
    const subscriber = await createTestSubscriber();
    await db.grant.create({ data: { id: randomToken(12), subscriberId: subscriber.id, clientId, scope: "openid" } });
    await withdrawConsent({ msisdn: subscriber.msisdn, clientId });
    const { id } = await db.logoutNotification.findFirstOrThrow({ where: { clientId } });
    expect(await settled(id)).toMatchObject({ attempts: 1, deliveredAt: null, reason: "consent_withdrawn",
      uri: "https://10.20.30.40/bc", lastError: expect.stringMatching(/private, loopback or reserved/) });
  }, 30_000);

  it("an operator-registered client keeps its internal relying party (loopback here)", async () => {
    const rp = await createTestClient();
    await setClientLogout({ clientId: rp.id, changes: { backchannel_logout_uri: `${receiverBase}/admin/${rp.id}` } });
    const id = await queueFor(rp.id, `${receiverBase}/admin/${rp.id}`);
    expect(await settled(id)).toMatchObject({ attempts: 1, lastStatus: 200, failedAt: null });
    expect(received).toContain(`/admin/${rp.id}`);
  }, 30_000);
});
