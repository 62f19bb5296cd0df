import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startServer, type RunningServer } from "../../support/server";
import { codeRow, createTestClient, createTestSubscriber, grant, requestFor } from "../../support/authorize-support";
import { authorizeFrom, mapRange, sourcePort } from "../../support/network-support";
import { requestFrom } from "../../support/request-from";
import { beginAuthorization } from "@/e2e/fixtures/interaction-http";
import { db } from "@/lib/db";
import { pseudonymiseSubscriber } from "@/lib/audit/pseudonymise-subscriber";

/**
 * What server/main.ts lets reach the handlers (docs/network-authentication.md): the header-enrichment header only
 * from a NETWORK_ENRICHMENT_PROXIES peer; behind TRUSTED_PROXY the address from X-Forwarded-For and the source port
 * from NETWORK_PORT_HEADER (what nginx sets from $remote_port); never a port a client wrote itself. TRUSTED_PROXY
 * is the proxies' addresses: X-Forwarded-For and the port header count only when the peer is one of them.
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ name: "network-proxy", databaseUrl: inject("databaseUrl"), env: {
    TRUSTED_PROXY: "127.0.0.1", NETWORK_PORT_HEADER: "X-Client-Port", NETWORK_ENRICHMENT_HEADER: "X-Subscriber-Msisdn",
    NETWORK_ENRICHMENT_PROXIES: "127.0.0.50/32",
  } });
});
afterAll(() => server?.stop());

/** The subscriber a silent sign-in signed in, or null when the request went to a screen. */
async function signedIn(res: Response): Promise<string | null> {
  expect(res.status).toBe(302);
  const code = new URL(res.headers.get("location")!).searchParams.get("code");
  return code ? (await codeRow(code))!.subscriberId : null;
}

describe("header enrichment", () => {
  it("counts only from a configured proxy: the same header from any other peer is ignored", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    await grant(subscriber, client);
    const headers = { "X-Subscriber-Msisdn": `+${subscriber.msisdn}` };
    expect(await signedIn(await authorizeFrom(requestFor(client), { from: "127.0.0.51", headers,
      baseUrl: server.baseUrl }))).toBeNull();
    expect(await signedIn(await authorizeFrom(requestFor(client), { from: "127.0.0.50", headers,
      baseUrl: server.baseUrl }))).toBe(subscriber.id);
  });

  it("is ignored by a server with no enrichment configured (the shared one)", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    await grant(subscriber, client);
    const headers = { "X-Subscriber-Msisdn": subscriber.msisdn, "X-MSISDN": subscriber.msisdn };
    expect(await signedIn(await authorizeFrom(requestFor(client), { from: "127.0.0.52", headers }))).toBeNull();
  });
});

describe("behind a trusted proxy", () => {
  it("reads the subscriber's address from X-Forwarded-For and the port from the configured header", async () => {
    const client = await createTestClient();
    const [a, b] = [await createTestSubscriber(), await createTestSubscriber()];
    await mapRange("198.18.0.9", a.msisdn, "1000-1999");
    await mapRange("198.18.0.9", b.msisdn, "2000-2999");
    await grant(a, client);
    await grant(b, client);
    const via = (port?: string) => authorizeFrom(requestFor(client), { from: "127.0.0.1", baseUrl: server.baseUrl,
      headers: { "X-Forwarded-For": "198.18.0.9", ...(port ? { "X-Client-Port": port } : {}) } });
    expect(await signedIn(await via("1500"))).toBe(a.id);
    expect(await signedIn(await via("2500"))).toBe(b.id);
    // Without the port the address alone names nobody (the ranges split its ports).
    expect(await signedIn(await via())).toBeNull();
  });

  it("never takes the internal port header from a client (the shared server sets it from the socket)", async () => {
    const client = await createTestClient();
    const [a, b] = [await createTestSubscriber(), await createTestSubscriber()];
    await mapRange("127.0.0.53", a.msisdn, "20000-29999");
    await mapRange("127.0.0.53", b.msisdn, "30000-39999");
    await grant(a, client);
    await grant(b, client);
    const res = await authorizeFrom(requestFor(client), { from: "127.0.0.53", port: sourcePort(22000),
      headers: { "X-Network-Peer-Port": "31000" } });
    expect(await signedIn(res)).toBe(a.id);
  });
});

describe("TRUSTED_PROXY: the proxies' addresses, checked against the socket's peer (issue 33)", () => {
  it("signs in by the network from X-Forwarded-For only when a listed proxy sent it (lean path)", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    await mapRange("198.18.0.19", subscriber.msisdn);
    await grant(subscriber, client);
    const via = (from: string) => authorizeFrom(requestFor(client), { from, baseUrl: server.baseUrl,
      headers: { "X-Forwarded-For": "198.18.0.19", "X-Client-Port": "1500" } });
    // 127.0.0.54 reaches the service directly: its header is its own word, its address is its socket's.
    expect(await signedIn(await via("127.0.0.54"))).toBeNull();
    expect(await signedIn(await via("127.0.0.1"))).toBe(subscriber.id);
  });

  it("records the peer, or the listed proxy's forwarded address, in the audit log (Next.js path)", async () => {
    const client = await createTestClient();
    const recorded = async (from: string, forwarded: string) => {
      const s = await createTestSubscriber();
      const f = await beginAuthorization(server.baseUrl, client);
      for (const [step, fields] of [["msisdn", { msisdn: s.msisdn }], ["code", { code: "000000" }]] as const) {
        await requestFrom(`${server.baseUrl}/interaction/${f.id}/${step}`, { method: "POST", from, body:
          new URLSearchParams({ csrf_token: f.csrf, ...fields }).toString(), headers: { cookie: f.cookie,
          "content-type": "application/x-www-form-urlencoded", origin: server.baseUrl, "x-forwarded-for": forwarded } });
      }
      const events = await db.auditEvent.findMany({ where: { type: "sign_in", subscriberRef: pseudonymiseSubscriber(s.id) } });
      expect(events.length).toBeGreaterThan(0);
      return [...new Set(events.map((e) => e.ip))];
    };
    expect(await recorded("127.0.0.55", "192.0.2.55")).toEqual(["127.0.0.55"]);
    expect(await recorded("127.0.0.1", "192.0.2.56")).toEqual(["192.0.2.56"]);
  });
});
