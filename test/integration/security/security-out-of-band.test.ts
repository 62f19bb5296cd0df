import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { sha256 } from "@/lib/crypto";
import { pseudonymiseSubscriber } from "@/lib/audit/pseudonymise-subscriber";
import { browserCookieName } from "@/lib/sessions/browser-cookie";
import { basic } from "../../support/codes";
import {
  authorize, baseUrl, createTestClient, createTestSubscriber, expectCallback, expectErrorRedirect, requestFor,
  signedInBrowser,
} from "../../support/authorize-support";
import { authorizeMobile, enrolledDevice } from "../../support/mobile-support";

/**
 * Issue 15, section 1: out-of-band approval must not be a weapon. Over HTTP on the shared server
 * (limits lifted there; security-out-of-band-limits.test.ts runs the real ones).
 */

async function pendingFor(authorizationRequestId: string) {
  return db.deviceRequest.findUniqueOrThrow({ where: { authorizationRequestId } });
}

const idOf = (waitUrl: string) => waitUrl.split("/").pop()!;

function answer(id: string, cookie: string, fields: Record<string, string>) {
  return fetch(`${baseUrl}/handset/requests/${id}`, {
    method: "POST", redirect: "manual", body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, cookie },
  });
}
const resultOf = (res: Response) => new URL(res.headers.get("location")!).searchParams.get("result");
const handsetPage = async (cookie: string) => (await fetch(`${baseUrl}/handset`, { headers: { cookie } })).text();
const otherDigits = (code: string) => String(((Number(code) - 10 + 1) % 90) + 10);

describe("push bombing: one tap is never enough (number matching)", () => {
  it("the handset approves only with the number shown on the consumption device; a wrong one ends the request", async () => {
    const client = await createTestClient({ name: "RealBank" });
    const victim = await createTestSubscriber();
    const phone = await enrolledDevice(victim);
    // The attacker knows only the public client_id, its redirect URI and the victim's number.
    const q = requestFor(client, { prompt: "mobile", login_hint: `MSISDN:${victim.msisdn}` });
    const attack = await authorizeMobile(q);
    const request = await pendingFor(idOf(attack.waitUrl));
    // The check code is on the attacker's screen only, never on the handset.
    expect(await handsetPage(phone)).not.toContain(`>${attack.checkCode}<`);
    expect(resultOf(await answer(request.id, phone, { decision: "approve" }))).toBe("check_missing");
    expect((await pendingFor(idOf(attack.waitUrl))).status).toBe("pending");
    // A tired subscriber types something: unless it is the attacker's number, the request is over.
    expect(resultOf(await answer(request.id, phone, { decision: "approve", check: otherDigits(attack.checkCode) })))
      .toBe("mismatch");
    const description = expectErrorRedirect(await attack.pending, client, q.state, "access_denied");
    expect(description).toContain("check code");
    expect(resultOf(await answer(request.id, phone, { decision: "approve", check: attack.checkCode }))).toBe("gone");
    expect(await db.session.count({ where: { subscriberId: victim.id } })).toBe(0);
    const events = await db.auditEvent.findMany({
      where: { subscriberRef: pseudonymiseSubscriber(victim.id), type: { in: ["approval_requested", "approval_answered"] } },
      orderBy: { at: "asc" },
    });
    expect(events.map((e) => `${e.type}:${e.outcome}`)).toEqual(["approval_requested:success", "approval_answered:denied"]);
    expect(JSON.parse(events[1]!.detail!)).toMatchObject({ reason: "number_mismatch" });
    expect(JSON.stringify(events)).not.toContain(attack.checkCode.length > 1 ? `"check":"${attack.checkCode}"` : "-");
  });

  it("every request created is audited with the client, the requester's address and the coarse origin", async () => {
    const client = await createTestClient();
    const unknown = `4479${String(Date.now()).slice(-8)}`;
    const before = await db.auditEvent.count({ where: { type: "approval_requested", clientId: client.id } });
    await authorizeMobile(requestFor(client, { prompt: "mobile", login_hint: `MSISDN:${unknown}` }),
      { headers: { "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36" } });
    const rows = await db.auditEvent.findMany({ where: { type: "approval_requested", clientId: client.id } });
    expect(rows.length - before).toBe(1);
    expect(rows[0]).toMatchObject({ outcome: "success", ip: "127.0.0.1", subscriberRef: null });
    expect(JSON.parse(rows[0]!.detail!)).toMatchObject({ flow: "prompt_mobile", delivered: false,
      origin: "network 127.0.0.x · Chrome on Windows" });
    expect(rows[0]!.detail).not.toContain(unknown);
  });
});

