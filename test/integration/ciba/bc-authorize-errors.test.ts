import { beforeAll, describe, expect, it, vi } from "vitest";
import { hashSecret } from "@/lib/crypto";
import { db } from "@/lib/db";
import { rememberPairwiseSubject } from "@/lib/subjects/pairwise-subject";
import { createTestClient, createTestSubscriber, type Subscriber } from "../../support/authorize-support";
import { createCibaClient } from "../../support/ciba-support";
import { enrolledDevice } from "../../support/mobile-support";
import { getClient } from "@/lib/clients/get-client";
import { createBackchannelRequest } from "@/lib/ciba/bc-authorize/create-backchannel-request";
import { backchannelAudit, baseUrl, bcAuthorize, expectError, idTokenFor, loginHintToken } from "./bc-support";

// In this test process only (the server sends its own): a text-message gateway that is down.
vi.mock("@/lib/messaging/messaging-channel", () => ({
  getMessagingChannel: () => ({ send: () => Promise.reject(new Error("gateway down")) }),
}));

/** POST /bc-authorize refusals: CIBA Core §13 (and RFC 6749 §5.2), each with its code and status, never a 500. */

type CibaClient = Awaited<ReturnType<typeof createCibaClient>>;
let client: CibaClient;
let alice: Subscriber;
let pcr: string;

beforeAll(async () => {
  client = await createCibaClient({ scopes: ["openid", "profile"] });
  alice = await createTestSubscriber();
  await enrolledDevice(alice);
  pcr = await rememberPairwiseSubject({ subscriberId: alice.id, sectorIdentifier: "rp.example.test" });
});

const ok = () => ({ scope: "openid", login_hint: `MSISDN:${alice.msisdn}` });

