import { randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeJwt } from "jose";
import { db } from "@/lib/db";
import { randomToken } from "@/lib/crypto";
import { browserCookieName } from "@/lib/sessions/browser-cookie";
import { createTestClient, createTestSubscriber } from "../../support/fixtures";
import { redeemCode } from "../../support/codes";
import { cookieAfter } from "@/e2e/fixtures/interaction-http";
import { authorize, baseUrl, expectCallback, expectErrorRedirect, requestFor, type Client, type Subscriber } from "../../support/authorize-support";
import { enrolledDevice } from "../../support/mobile-support";

/**
 * "Approve on your phone" (issue 5): the ordinary browser sign-in offers the enrolled handset as an
 * alternative to the one-time code. Driven over HTTP as a browser without JavaScript would.
 */

/** A laptop browser: its cookie, and the screens it walks through. */
class Laptop {
  cookie = `${browserCookieName()}=${randomToken(32)}`;
  /** Each laptop its own address, so the per-IP code-sending limit (lib/security) is not shared by every test. */
  readonly ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  id = "";

  get(path: string) {
    return fetch(path.startsWith("http") ? path : `${baseUrl}${path}`, {
      redirect: "manual", headers: { cookie: this.cookie, "x-forwarded-for": this.ip },
    });
  }

  async page(path = `/interaction/${this.id}`) {
    const res = await this.get(path);
    expect(res.status).toBe(200);
    return res.text();
  }

  async post(step: string, fields: Record<string, string> = {}, headers: Record<string, string> = { origin: baseUrl }) {
    const html = await this.page();
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const res = await fetch(`${baseUrl}/interaction/${this.id}/${step}`, {
      method: "POST", redirect: "manual", body: new URLSearchParams({ csrf_token: csrf, ...fields }),
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: this.cookie, "x-forwarded-for": this.ip, ...headers },
    });
    this.cookie = cookieAfter(res, this.cookie); // a sign-in renews the browser cookie
    return res;
  }

  /** /authorize with a hint, then "Continue" on the number step: the code screen. */
  async toCodeScreen(client: Client, s: Subscriber, extra: Record<string, string> = {}) {
    const q = requestFor(client, { login_hint: `MSISDN:${s.msisdn}`, ...extra });
    const res = await authorize(q, { headers: { cookie: this.cookie, "x-forwarded-for": this.ip } });
    expect(res.status).toBe(302);
    this.id = /\/interaction\/([A-Za-z0-9_-]{22})$/.exec(res.headers.get("location")!)![1]!;
    expect((await this.post("msisdn")).status).toBe(303);
    return q;
  }

  /** Follows redirects from `path`, allowing consent, until the client's redirect URI. */
  async finish(path: string) {
    let url = path;
    for (let hop = 0; hop < 10; hop++) {
      const res = await this.get(url);
      if (res.status === 200 && /\/consent"/.test(await res.clone().text())) {
        const post = await this.post("consent", { decision: "allow" });
        url = post.headers.get("location")!;
        continue;
      }
      const location = res.headers.get("location");
      if (!location || !location.startsWith(baseUrl)) return res;
      url = location;
    }
    throw new Error("too many redirects");
  }
}

async function pendingOnHandset(authorizationRequestId: string) {
  return db.deviceRequest.findUniqueOrThrow({ where: { authorizationRequestId } });
}

/** A fresh subscriber's laptop on the code screen that chose "approve on your phone": the request on the phone. */
async function waitingOnPhone() {
  const client = await createTestClient();
  const s = await createTestSubscriber();
  const phone = await enrolledDevice(s);
  const laptop = new Laptop();
  const q = await laptop.toCodeScreen(client, s);
  await laptop.post("phone");
  return { client, s, phone, laptop, q, request: await pendingOnHandset(laptop.id) };
}

function answer(id: string, cookie: string, decision: "approve" | "reject", pin?: string, check?: string) {
  return fetch(`${baseUrl}/handset/requests/${id}`, {
    method: "POST", redirect: "manual",
    body: new URLSearchParams({ decision, ...(pin ? { pin } : {}), ...(check ? { check } : {}) }),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, cookie },
  });
}