describe("what the handset shows", () => {
  it("the app, what it asks, where and when it came from, when it expires; unauthenticated text marked unverified", async () => {
    const client = await createTestClient({ name: "PayShop" });
    const s = await createTestSubscriber();
    const phone = await enrolledDevice(s);
    const text = { scope: "openid mc_authz", context: "Tap Approve to BLOCK a suspicious payment", binding_message: "URGENT-1",
      client_name: client.name };
    const unsigned = await authorizeMobile(requestFor(client, { prompt: "mobile", login_hint: `MSISDN:${s.msisdn}`, ...text }),
      { headers: { "user-agent": "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/130.0 Mobile Safari/537.36" } });
    const page = await handsetPage(phone);
    const card = page.slice(page.indexOf("data-request-id"), page.indexOf("</form>"));
    expect(card).toContain("PayShop");
    expect(card).toContain("asks to sign you in and to:");
    expect(card).toContain("network 127.0.0.x · Chrome on Android");
    const row = await pendingFor(idOf(unsigned.waitUrl));
    expect(card).toContain(`dateTime="${row.createdAt.toISOString()}"`);
    expect(card).toContain(`dateTime="${row.expiresAt.toISOString()}"`);
    expect(card).toContain("Unverified text sent with this request");
    expect(card).toContain("Tap Approve to BLOCK a suspicious payment");
    expect(row.textVerified).toBe(false);

    // The same text from the client itself (Authentication header): its own words, not marked.
    const signed = await authorizeMobile(requestFor(client, { prompt: "mobile", login_hint: `MSISDN:${s.msisdn}`, ...text,
      context: "Pay 12.00 GBP to PayShop" }), { headers: { authentication: basic(client.id, client.secret!) } });
    const signedRow = await pendingFor(idOf(signed.waitUrl));
    expect(signedRow.textVerified).toBe(true);
    const page2 = await handsetPage(phone);
    const newest = page2.slice(page2.indexOf("data-request-id"), page2.indexOf("</form>"));
    expect(newest).toContain(`data-request-id="${signedRow.id}"`);
    expect(newest).toContain("Pay 12.00 GBP to PayShop");
    expect(newest).not.toContain("Unverified");
  });

  it("lists the newest request first, so a flood cannot push the genuine one out of sight", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber();
    const phone = await enrolledDevice(s);
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      const m = await authorizeMobile(requestFor(client, { prompt: "mobile", login_hint: `MSISDN:${s.msisdn}` }));
      ids.push((await pendingFor(idOf(m.waitUrl))).id);
    }
    const page = await handsetPage(phone);
    const shown = [...page.matchAll(/data-request-id="([^"]+)"/g)].map((m) => m[1]);
    expect(shown[0]).toBe(ids.at(-1));
    expect(shown).toEqual([...ids].reverse());
  });
});

describe("stale requests", () => {
  it("a request whose browser went away is neither listed nor approvable", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber();
    const phone = await enrolledDevice(s);
    const controller = new AbortController();
    const m = await authorizeMobile(requestFor(client, { prompt: "mobile", login_hint: `MSISDN:${s.msisdn}` }),
      { signal: controller.signal });
    const request = await pendingFor(idOf(m.waitUrl));
    await new Promise((r) => setTimeout(r, 300));
    expect(await handsetPage(phone)).toContain(request.id);
    controller.abort(); // the tab is closed
    await m.pending.catch(() => null);
    await new Promise((r) => setTimeout(r, 3_500)); // past the reload grace
    expect(await handsetPage(phone)).not.toContain(request.id);
    expect(resultOf(await answer(request.id, phone, { decision: "approve", check: m.checkCode }))).toBe("gone");
    expect((await pendingFor(idOf(m.waitUrl))).status).toBe("pending");
  });
});

describe("login CSRF through prompt=mobile", () => {
  it("a handset approval completes that one authorization and plants no reusable browser session", async () => {
    const client = await createTestClient();
    const other = await createTestClient();
    const attacker = await createTestSubscriber();
    const attackerPhone = await enrolledDevice(attacker);
    // A cross-site page sends the victim's browser to /authorize?prompt=mobile&login_hint=<attacker>.
    const q = requestFor(client, { prompt: "mobile", login_hint: `MSISDN:${attacker.msisdn}` });
    const victim = await authorizeMobile(q);
    const request = await pendingFor(idOf(victim.waitUrl));
    // Even were the attacker to learn the number on the victim's screen:
    expect(resultOf(await answer(request.id, attackerPhone, { decision: "approve", check: victim.checkCode }))).toBe("approved");
    expect(expectCallback(await victim.pending, client, q.state).get("code")).toBeTruthy();
    // ... the victim's browser holds no session: another app's silent sign-in is not the attacker's.
    const silent = requestFor(other, { prompt: "none" });
    expectErrorRedirect(await authorize(silent, { browserId: victim.browserId }), other, silent.state, "login_required");
    const live = await db.session.findMany({ where: { subscriberId: attacker.id } });
    expect(live).toHaveLength(1);
    expect(live[0]!.browserIdHash).not.toBe(sha256(victim.browserId));
  });

  it("a browser holding sessions of two subscribers is asked which account; prompt=none answers account_selection_required", async () => {
    const client = await createTestClient();
    const [a, b] = [await createTestSubscriber(), await createTestSubscriber()];
    const { browserId } = await signedInBrowser(a);
    await signedInBrowser(b, { browserId });
    const q = requestFor(client);
    const res = await authorize(q, { browserId });
    expect(res.status).toBe(302);
    const interaction = res.headers.get("location")!;
    expect(interaction).toMatch(/\/interaction\/[A-Za-z0-9_-]{22}$/);
    const screen = await (await fetch(interaction, { headers: { cookie: `${browserCookieName()}=${browserId}` } })).text();
    expect(screen).toContain(`/select"`);
    const silent = requestFor(client, { prompt: "none" });
    expectErrorRedirect(await authorize(silent, { browserId }), client, silent.state, "account_selection_required");
  });
});
