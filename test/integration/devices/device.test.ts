import { describe, expect, it } from "vitest";
import { decodeJwt } from "jose";
import { db } from "@/lib/db";
import { sha256 } from "@/lib/crypto";
import { browserCookieName } from "@/lib/sessions/browser-cookie";
import { createTestClient, createTestSubscriber } from "../../support/fixtures";
import { redeemCode } from "../../support/codes";
import {
  authorize, baseUrl, expectCallback, expectErrorPage, expectErrorRedirect, requestFor, type Client, type Subscriber,
} from "../../support/authorize-support";
import { authorizeMobile, enrolledDevice, pendingOnHandset } from "../../support/mobile-support";

/**
 * Out-of-band authorization (issue 5): the handset enrols with a code from the device inbox, then
 * answers `prompt=mobile` requests: /authorize shows the check code at once and the browser waits
 * at /authorize/wait/{id} until the answer (issue 15: number matching).
 */

function mobileRequest(client: Client, subscriber: Subscriber, overrides: Record<string, string | undefined> = {}) {
  return requestFor(client, { prompt: "mobile", login_hint: `MSISDN:${subscriber.msisdn}`, ...overrides });
}

function post(path: string, fields: Record<string, string>, cookie = "") {
  return fetch(`${baseUrl}${path}`, {
    method: "POST", redirect: "manual", body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, ...(cookie ? { cookie } : {}) },
  });
}

function answer(id: string, cookie: string, decision: "approve" | "reject", pin?: string, check?: string) {
  return post(`/handset/requests/${id}`,
    { decision, ...(pin !== undefined ? { pin } : {}), ...(check !== undefined ? { check } : {}) }, cookie);
}

/** A plain prompt=mobile request shown on a fresh subscriber's enrolled handset, the browser held on it. */
async function waitingOnHandset() {
  const client = await createTestClient();
  const s = await createTestSubscriber();
  const cookie = await enrolledDevice(s);
  const q = mobileRequest(client, s);
  const { pending, checkCode } = await authorizeMobile(q);
  return { client, s, cookie, q, pending, checkCode, request: await pendingOnHandset(s) };
}

function resultOf(res: Response) {
  expect(res.status).toBe(303);
  return new URL(res.headers.get("location")!).searchParams.get("result");
}

describe("handset enrolment", () => {
  it("registers a phone with the code sent to the number, then shows its (empty) request list", async () => {
    const s = await createTestSubscriber();
    const start = await post("/handset/enrol/start", { msisdn: `+${s.msisdn}` });
    expect(start.status).toBe(303);
    const enrolCookie = start.headers.get("set-cookie")!.split(";")[0]!;
    expect(enrolCookie).toMatch(/^op_device_enrol=[A-Za-z0-9_-]{22}$/);
    const message = await db.message.findFirst({ where: { msisdn: s.msisdn }, orderBy: { createdAt: "desc" } });
    const code = /\b(\d{6})\b/.exec(message!.body)![1]!;

    const wrong = await post("/handset/enrol/confirm", { code: code === "000000" ? "111111" : "000000" }, enrolCookie);
    expect(wrong.headers.get("location")).toContain("error=code_invalid");
    const ok = await post("/handset/enrol/confirm", { code, name: "Alice's phone" }, enrolCookie);
    expect(ok.headers.get("location")).toBe(`${baseUrl}/handset?result=enrolled`);
    const setCookie = ok.headers.getSetCookie().find((c) => c.startsWith("op_device="))!;
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    const deviceCookie = setCookie.split(";")[0]!;
    const device = await db.device.findUniqueOrThrow({ where: { secretHash: sha256(deviceCookie.slice("op_device=".length)) } });
    expect(device).toMatchObject({ subscriberId: s.id, name: "Alice's phone", revokedAt: null });

    const again = await post("/handset/enrol/confirm", { code }, enrolCookie);
    expect(again.headers.get("location")).toContain("error=code_expired");
    const page = await fetch(`${baseUrl}/handset`, { headers: { cookie: deviceCookie } });
    expect(await page.text()).toContain("No requests waiting.");
    const stranger = await fetch(`${baseUrl}/handset`);
    expect(await stranger.text()).toContain("not registered");
  });

  it("sends nothing to an unknown number and accepts no code for it", async () => {
    const msisdn = `4479${String(Date.now()).slice(-8)}`;
    const start = await post("/handset/enrol/start", { msisdn });
    expect(start.status).toBe(303);
    expect(await db.message.count({ where: { msisdn } })).toBe(0);
    const bad = await post("/handset/enrol/start", { msisdn: "12" });
    expect(bad.headers.get("location")).toContain("error=msisdn_invalid");
  });
});

