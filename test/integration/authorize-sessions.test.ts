import { beforeAll, describe, expect, it } from "vitest";
import { randomToken, sha256 } from "@/lib/crypto";
import {
  authorize, codeRow, createTestClient, createTestSubscriber, db, expectCallback, expectErrorPage, expectErrorRedirect,
  expectInteraction, grant, requestFor, resume, signedInBrowser, type Client, type Subscriber,
} from "./authorize-support";

let client: Client;
let alice: Subscriber;

beforeAll(async () => {
  client = await createTestClient({ scopes: ["openid", "mc_authn", "mc_authz", "mc_identity_phonenumber"] });
  alice = await createTestSubscriber();
  await grant(alice, client, "openid mc_authn");
});

describe("fast path: a signed-in browser with remembered consent", () => {
  it("gets the code at once, stored hashed with every binding", async () => {
    const { browserId, session } = await signedInBrowser(alice, { acr: "3" });
    const q = requestFor(client, {
      scope: "openid mc_authn", max_age: "3600", claims_locales: "en fr", login_hint: "MSISDN:" + alice.msisdn,
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256",
    });
    const res = await authorize(q, { browserId });
    const cb = expectCallback(res, client, q.state);
    const code = cb.get("code")!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await db.authorizationCode.findUnique({ where: { codeHash: code } })).toBeNull();
    const row = await codeRow(code);
    expect(row).toMatchObject({
      clientId: client.id, subscriberId: alice.id, sessionId: session.id, redirectUri: client.redirectUri,
      scope: "openid mc_authn", nonce: q.nonce, acr: "3", amr: "otp sms pin", authTime: session.authTime,
      codeChallenge: q.code_challenge, codeChallengeMethod: "S256", loginHint: `MSISDN:${alice.msisdn}`,
      claimsLocales: "en fr", usedAt: null,
    });
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });

  it("prompt=none with a session and consent -> code", async () => {
    const { browserId } = await signedInBrowser(alice);
    const q = requestFor(client, { prompt: "none" });
    expect(expectCallback(await authorize(q, { browserId }), client, q.state).get("code")).toBeTruthy();
  });

  it("ignores ended and expired sessions and suspended subscribers", async () => {
    const bob = await createTestSubscriber();
    await grant(bob, client);
    const ended = await signedInBrowser(bob);
    await db.session.update({ where: { id: ended.session.id }, data: { endedAt: new Date() } });
    const expired = await signedInBrowser(bob);
    await db.session.update({ where: { id: expired.session.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const carol = await createTestSubscriber({ status: "suspended" });
    await grant(carol, client);
    const suspended = await signedInBrowser(carol);
    for (const { browserId } of [ended, expired, suspended]) {
      const q = requestFor(client, { prompt: "none" });
      expectErrorRedirect(await authorize(q, { browserId }), client, q.state, "login_required");
    }
  });
});

describe("prompt=none answers at once", () => {
  it("no session -> login_required", async () => {
    const q = requestFor(client, { prompt: "none" });
    expectErrorRedirect(await authorize(q), client, q.state, "login_required");
  });

  it("a session without consent -> consent_required", async () => {
    const q = requestFor(client, { prompt: "none", scope: "openid mc_identity_phonenumber" });
    const { browserId } = await signedInBrowser(alice);
    expectErrorRedirect(await authorize(q, { browserId }), client, q.state, "consent_required");
  });

  it("mc_authz is never remembered -> consent_required", async () => {
    const { browserId } = await signedInBrowser(alice);
    const q = requestFor(client, { prompt: "none", scope: "openid mc_authz", client_name: client.name, context: "Pay" });
    expectErrorRedirect(await authorize(q, { browserId }), client, q.state, "consent_required");
  });

  it("a login hint naming another subscriber -> login_required", async () => {
    const { browserId } = await signedInBrowser(alice);
    const q = requestFor(client, { prompt: "none", login_hint: "MSISDN:447000000001" });
    expectErrorRedirect(await authorize(q, { browserId }), client, q.state, "login_required");
  });
});

describe("when the session does not suffice, the interaction screen", () => {
  it("prompt=login with a session -> sign-in", async () => {
    const { browserId } = await signedInBrowser(alice);
    const { row } = await expectInteraction(await authorize(requestFor(client, { prompt: "login" }), { browserId }));
    expect(row).toMatchObject({ status: "pending", browserIdHash: sha256(browserId) });
  });

  it("max_age exceeded -> sign-in", async () => {
    const { browserId } = await signedInBrowser(alice, { authTime: new Date(Date.now() - 3600_000) });
    const { row } = await expectInteraction(await authorize(requestFor(client, { max_age: "60" }), { browserId }));
    expect(row.status).toBe("pending");
  });

  it("acr 3 requested with an acr 2 session -> sign-in (step up)", async () => {
    const { browserId } = await signedInBrowser(alice, { acr: "2" });
    const { row, params } = await expectInteraction(await authorize(requestFor(client, { acr_values: "3" }), { browserId }));
    expect(row.status).toBe("pending");
    expect(params.acr).toBe("3");
  });

  it("consent not remembered -> consent for the browser's session (request authenticated)", async () => {
    const { browserId, session } = await signedInBrowser(alice);
    const res = await authorize(requestFor(client, { scope: "openid mc_identity_phonenumber" }), { browserId });
    const { row } = await expectInteraction(res);
    expect(row).toMatchObject({ status: "authenticated", sessionId: session.id, subscriberId: alice.id });
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("prompt=consent -> consent even when remembered", async () => {
    const { browserId } = await signedInBrowser(alice);
    const { row } = await expectInteraction(await authorize(requestFor(client, { prompt: "consent" }), { browserId }));
    expect(row.status).toBe("authenticated");
  });

  it("select_account with two signed-in subscribers -> account selection (pending)", async () => {
    const bob = await createTestSubscriber();
    await grant(bob, client);
    const { browserId } = await signedInBrowser(alice);
    await signedInBrowser(bob, { browserId });
    const { row } = await expectInteraction(await authorize(requestFor(client, { prompt: "select_account" }), { browserId }));
    expect(row.status).toBe("pending");
  });
});

describe("resume after the screens", () => {
  async function pendingRequest(overrides: Record<string, string> = {}) {
    const res = await authorize(requestFor(client, { scope: "openid mc_identity_phonenumber", ...overrides }));
    const browserId = /=([A-Za-z0-9_-]{43});/.exec(res.headers.get("set-cookie")!)![1]!;
    const { row, params } = await expectInteraction(res);
    return { browserId, row, params };
  }

  async function signIn(row: { id: string }, browserId: string, subscriber: Subscriber, status = "consented") {
    const { session } = await signedInBrowser(subscriber, { browserId });
    await db.authorizationRequest.update({
      where: { id: row.id }, data: { status, sessionId: session.id, subscriberId: subscriber.id },
    });
    return session;
  }

  it("consented -> code, and the request is completed", async () => {
    const { browserId, row, params } = await pendingRequest();
    const session = await signIn(row, browserId, alice);
    const cb = expectCallback(await resume(row.id, browserId), client, params.state);
    const code = await codeRow(cb.get("code")!);
    expect(code).toMatchObject({ sessionId: session.id, subscriberId: alice.id, scope: "openid mc_identity_phonenumber" });
    expect((await db.authorizationRequest.findUnique({ where: { id: row.id } }))!.status).toBe("completed");
    // the PCR is recorded with the code, so PCR / id_token_hint hints resolve later
    expect(await db.pairwiseSubject.count({ where: { subscriberId: alice.id, sectorIdentifier: "rp.example.test" } })).toBe(1);
  });

  it("authenticated but consent missing -> back to the screens", async () => {
    const { browserId, row } = await pendingRequest();
    await signIn(row, browserId, alice, "authenticated");
    const res = await resume(row.id, browserId);
    expect((await expectInteraction(res)).row.id).toBe(row.id);
  });

  it("still pending -> back to the screens", async () => {
    const { browserId, row } = await pendingRequest();
    expect((await expectInteraction(await resume(row.id, browserId))).row.status).toBe("pending");
  });

  it("denied -> access_denied", async () => {
    const { browserId, row, params } = await pendingRequest();
    await db.authorizationRequest.update({ where: { id: row.id }, data: { status: "denied" } });
    expect(expectErrorRedirect(await resume(row.id, browserId), client, params.state, "access_denied"))
      .toBe("User denied the request");
  });

  it("expired -> access_denied", async () => {
    const { browserId, row, params } = await pendingRequest();
    await db.authorizationRequest.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(expectErrorRedirect(await resume(row.id, browserId), client, params.state, "access_denied"))
      .toBe("The authorization request expired");
  });

  it("a second resume gets the error page, not a second code", async () => {
    const { browserId, row } = await pendingRequest();
    await signIn(row, browserId, alice);
    expect((await resume(row.id, browserId)).status).toBe(302);
    await expectErrorPage(await resume(row.id, browserId));
    expect(await db.authorizationCode.count({ where: { sessionId: (await db.authorizationRequest.findUnique({
      where: { id: row.id } }))!.sessionId } })).toBe(1);
  });

  it("concurrent resumes issue one code only", async () => {
    const { browserId, row } = await pendingRequest();
    const session = await signIn(row, browserId, alice);
    const results = await Promise.all(Array.from({ length: 5 }, () => resume(row.id, browserId)));
    const withCode = results.filter((r) => r.headers.get("location")?.includes("code="));
    expect(withCode).toHaveLength(1);
    expect(results.every((r) => r.status === 302 || r.status === 400)).toBe(true);
    expect(await db.authorizationCode.count({ where: { sessionId: session.id } })).toBe(1);
  });

  it("from another browser, without a cookie or with an unknown id -> error page", async () => {
    const { browserId, row } = await pendingRequest();
    await signIn(row, browserId, alice);
    await expectErrorPage(await resume(row.id, randomToken(32)));
    await expectErrorPage(await resume(row.id));
    await expectErrorPage(await resume(randomToken(16), browserId));
    await expectErrorPage(await resume("not-an-id", browserId));
    // the rightful browser can still finish
    expect((await resume(row.id, browserId)).headers.get("location")).toContain("code=");
  });

  it("a session that ended after sign-in -> sign in again (request back to pending)", async () => {
    const { browserId, row } = await pendingRequest();
    const session = await signIn(row, browserId, alice);
    await db.session.update({ where: { id: session.id }, data: { endedAt: new Date() } });
    const { row: after } = await expectInteraction(await resume(row.id, browserId));
    expect(after).toMatchObject({ status: "pending", sessionId: null });
  });

  it("prompt=login is satisfied by the sign-in made for the request", async () => {
    const { browserId: b } = await signedInBrowser(alice);
    const res = await authorize(requestFor(client, { prompt: "login", max_age: "0" }), { browserId: b });
    const { row } = await expectInteraction(res);
    await signIn(row, b, alice, "authenticated");
    expect((await resume(row.id, b)).headers.get("location")).toContain("code=");
  });
});