/** The check code the waiting screen shows (number matching: the subscriber types it on the phone). */
const checkCodeOn = (html: string) => /id="check-code"[^>]*>(\d+)</.exec(html)![1]!;

const result = (res: Response) => new URL(res.headers.get("location")!).searchParams.get("result");

describe("approve on your phone instead of the one-time code", () => {
  it("is offered on the code screen in every display, in English and French, for every number alike", async () => {
    const client = await createTestClient();
    const withPhone = await createTestSubscriber();
    await enrolledDevice(withPhone);
    const without = await createTestSubscriber();
    for (const display of ["page", "popup", "touch", "wap"]) {
      const laptop = new Laptop();
      await laptop.toCodeScreen(client, withPhone, { display });
      const html = await laptop.page();
      expect(html).toContain("Approve on your phone instead");
      expect(html).toContain(`action="/interaction/${laptop.id}/phone"`);
    }
    const fr = new Laptop();
    await fr.toCodeScreen(client, withPhone, { ui_locales: "fr-FR" });
    expect(await fr.page()).toContain("Approuver plutôt sur votre téléphone");
    // Without a handset: the same offer and the same waiting screen (nothing tells who has a handset);
    // the request is stored but no handset lists it.
    const shapes = new Set<string>();
    for (const s of [withPhone, without]) {
      const laptop = new Laptop();
      await laptop.toCodeScreen(client, s);
      expect(await laptop.page()).toContain("Approve on your phone instead");
      expect((await laptop.post("phone")).headers.get("location")).toBe(`${baseUrl}/interaction/${laptop.id}`);
      const waiting = await laptop.page();
      const csrf = /name="csrf_token" value="([^"]+)"/.exec(waiting)![1]!;
      // What the browser renders (the markup without scripts), with this request's own values masked.
      const nonce = /nonce="([^"]+)"/.exec(waiting)?.[1] ?? "-";
      const rendered = waiting.replace(/<script[\s\S]*?<\/script>/g, "").replaceAll(laptop.id, "ID").replaceAll(csrf, "CSRF")
        .replaceAll(nonce, "NONCE").replace(/id="check-code"([^>]*)>\d+</, "NN");
      expect(rendered).toContain("NN");
      shapes.add(rendered);
      const row = await pendingOnHandset(laptop.id);
      expect(row.subscriberId).toBe(s === withPhone ? s.id : null);
    }
    expect(shapes.size).toBe(1);
  });

  it("level 2: the same binding message on both screens; approval signs in with amr mca, then consent and a code", async () => {
    const client = await createTestClient({ name: "PhoneShop" });
    const s = await createTestSubscriber();
    const phone = await enrolledDevice(s);
    const laptop = new Laptop();
    const q = await laptop.toCodeScreen(client, s, { client_name: client.name });
    const chosen = await laptop.post("phone");
    expect(chosen.status).toBe(303);
    expect(chosen.headers.get("location")).toBe(`${baseUrl}/interaction/${laptop.id}`);
    const request = await pendingOnHandset(laptop.id);
    expect(request).toMatchObject({ status: "pending", subscriberId: s.id, clientName: "PhoneShop", acr: "2",
      bindingMessage: null });
    expect(request.checkCode).toMatch(/^\d{2}$/);
    expect(request.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 300_000);
    // a double submit keeps the one request
    await laptop.post("phone");
    expect((await pendingOnHandset(laptop.id)).id).toBe(request.id);

    const waiting = await laptop.page();
    expect(waiting).toContain("Approve on your phone");
    const checkCode = checkCodeOn(waiting);
    expect(checkCode).toBe(request.checkCode);
    // issue 17: no timed refresh; "Check now" (and the script) hold GET /interaction/{id}/phone
    expect(waiting).not.toMatch(/http-equiv="refresh"/i);
    expect(waiting).toMatch(new RegExp(`href="/interaction/${laptop.id}/phone"[^>]*>Check now<`));
    const handset = await (await fetch(`${baseUrl}/handset`, { headers: { cookie: phone } })).text();
    expect(handset).toContain("PhoneShop");
    expect(handset).toContain('name="check"');
    expect(handset).not.toContain(`>${checkCode}<`);

    // the waiting screen's refresh holds until the handset answers, then moves on
    const check = laptop.get(`/interaction/${laptop.id}/phone`);
    await new Promise((r) => setTimeout(r, 300));
    expect(result(await answer(request.id, phone, "approve"))).toBe("check_missing");
    expect(result(await answer(request.id, phone, "approve", undefined, checkCode))).toBe("approved");
    const moved = await check;
    expect(moved.status).toBe(303);
    expect(moved.headers.get("location")).toBe(`${baseUrl}/authorize/resume/${laptop.id}`);
    const row = await db.authorizationRequest.findUniqueOrThrow({ where: { id: laptop.id } });
    expect(row).toMatchObject({ status: "authenticated", subscriberId: s.id, otpHash: null });

    const callback = await laptop.finish(moved.headers.get("location")!);
    const code = expectCallback(callback, client, q.state).get("code")!;
    const tokens = await redeemCode(baseUrl, client, code);
    expect(tokens.status).toBe(200);
    const claims = decodeJwt(((await tokens.json()) as { id_token: string }).id_token);
    expect(claims).toMatchObject({ acr: "2", amr: ["mca"], nonce: q.nonce });
    // the finished request cannot be checked again
    expect((await laptop.get(`/interaction/${laptop.id}/phone`)).status).toBe(410);
  });

  it("level 3 only with the PIN entered on the phone; amr mca + pin", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber({ pin: "9753" });
    const phone = await enrolledDevice(s);
    const laptop = new Laptop();
    const q = await laptop.toCodeScreen(client, s, { acr_values: "3" });
    await laptop.post("phone");
    const waiting = await laptop.page();
    expect(waiting).toContain("Your phone will ask for your PIN.");
    const checkCode = checkCodeOn(waiting);
    const request = await pendingOnHandset(laptop.id);
    expect(request.acr).toBe("3");
    expect(result(await answer(request.id, phone, "approve", undefined, checkCode))).toBe("pin_missing");
    expect(result(await answer(request.id, phone, "approve", "1111", checkCode))).toBe("pin_invalid");
    expect((await db.authorizationRequest.findUniqueOrThrow({ where: { id: laptop.id } })).status).toBe("pending");
    expect(result(await answer(request.id, phone, "approve", "9753", checkCode))).toBe("approved");
    const callback = await laptop.finish(`/interaction/${laptop.id}/phone`);
    const code = expectCallback(callback, client, q.state).get("code")!;
    const claims = decodeJwt(((await (await redeemCode(baseUrl, client, code)).json()) as { id_token: string }).id_token);
    expect(claims).toMatchObject({ acr: "3", amr: ["mca", "pin"] });
  });

  it("mc_authz: the relying party's binding message is the one shown on both devices", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber();
    const phone = await enrolledDevice(s);
    const laptop = new Laptop();
    await laptop.toCodeScreen(client, s, { scope: "openid mc_authz", context: "Pay 9.99 EUR", binding_message: "OWL-55",
      client_name: client.name });
    await laptop.post("phone");
    expect(await laptop.page()).toContain("OWL-55");
    const request = await pendingOnHandset(laptop.id);
    expect(request).toMatchObject({ bindingMessage: "OWL-55", context: "Pay 9.99 EUR" });
    const handset = await (await fetch(`${baseUrl}/handset`, { headers: { cookie: phone } })).text();
    expect(handset).toContain("OWL-55");
    expect(handset).toContain("Pay 9.99 EUR");
    expect(result(await answer(request.id, phone, "reject"))).toBe("rejected");
  });

  it("rejection on the phone ends with access_denied to the relying party (state, iss)", async () => {
    const { client, s, phone, laptop, q, request } = await waitingOnPhone();
    expect(result(await answer(request.id, phone, "reject"))).toBe("rejected");
    const callback = await laptop.finish(`/interaction/${laptop.id}/phone`);
    expectErrorRedirect(callback, client, q.state, "access_denied");
    expect(await db.session.count({ where: { subscriberId: s.id } })).toBe(0);
  });

  it("expiry on the phone returns to the code screen with a message; the code still works", async () => {
    const { client, s, phone, laptop, q, request } = await waitingOnPhone();
    await db.deviceRequest.update({ where: { id: request.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const back = await laptop.get(`/interaction/${laptop.id}/phone`);
    expect(back.headers.get("location")).toBe(`${baseUrl}/interaction/${laptop.id}?e=phone_expired`);
    const html = await laptop.page(`/interaction/${laptop.id}?e=phone_expired`);
    expect(html).toContain("The request on your phone expired before it was answered");
    expect(html).toContain('name="code"');
    expect(html).toContain("Approve on your phone instead");
    expect((await db.deviceRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe("expired");
    expect(result(await answer(request.id, phone, "approve", undefined, request.checkCode))).toBe("gone");
    // asking again sends a fresh request
    await laptop.post("phone");
    const again = await pendingOnHandset(laptop.id);
    expect(again.id).not.toBe(request.id);
    // "Enter a code instead" withdraws it; the texted code signs in
    expect((await laptop.post("use-code")).headers.get("location")).toBe(`${baseUrl}/interaction/${laptop.id}`);
    expect((await db.deviceRequest.findUniqueOrThrow({ where: { id: again.id } })).status).toBe("expired");
    const message = await db.message.findFirst({ where: { msisdn: s.msisdn }, orderBy: { createdAt: "desc" } });
    const code = /\b(\d{6})\b/.exec(message!.body)![1]!;
    const signedIn = await laptop.post("code", { code });
    expect(signedIn.headers.get("location")).toBe(`${baseUrl}/authorize/resume/${laptop.id}`);
    expectCallback(await laptop.finish(signedIn.headers.get("location")!), client, q.state);
  });

  it("a phone approval after the code was typed changes nothing", async () => {
    const { client, s, phone, laptop, request } = await waitingOnPhone();
    const message = await db.message.findFirst({ where: { msisdn: s.msisdn }, orderBy: { createdAt: "desc" } });
    // the waiting screen no longer has the code form; a stale one still posts (the code screen's CSRF token is per request)
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(await laptop.page())![1]!;
    const typed = await fetch(`${baseUrl}/interaction/${laptop.id}/code`, {
      method: "POST", redirect: "manual", body: new URLSearchParams({ csrf_token: csrf, code: /\b(\d{6})\b/.exec(message!.body)![1]! }),
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: laptop.cookie, origin: baseUrl },
    });
    expect(typed.headers.get("location")).toBe(`${baseUrl}/authorize/resume/${laptop.id}`);
    expect(result(await answer(request.id, phone, "approve", undefined, request.checkCode))).toBe("gone");
    expect((await db.deviceRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe("expired");
    expect(await db.session.count({ where: { subscriberId: s.id } })).toBe(1);
  });

  it("refuses a cross-site or token-less choice, and another browser's check", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber();
    await enrolledDevice(s);
    const laptop = new Laptop();
    await laptop.toCodeScreen(client, s);
    expect((await laptop.post("phone", {}, { origin: "https://evil.example" })).status).toBe(403);
    const noToken = await fetch(`${baseUrl}/interaction/${laptop.id}/phone`, {
      method: "POST", redirect: "manual", body: "",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: laptop.cookie, origin: baseUrl },
    });
    expect(noToken.status).toBe(403);
    expect(await db.deviceRequest.count({ where: { authorizationRequestId: laptop.id } })).toBe(0);
    await laptop.post("phone");
    const stranger = await fetch(`${baseUrl}/interaction/${laptop.id}/phone`, { redirect: "manual" });
    expect(stranger.status).toBe(403);
    expect(stranger.headers.get("location")).toBeNull();
    await laptop.post("cancel");
    expect((await pendingOnHandset(laptop.id)).status).toBe("expired");
  });
});