describe("prompt=mobile errors", () => {
  it("needs a hint naming the subscriber (invalid_request)", async () => {
    const client = await createTestClient();
    const q = requestFor(client, { prompt: "mobile" });
    const description = expectErrorRedirect(await authorize(q), client, q.state, "invalid_request");
    expect(description).toContain("prompt=mobile requires login_hint");
  });

  it("looks the same for a subscriber with a handset, without one, an unknown or a suspended one; all end in access_denied on expiry", async () => {
    const client = await createTestClient();
    const plain = await createTestSubscriber();
    const suspended = await createTestSubscriber({ status: "suspended" });
    await enrolledDevice(suspended);
    const enrolled = await createTestSubscriber();
    await enrolledDevice(enrolled);
    const shapes = new Set<string>();
    for (const msisdn of [enrolled.msisdn, plain.msisdn, suspended.msisdn, "447999000111"]) {
      const q = requestFor(client, { prompt: "mobile", login_hint: `MSISDN:${msisdn}` });
      const { pending, checkCode, waitUrl, first, html } = await authorizeMobile(q);
      const id = waitUrl.split("/").pop()!;
      shapes.add(`${first.status} ${[...first.headers.keys()].sort().join(",")} ${html.replace(id, "ID")
        .replace(`>${checkCode}<`, ">NN<").replace(/\d\d:\d\d UTC/, "HH:MM UTC")}`);
      expect(checkCode).toMatch(/^\d{2}$/);
      const row = await db.deviceRequest.findUniqueOrThrow({ where: { authorizationRequestId: id } });
      expect(row.subscriberId).toBe(msisdn === enrolled.msisdn ? enrolled.id : null);
      const past = new Date(Date.now() - 1000);
      await db.deviceRequest.update({ where: { id: row.id }, data: { expiresAt: past } });
      await db.authorizationRequest.update({ where: { id }, data: { expiresAt: past } });
      const description = expectErrorRedirect(await pending, client, q.state, "access_denied");
      expect(description).toContain("expired");
    }
    expect(shapes.size).toBe(1);
  });

  it("refuses prompt=mobile with none", async () => {
    const client = await createTestClient();
    const q = requestFor(client, { prompt: "none mobile" });
    expectErrorRedirect(await authorize(q), client, q.state, "invalid_request");
  });
});

