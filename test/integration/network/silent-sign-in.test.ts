import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { sha256 } from "@/lib/crypto";
import {
  baseUrl, codeRow, createTestClient, createTestSubscriber, expectCallback, expectErrorRedirect, expectInteraction, grant,
  requestFor, signedInBrowser,
} from "../../support/authorize-support";
import { redeemCode } from "../../support/codes";
import { createApiClient, declarePurpose, FRAUD } from "../../support/camara-support";
import { authorizeFrom, browserIdSet, mapRange, sourcePort } from "../../support/network-support";

/**
 * Silent sign-in at /authorize by the network (lib/oauth/authorize/steps/authenticate-by-network.ts) over real
 * HTTP: each test's requests come from a loopback address of its own (127.0.0.x) that the NetworkRange table maps
 * to its subscriber; the shared server runs the default `table` resolver.
 */
const NV = "number-verification:verify";

async function setUp(address: string, opts: { consent?: boolean } = {}) {
  const client = await createTestClient();
  const subscriber = await createTestSubscriber();
  await mapRange(address, subscriber.msisdn);
  if (opts.consent !== false) await grant(subscriber, client);
  return { client, subscriber };
}

describe("silent sign-in by the network at /authorize", () => {
  it("signs in a new browser from its data session: a code with amr nba, the browser cookie set, audited", async () => {
    const { client, subscriber } = await setUp("127.0.0.11");
    const query = requestFor(client);
    const res = await authorizeFrom(query, { from: "127.0.0.11" });
    const code = expectCallback(res, client, query.state).get("code")!;
    const browserId = browserIdSet(res);
    expect(browserId).not.toBeNull();
    const row = await codeRow(code);
    expect(row).toMatchObject({ subscriberId: subscriber.id, acr: "2" });
    const session = await db.session.findFirstOrThrow({ where: { subscriberId: subscriber.id } });
    expect(session).toMatchObject({ amr: "nba", acr: "2", browserIdHash: sha256(browserId!) });
    const tokens = await redeemCode(baseUrl, client, code);
    expect(tokens.status).toBe(200);
    const { access_token: accessToken, id_token: idToken } = await tokens.json() as Record<string, string>;
    expect(JSON.parse(Buffer.from(idToken!.split(".")[1]!, "base64url").toString()).amr).toEqual(["nba"]);
    const token = await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256(accessToken!) } });
    expect(token.amr).toBe("nba");
    const audit = await db.auditEvent.findMany({ where: { type: "sign_in", clientId: client.id } });
    expect(audit.map((a) => JSON.parse(a.detail!))).toEqual([expect.objectContaining({ method: "nba", acr: "2" })]);
  });

  it("prompt=none works without a prior session", async () => {
    const { client } = await setUp("127.0.0.12");
    const query = requestFor(client, { prompt: "none" });
    const res = await authorizeFrom(query, { from: "127.0.0.12" });
    expect(expectCallback(res, client, query.state).get("code")).toBeTruthy();
  });

  it("a browser holding a cookie but no session keeps its cookie; a live session answers as before", async () => {
    const { client, subscriber } = await setUp("127.0.0.13");
    const other = await createTestSubscriber();
    const { browserId: empty } = await signedInBrowser(other); // a session of someone else's: suspended below
    await db.subscriber.update({ where: { id: other.id }, data: { status: "suspended" } });
    const query = requestFor(client);
    const first = await authorizeFrom(query, { from: "127.0.0.13", browserId: empty });
    expect(expectCallback(first, client, query.state).get("code")).toBeTruthy();
    expect(browserIdSet(first)).toBeNull();
    expect(await db.session.count({ where: { subscriberId: subscriber.id, browserIdHash: sha256(empty), amr: "nba" } }))
      .toBe(1);
    // With a session of its own (an SMS code sign-in), the network is not asked: the session answers.
    const { browserId } = await signedInBrowser(subscriber);
    const second = await authorizeFrom(requestFor(client), { from: "127.0.0.13", browserId });
    const code = new URL(second.headers.get("location")!).searchParams.get("code")!;
    expect((await codeRow(code))!.amr).toBe("otp sms");
  });

  it("no consent on record: the consent screen still appears, for the network's session", async () => {
    const { client, subscriber } = await setUp("127.0.0.14", { consent: false });
    const res = await authorizeFrom(requestFor(client), { from: "127.0.0.14" });
    const { row } = await expectInteraction(res);
    expect(row.status).toBe("authenticated");
    const session = await db.session.findUniqueOrThrow({ where: { id: row.sessionId! } });
    expect(session).toMatchObject({ subscriberId: subscriber.id, amr: "nba" });
    expect(browserIdSet(res)).not.toBeNull();
  });

  it("not silent: a hint naming someone else, acr 3, prompt=login, an unmapped address, a suspended subscriber", async () => {
    const { client, subscriber } = await setUp("127.0.0.15");
    const other = await createTestSubscriber();
    const cases: Array<[Record<string, string>, string]> = [
      [requestFor(client, { login_hint: `MSISDN:${other.msisdn}` }), "127.0.0.15"],
      [requestFor(client, { acr_values: "3" }), "127.0.0.15"],
      [requestFor(client, { prompt: "login" }), "127.0.0.15"],
      [requestFor(client), "127.0.0.16"],
    ];
    for (const [query, from] of cases) {
      const res = await authorizeFrom(query, { from });
      const { row } = await expectInteraction(res);
      expect(row.status, JSON.stringify(query)).toBe("pending");
    }
    const withHint = await authorizeFrom(requestFor(client, { login_hint: `MSISDN:${subscriber.msisdn}` }),
      { from: "127.0.0.15" });
    expect(new URL(withHint.headers.get("location")!).searchParams.get("code")).toBeTruthy();
    await db.subscriber.update({ where: { id: subscriber.id }, data: { status: "suspended" } });
    const suspended = await authorizeFrom(requestFor(client, { prompt: "none" }), { from: "127.0.0.15" });
    expect(new URL(suspended.headers.get("location")!).searchParams.get("error")).toBe("login_required");
    expect(await db.session.count({ where: { subscriberId: subscriber.id } })).toBe(1);
  });

  it("port ranges: two subscribers behind one NAT address, each named by their source port", async () => {
    const client = await createTestClient();
    const [a, b] = [await createTestSubscriber(), await createTestSubscriber()];
    await mapRange("127.0.0.17", a.msisdn, "20000-29999");
    await mapRange("127.0.0.17", b.msisdn, "30000-39999");
    await grant(a, client);
    await grant(b, client);
    for (const [subscriber, base] of [[a, 21000], [b, 31000], [a, 25000]] as const) {
      const res = await authorizeFrom(requestFor(client), { from: "127.0.0.17", port: sourcePort(base) });
      const code = new URL(res.headers.get("location")!).searchParams.get("code")!;
      expect((await codeRow(code))!.subscriberId).toBe(subscriber.id);
    }
    // Outside both ranges the address alone names nobody.
    const { row } = await expectInteraction(await authorizeFrom(requestFor(client),
      { from: "127.0.0.17", port: sourcePort(41000) }));
    expect(row.status).toBe("pending");
  });

  it("ipport login_hint: malformed is invalid_request; one the network does not know is not silent", async () => {
    const { client } = await setUp("127.0.0.18");
    const bad = requestFor(client, { login_hint: "ipport:300.0.0.1:80" });
    expectErrorRedirect(await authorizeFrom(bad, { from: "127.0.0.18" }), client, bad.state, "invalid_request");
    const unknown = await authorizeFrom(requestFor(client, { login_hint: "ipport:192.0.2.1:1234" }), { from: "127.0.0.18" });
    expect((await expectInteraction(unknown)).row.status).toBe("pending");
    const same = await authorizeFrom(requestFor(client, { login_hint: "ipport:127.0.0.18:1234" }), { from: "127.0.0.18" });
    expect(new URL(same.headers.get("location")!).searchParams.get("code")).toBeTruthy();
  });
});

