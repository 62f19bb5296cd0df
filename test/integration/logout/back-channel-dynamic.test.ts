import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJwt } from "jose";
import { createClient } from "@/lib/clients/create-client";
import { config } from "@/lib/config";
import { randomToken } from "@/lib/crypto";
import { db } from "@/lib/db";
import { setClientLogout } from "@/lib/logout/set-client-logout";
import { startServer, type RunningServer } from "../../support/server";

/**
 * Back-channel delivery to dynamically registered clients goes through the guarded POST
 * (fetchClientDocument, docs/logout.md): on a server of its own (fresh database) with
 * ALLOW_LOOPBACK_CLIENT_URLS=true (development and tests), so a relying party on 127.0.0.1 is reached; the
 * answers are read as before (2xx delivered, 400 final, 503 retried), and private addresses stay refused.
 */
let server: RunningServer;
let receiver: Server;
let receiverBase: string;
const received: Array<{ path: string; contentType: string | undefined; body: string }> = [];
const statuses = new Map<string, number>();
beforeAll(async () => {
  server = await startServer({ name: "bcl-dynamic", env: { ALLOW_LOOPBACK_CLIENT_URLS: "true" } });
  process.env.DATABASE_URL = server.databaseUrl;
  expect(config().DATABASE_URL).toBe(server.databaseUrl);
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => { body += c.toString(); });
    req.on("end", () => {
      const path = req.url ?? "";
      received.push({ path, contentType: req.headers["content-type"], body });
      res.writeHead(statuses.get(path) ?? 200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
  await server?.stop();
});

async function queued(status?: number, sendTo?: string) {
  const { client } = await createClient({ name: `Dyn${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`,
    redirectUris: ["https://rp.example.test/cb"], scopes: ["openid"], registeredBy: "dynamic" });
  const path = `/bc/${client.id}`;
  if (status) statuses.set(path, status);
  const uri = `${receiverBase}${path}`;
  await setClientLogout({ clientId: client.id, changes: { backchannel_logout_uri: uri } });
  const id = randomToken(16);
  await db.logoutNotification.create({ data: { id, clientId: client.id, uri: sendTo ?? uri, sub: "s", sid: null,
    reason: "logout", attempts: 0, nextAttemptAt: new Date() } });
  return { id, path, clientId: client.id };
}
const row = (id: string) => db.logoutNotification.findUniqueOrThrow({ where: { id } });

describe("guarded back-channel delivery (loopback allowed)", () => {
  it("POSTs the logout token to the relying party and records the delivery", async () => {
    const n = await queued();
    await expect.poll(async () => (await row(n.id)).deliveredAt, { timeout: 15_000 }).not.toBeNull();
    expect(await row(n.id)).toMatchObject({ attempts: 1, lastStatus: 200, failedAt: null, lastError: null });
    const got = received.filter((r) => r.path === n.path);
    expect(got).toHaveLength(1);
    expect(got[0]!.contentType).toBe("application/x-www-form-urlencoded");
    const claims = decodeJwt(new URLSearchParams(got[0]!.body).get("logout_token")!);
    expect(claims).toMatchObject({ aud: n.clientId, jti: n.id, sub: "s" });
  }, 30_000);

  it("a 400 is final, a 503 is retried later", async () => {
    const refused = await queued(400);
    const broken = await queued(503);
    await expect.poll(async () => (await row(refused.id)).failedAt, { timeout: 15_000 }).not.toBeNull();
    expect(await row(refused.id)).toMatchObject({ attempts: 1, lastStatus: 400, deliveredAt: null });
    await expect.poll(async () => (await row(broken.id)).lastStatus, { timeout: 15_000 }).toBe(503);
    const later = await row(broken.id);
    expect(later).toMatchObject({ attempts: 1, failedAt: null, deliveredAt: null });
    expect(later.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
  }, 30_000);

  it("a private address is still refused: loopback only is allowed", async () => {
    const n = await queued(undefined, "https://10.0.0.1/bc");
    await expect.poll(async () => (await row(n.id)).failedAt, { timeout: 15_000 }).not.toBeNull();
    expect(await row(n.id)).toMatchObject({ attempts: 1, deliveredAt: null,
      lastError: expect.stringMatching(/^refused: the URL's host is a private, loopback or reserved address/) });
  }, 30_000);
});