describe("prompt=mobile answered on the handset", () => {
  it("level 2 mc_authz: the handset shows the request; approval ends /authorize with a redeemable code", async () => {
    const client = await createTestClient({ name: "PayShop" });
    const s = await createTestSubscriber();
    const cookie = await enrolledDevice(s);
    const q = mobileRequest(client, s, { scope: "openid mc_authz", context: "Pay 12.00 GBP to PayShop",
      binding_message: "BLUE-42", client_name: client.name });
    const { pending, checkCode } = await authorizeMobile(q);
    const request = await pendingOnHandset(s);
    const page = await (await fetch(`${baseUrl}/handset`, { headers: { cookie } })).text();
    expect(page).toContain("PayShop");
    expect(page).toContain("Pay 12.00 GBP to PayShop");
    expect(page).toContain("BLUE-42");
    expect(page).not.toContain('name="pin"');
    expect(page).not.toContain(`>${checkCode}<`);

    expect(resultOf(await answer(request.id, cookie, "approve", undefined, checkCode))).toBe("approved");
    const res = await pending;
    const code = expectCallback(res, client, q.state).get("code")!;
    const tokens = await redeemCode(baseUrl, client, code);
    expect(tokens.status).toBe(200);
    const claims = decodeJwt(((await tokens.json()) as { id_token: string }).id_token);
    expect(claims).toMatchObject({ acr: "2", amr: ["mca"], context: "Pay 12.00 GBP to PayShop", binding_message: "BLUE-42",
      nonce: q.nonce });
    // mc_authz consent is for this transaction only
    expect(await db.grant.count({ where: { subscriberId: s.id, clientId: client.id } })).toBe(0);
  });

  it("level 3 needs the right PIN on the handset; amr records mca and pin", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber({ pin: "8642" });
    const cookie = await enrolledDevice(s);
    const q = mobileRequest(client, s, { acr_values: "3" });
    const { pending, checkCode } = await authorizeMobile(q);
    const request = await pendingOnHandset(s);
    expect(await (await fetch(`${baseUrl}/handset`, { headers: { cookie } })).text()).toContain('name="pin"');
    expect(resultOf(await answer(request.id, cookie, "approve", "8642"))).toBe("check_missing");
    expect(resultOf(await answer(request.id, cookie, "approve", undefined, checkCode))).toBe("pin_missing");
    expect(resultOf(await answer(request.id, cookie, "approve", "0000", checkCode))).toBe("pin_invalid");
    expect((await db.subscriber.findUniqueOrThrow({ where: { id: s.id } })).failedPinAttempts).toBe(1);
    expect(resultOf(await answer(request.id, cookie, "approve", "8642", checkCode))).toBe("approved");
    const code = expectCallback(await pending, client, q.state).get("code")!;
    const tokens = (await (await redeemCode(baseUrl, client, code)).json()) as { id_token: string };
    expect(decodeJwt(tokens.id_token)).toMatchObject({ acr: "3", amr: ["mca", "pin"] });
  });

  it("rejection on the handset is access_denied", async () => {
    const { client, s, cookie, q, pending, checkCode, request } = await waitingOnHandset();
    expect(resultOf(await answer(request.id, cookie, "reject"))).toBe("rejected");
    expectErrorRedirect(await pending, client, q.state, "access_denied");
    expect(resultOf(await answer(request.id, cookie, "approve", undefined, checkCode))).toBe("gone");
  });

  it("expiry before an answer is access_denied, and the handset can no longer approve", async () => {
    const { client, s, cookie, q, pending, checkCode, request } = await waitingOnHandset();
    const past = new Date(Date.now() - 1000);
    await db.deviceRequest.update({ where: { id: request.id }, data: { expiresAt: past } });
    await db.authorizationRequest.update({ where: { id: request.authorizationRequestId! }, data: { expiresAt: past } });
    const description = expectErrorRedirect(await pending, client, q.state, "access_denied");
    expect(description).toContain("expired");
    expect((await db.deviceRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe("expired");
    expect(resultOf(await answer(request.id, cookie, "approve", undefined, checkCode))).toBe("gone");
  });

  it("two answers at once: exactly one wins", async () => {
    const { client, s, cookie, q, pending, checkCode, request } = await waitingOnHandset();
    const results = await Promise.all([
      answer(request.id, cookie, "approve", undefined, checkCode), answer(request.id, cookie, "approve", undefined, checkCode),
      answer(request.id, cookie, "reject"),
    ].map(async (r) => resultOf(await r)));
    expect(results.filter((r) => r !== "gone")).toHaveLength(1);
    expect(results.filter((r) => r === "gone")).toHaveLength(2);
    const res = await pending;
    const params = expectCallback(res, client, q.state);
    expect(params.has("code") || params.get("error") === "access_denied").toBe(true);
    expect(await db.session.count({ where: { subscriberId: s.id } })).toBe(results.includes("approved") ? 1 : 0);
  });

  it("another subscriber's handset cannot answer the request", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber();
    await enrolledDevice(s);
    const other = await enrolledDevice(await createTestSubscriber());
    const { pending, checkCode } = await authorizeMobile(mobileRequest(client, s));
    const request = await pendingOnHandset(s);
    expect(resultOf(await answer(request.id, other, "approve", undefined, checkCode))).toBe("gone");
    expect((await db.deviceRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe("pending");
    await db.deviceRequest.update({ where: { id: request.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    await pending;
  });

  it("the waiting browser continues at /authorize/wait/{id}, bound to its cookie", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber();
    const cookie = await enrolledDevice(s);
    const controller = new AbortController();
    const q = mobileRequest(client, s);
    const { pending, checkCode, waitUrl, browserId } = await authorizeMobile(q, { signal: controller.signal });
    const request = await pendingOnHandset(s);
    controller.abort();
    await pending.catch(() => null);
    // The server has seen the closed connection (its hold ended, leaving the short reload grace) before the browser
    // reloads: on a loaded machine the old hold could otherwise still be running and take the answer itself.
    for (let i = 0; i < 100; i++) {
      const row = await db.deviceRequest.findUniqueOrThrow({ where: { id: request.id } });
      if (row.attendedUntil && row.attendedUntil.getTime() < Date.now() + 5_000) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const id = request.authorizationRequestId;
    expect(waitUrl).toBe(`${baseUrl}/authorize/wait/${id}`);
    await expectErrorPage(await fetch(`${baseUrl}/authorize/wait/${id}`, { redirect: "manual" }));
    // A reload comes back within the grace the closed connection leaves.
    const again = fetch(waitUrl, { redirect: "manual", headers: { cookie: `${browserCookieName()}=${browserId}` } });
    expect(resultOf(await answer(request.id, cookie, "approve", undefined, checkCode))).toBe("approved");
    expect(expectCallback(await again, client, q.state).get("code")).toBeTruthy();
    const replay = await fetch(`${baseUrl}/authorize/wait/${id}`, {
      redirect: "manual", headers: { cookie: `${browserCookieName()}=${browserId}` },
    });
    expect(await expectErrorPage(replay)).toContain("already been completed");
  });

  it("pushes the pending request ids to the handset over Server-Sent Events", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber();
    const cookie = await enrolledDevice(s);
    expect((await fetch(`${baseUrl}/handset/events`)).status).toBe(401);
    const { pending } = await authorizeMobile(mobileRequest(client, s));
    const request = await pendingOnHandset(s);
    const controller = new AbortController();
    const res = await fetch(`${baseUrl}/handset/events`, { headers: { cookie }, signal: controller.signal });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reader = res.body!.getReader();
    let text = "";
    while (!text.includes("event: requests")) text += new TextDecoder().decode((await reader.read()).value);
    while (!text.endsWith("\n\n")) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain(`data: {"ids":["${request.id}"]}`);
    controller.abort();
    await answer(request.id, cookie, "reject");
    await pending;
  });
});