describe("Number Verification at /authorize", () => {
  async function nvSetUp(address: string) {
    await declarePurpose(NV, FRAUD, "contract");
    const client = await createApiClient({ scopes: [NV, FRAUD] });
    const subscriber = await createTestSubscriber();
    await mapRange(address, subscriber.msisdn);
    await grant(subscriber, client, `openid ${NV} ${FRAUD}`);
    return { client, subscriber, scope: `openid ${NV} ${FRAUD}` };
  }

  it("is authenticated by the network on this very request, even with a live session in the browser", async () => {
    const { client, subscriber, scope } = await nvSetUp("127.0.0.21");
    const { browserId } = await signedInBrowser(subscriber);
    const query = requestFor(client, { scope });
    const res = await authorizeFrom(query, { from: "127.0.0.21", browserId });
    const code = expectCallback(res, client, query.state).get("code")!;
    expect((await codeRow(code))!.amr).toBe("nba");
  });

  it("from an address the network does not know: login_required to the client, never a screen", async () => {
    const { client, subscriber, scope } = await nvSetUp("127.0.0.22");
    const { browserId } = await signedInBrowser(subscriber);
    const query = requestFor(client, { scope });
    expectErrorRedirect(await authorizeFrom(query, { from: "127.0.0.23", browserId }), client, query.state,
      "login_required");
    const level3 = requestFor(client, { scope, acr_values: "3" });
    expectErrorRedirect(await authorizeFrom(level3, { from: "127.0.0.22" }), client, level3.state, "login_required");
  });
});
