import { beforeAll, describe, expect, it } from "vitest";
import { randomToken, sha256 } from "@/lib/crypto";
import {
  authorize, baseUrl, codeRow, createTestClient, createTestSubscriber, db, expectCallback, expectErrorPage, expectErrorRedirect,
  expectInteraction, grant, requestFor, resume, signedInBrowser, type Client, type Subscriber,
} from "../../support/authorize-support";
import { csrfOf, getInteraction, postStep } from "@/e2e/fixtures/interaction-http";
import { browserCookieName } from "@/lib/sessions/browser-cookie";

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
    // No browser cookie; only the Session Management browser state (lib/sessions/browser-state.ts), once.
    expect(res.headers.getSetCookie().map((c) => c.split("=")[0])).toEqual(["op_bs"]);
    const again = await authorize(q, { headers: {
      cookie: `${browserCookieName()}=${browserId}; ${res.headers.get("set-cookie")!.split(";")[0]}` } });
    expectCallback(again, client, q.state);
    expect(again.headers.get("set-cookie")).toBeNull();
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

describe("session fixation: a sign-in renews the browser cookie", () => {
  const cookieOf = (browserId: string) => `${browserCookieName()}=${browserId}`;
  const post = (id: string, step: string, browserId: string, csrf: string, fields: Record<string, string>) =>
    postStep(baseUrl, id, step, { cookie: cookieOf(browserId), fields: { csrf_token: csrf, ...fields } });

  /** Signs `subscriber` in on the screens of a browser presenting `browserId`; returns the 303 of the code step. */
  async function signInOnScreens(browserId: string, subscriber: Subscriber) {
    const q = requestFor(client, { scope: "openid mc_authn", prompt: "login" });
    const res = await authorize(q, { browserId });
    expect(res.headers.get("set-cookie")).toBeNull(); // the browser already has a cookie: it is kept until sign-in
    const { row } = await expectInteraction(res);
    const csrf = csrfOf((await getInteraction(baseUrl, row.id, cookieOf(browserId))).html);
    expect((await post(row.id, "msisdn", browserId, csrf, { msisdn: subscriber.msisdn })).status).toBe(303);
    const message = await db.message.findFirst({ where: { msisdn: subscriber.msisdn }, orderBy: { createdAt: "desc" } });
    const signedIn = await post(row.id, "code", browserId, csrf, { code: /\b(\d{6})\b/.exec(message!.body)![1]! });
    expect(signedIn.status).toBe(303);
    return { id: row.id, state: q.state!, signedIn };
  }

  it("an attacker-chosen cookie value opens nothing after the victim signs in; the browser's new one does", async () => {
    const victim = await createTestSubscriber();
    await grant(victim, client, "openid mc_authn");
    const planted = randomToken(32); // chosen by the attacker and set in the victim's browser
    const { id, state, signedIn } = await signInOnScreens(planted, victim);

    const fresh = /=([A-Za-z0-9_-]{43});/.exec(signedIn.headers.get("set-cookie") ?? "")?.[1];
    expect(fresh, "Set-Cookie with a new browser id").toBeDefined();
    expect(fresh).not.toBe(planted);
    expect(signedIn.headers.get("set-cookie")).toMatch(/; HttpOnly; SameSite=Lax; Max-Age=\d+/);
    expect(signedIn.headers.get("location")).toBe(`${baseUrl}/authorize/resume/${id}`);

    // the attacker, replaying the planted value: no session, and the request is not theirs
    const attacker = requestFor(client, { prompt: "none", scope: "openid mc_authn" });
    expectErrorRedirect(await authorize(attacker, { browserId: planted }), client, attacker.state, "login_required");
    await expectErrorPage(await resume(id, planted));
    expect(await db.session.count({ where: { browserIdHash: sha256(planted) } })).toBe(0);

    // the victim's browser, with the cookie it was given, finishes the request and keeps single sign-on
    expect(expectCallback(await resume(id, fresh!), client, state).get("code")).toBeTruthy();
    const sso = requestFor(client, { prompt: "none", scope: "openid mc_authn" });
    expect(expectCallback(await authorize(sso, { browserId: fresh }), client, sso.state).get("code")).toBeTruthy();
  });

  it("the browser's other sessions move to the new cookie with it", async () => {
    const bob = await createTestSubscriber();
    await grant(bob, client, "openid mc_authn");
    const { browserId: before, session: bobSession } = await signedInBrowser(bob);
    const { signedIn } = await signInOnScreens(before, alice);
    const fresh = /=([A-Za-z0-9_-]{43});/.exec(signedIn.headers.get("set-cookie")!)![1]!;

    expect((await db.session.findUniqueOrThrow({ where: { id: bobSession.id } })).browserIdHash).toBe(sha256(fresh));
    expect(await db.session.count({ where: { browserIdHash: sha256(fresh), endedAt: null } })).toBe(2);
    const forBob = requestFor(client, { prompt: "none", scope: "openid mc_authn", login_hint: `MSISDN:${bob.msisdn}` });
    expect(expectCallback(await authorize(forBob, { browserId: fresh }), client, forBob.state).get("code")).toBeTruthy();
    const old = requestFor(client, { prompt: "none", scope: "openid mc_authn", login_hint: `MSISDN:${bob.msisdn}` });
    expectErrorRedirect(await authorize(old, { browserId: before }), client, old.state, "login_required");
  });
});