describe("the client", () => {
  it("no client authentication -> 401 invalid_client", async () => {
    const res = await fetch(`${baseUrl}/bc-authorize`, { method: "POST", body: new URLSearchParams(ok()),
      headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_client");
  });

  it("a wrong secret -> 401 invalid_client", async () => {
    expectError(await bcAuthorize({ id: client.id, secret: "wrong" }, ok()), 401, "invalid_client");
  });

  it("a public client (client_id only) -> 401 invalid_client: CIBA needs an authenticated client", async () => {
    const pub = await createTestClient({ isPublic: true });
    await db.client.update({ where: { id: pub.id }, data: { grantTypes: "authorization_code urn:openid:params:grant-type:ciba" } });
    const res = await fetch(`${baseUrl}/bc-authorize`, { method: "POST",
      body: new URLSearchParams({ ...ok(), client_id: pub.id }),
      headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_client");
  });

  it("a client without the CIBA grant type -> 400 unauthorized_client", async () => {
    const plain = await createTestClient();
    expectError(await bcAuthorize(plain, ok()), 400, "unauthorized_client");
  });
});

describe("scope", () => {
  it.each([
    ["missing", {}],
    ["without openid", { scope: "profile" }],
    ["not allowed for the client", { scope: "openid email" }],
  ])("%s -> 400 invalid_scope", async (_name, over) => {
    const { scope: _drop, ...rest } = ok();
    expectError(await bcAuthorize(client, { ...rest, ...over }), 400, "invalid_scope");
  });
});

describe("hints", () => {
  it("none -> 400 invalid_request", async () => {
    expectError(await bcAuthorize(client, { scope: "openid" }), 400, "invalid_request");
  });

  it("two -> 400 invalid_request", async () => {
    expectError(await bcAuthorize(client, { ...ok(), id_token_hint: await idTokenFor(pcr, client.id) }), 400,
      "invalid_request");
    expectError(await bcAuthorize(client, { ...ok(), login_hint_token: await loginHintToken(`MSISDN:${alice.msisdn}`) }),
      400, "invalid_request");
  });

  it.each([
    ["an unknown number", "MSISDN:447000000001"],
    ["an unknown tel: number", "tel:+44-7000-000002"],
    ["a PCR of another sector", "PCR:abcdefghijklmnop0123"],
    ["a form this operator does not know", "alice@example.com"],
    ["an ENCR_MSISDN that does not decrypt", `ENCR_MSISDN:${"ab".repeat(128)}`],
  ])("login_hint naming nobody (%s) -> 400 unknown_user_id", async (_name, hint) => {
    expectError(await bcAuthorize(client, { scope: "openid", login_hint: hint }), 400, "unknown_user_id");
  });

  it("a malformed login_hint of a known form -> 400 invalid_request", async () => {
    expectError(await bcAuthorize(client, { scope: "openid", login_hint: "MSISDN:12ab" }), 400, "invalid_request");
  });

  it("a PCR of this subscriber for another client's sector -> unknown_user_id", async () => {
    const other = await createCibaClient();
    await db.client.update({ where: { id: other.id }, data: { sectorIdentifier: "other.example.test" } });
    expectError(await bcAuthorize(other, { scope: "openid", login_hint: `PCR:${pcr}` }), 400, "unknown_user_id");
  });

  it("an expired login_hint_token -> 400 expired_login_hint_token", async () => {
    const token = await loginHintToken(`MSISDN:${alice.msisdn}`, Math.floor(Date.now() / 1000) - 3600);
    expectError(await bcAuthorize(client, { scope: "openid", login_hint_token: token }), 400, "expired_login_hint_token");
  });

  it("a login_hint_token that is not ours -> 400 invalid_request", async () => {
    expectError(await bcAuthorize(client, { scope: "openid", login_hint_token: "a.b.c.d.e" }), 400, "invalid_request");
  });

  it("a login_hint_token naming nobody -> 400 unknown_user_id", async () => {
    const token = await loginHintToken("MSISDN:447000000003");
    expectError(await bcAuthorize(client, { scope: "openid", login_hint_token: token }), 400, "unknown_user_id");
  });

  it("an id_token_hint issued to another client -> 400 unknown_user_id", async () => {
    expectError(await bcAuthorize(client, { scope: "openid", id_token_hint: await idTokenFor(pcr, "someone-else") }),
      400, "unknown_user_id");
  });

  it("an id_token_hint that is not ours -> 400 unknown_user_id", async () => {
    expectError(await bcAuthorize(client, { scope: "openid", id_token_hint: "eyJhbGciOiJub25lIn0.e30." }), 400,
      "unknown_user_id");
  });
});

describe("binding_message, acr_values, requested_expiry", () => {
  it.each([
    ["65 characters", "x".repeat(65)],
    ["a line break", "Order\n42"],
    ["a control character", "Order\u000742"],
    ["a bidirectional override", "Pay \u202e24 EUR"],
  ])("binding_message with %s -> 400 invalid_binding_message", async (_name, message) => {
    expectError(await bcAuthorize(client, { ...ok(), binding_message: message }), 400, "invalid_binding_message");
  });

  it.each(["1", "4 5", "loa3"])("acr_values %j -> 400 invalid_request", async (acr) => {
    expectError(await bcAuthorize(client, { ...ok(), acr_values: acr }), 400, "invalid_request");
  });

  it.each(["0", "-5", "1.5", "abc", "601", "99999999999"])("requested_expiry %j -> 400 invalid_request", async (v) => {
    expectError(await bcAuthorize(client, { ...ok(), requested_expiry: v }), 400, "invalid_request");
  });
});

describe("client_notification_token (ping and push)", () => {
  it.each([
    ["missing", undefined],
    ["too long", "t".repeat(1025)],
    ["not a bearer token", "bad token\r\nX-Injected: 1"],
  ])("%s -> 400 invalid_request", async (_name, token) => {
    for (const mode of ["ping", "push"] as const) {
      const c = await createCibaClient({ mode, notificationEndpoint: "https://rp.example.test/cb" });
      const params: Record<string, string> = ok();
      if (token !== undefined) params.client_notification_token = token;
      expectError(await bcAuthorize(c, params), 400, "invalid_request");
    }
  });
});

describe("user_code", () => {
  let bob: Subscriber;
  beforeAll(async () => {
    bob = await createTestSubscriber({ attributes: { userCodeHash: await hashSecret("open-sesame") } });
    await enrolledDevice(bob);
  });

  it("absent -> 400 missing_user_code", async () => {
    expectError(await bcAuthorize(client, { scope: "openid", login_hint: bob.msisdn }), 400, "missing_user_code");
  });

  it("wrong -> 400 invalid_user_code; tries are limited per client and subscriber (429 slow_down)", async () => {
    const c = await createCibaClient();
    const answers = [];
    for (let i = 0; i < 11; i++) {
      answers.push(await bcAuthorize(c, { scope: "openid", login_hint: bob.msisdn, user_code: `guess-${i}` }));
    }
    for (const r of answers.slice(0, 10)) expectError(r, 400, "invalid_user_code");
    expectError(answers[10]!, 429, "slow_down");
    expect(Number(answers[10]!.headers.get("retry-after"))).toBeGreaterThan(0);
    // Even the right code waits now; another client is not affected.
    expectError(await bcAuthorize(c, { scope: "openid", login_hint: bob.msisdn, user_code: "open-sesame" }), 429,
      "slow_down");
    expect((await bcAuthorize(client, { scope: "openid", login_hint: bob.msisdn, user_code: "open-sesame" })).status)
      .toBe(200);
    const audit = await backchannelAudit(c.id);
    expect(audit.filter((e) => e.outcome === "throttled")).toHaveLength(2);
  });
});

describe("transport", () => {
  it("a body neither form nor JSON -> 400 invalid_request", async () => {
    const res = await fetch(`${baseUrl}/bc-authorize`, { method: "POST", body: "scope=openid",
      headers: { "content-type": "text/plain",
        authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}` } });
    expect(res.status).toBe(400);
  });

  it("a repeated parameter -> 400 invalid_request", async () => {
    const res = await fetch(`${baseUrl}/bc-authorize`, { method: "POST",
      body: `scope=openid&login_hint=${alice.msisdn}&login_hint=${alice.msisdn}`,
      headers: { "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}` } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_request");
  });
});

describe("the text-message fallback cannot be sent", () => {
  // Issue 20 (S2): this expected 503 temporarily_unavailable and a deleted request, which told the client that the
  // number has no handset. Now the client is answered first and the request ends `expired` (never approvable).
  it("the request is accepted, then ends expired (never pending, never approvable): no 503", async () => {
    const carol = await createTestSubscriber(); // no handset
    const registered = (await getClient({ clientId: client.id }))!;
    const created = await createBackchannelRequest({ client: registered,
      subscriber: { id: carol.id, msisdn: carol.msisdn, status: "active", locale: null, userCodeHash: null },
      request: { scopes: ["openid"], acr: "2", hint: { kind: "login_hint", value: carol.msisdn }, bindingMessage: null,
        expiresIn: 300, notificationToken: null, userCode: undefined },
      loginHint: carol.msisdn, ip: "127.0.0.1", userAgent: null });
    expect(created).toMatchObject({ channel: "sms", expiresIn: 300 });
    let row: Awaited<ReturnType<typeof db.backchannelRequest.findFirst>> = null;
    for (let i = 0; i < 100; i++) {
      row = await db.backchannelRequest.findFirst({ where: { subscriberId: carol.id } });
      if (row?.status !== "pending") break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(row).toMatchObject({ status: "expired", channel: "sms" });
    expect(row!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now());
  });
});
