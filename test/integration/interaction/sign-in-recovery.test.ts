import { beforeAll, describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db";
import { maskMsisdn } from "@/lib/messaging/mask-msisdn";
import { createTestClient, createTestSubscriber } from "@/test/support/fixtures";
import { flowPoster, latestCode } from "@/test/support/sign-in-http";
import { enrolledDevice } from "@/test/support/mobile-support";
import { beginAuthorization, getInteraction, type Flow } from "@/e2e/fixtures/interaction-http";
import { browserCookieName } from "@/lib/sessions/browser-cookie";
import { authorize, expectInteraction, requestFor, signedInBrowser } from "@/test/support/authorize-support";

/**
 * Issue 17, "a sign-in you can recover from", over HTTP: the refused number kept for one showing
 * (never in the URL), the masked number, expiry and resend time on the code screen (the same for a
 * known and an unknown number), tries left from the counters already stored, and "approve on your
 * phone" before any text message.
 */
const baseUrl = inject("baseUrl");
let client: Awaited<ReturnType<typeof createTestClient>>;

beforeAll(async () => {
  client = await createTestClient();
});

const post = flowPoster(baseUrl);
const location = (res: Response) => new URL(res.headers.get("location")!);
const errorOf = (res: Response) => location(res).searchParams.get("e");
const row = (id: string) => db.authorizationRequest.findUniqueOrThrow({ where: { id } });
/** The screen as the 303 left it. */
const screenAfter = async (f: Flow, res: Response) => (await getInteraction(baseUrl, f.id, f.cookie, location(res).search)).html;
/** The visible text of a page, for comparing two screens. */
const textOf = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

describe("the number step keeps what was typed", () => {
  it("a refused number comes back once in the field, escaped, marked invalid; never in the URL", async () => {
    const f = await beginAuthorization(baseUrl, client);
    const typed = `07700 "900"<b>12`;
    const res = await post(f, "msisdn", { msisdn: typed });
    expect(errorOf(res)).toBe("msisdn_invalid");
    expect(res.headers.get("location")).not.toContain("7700");
    expect(res.headers.get("set-cookie")).toBeNull();
    expect((await row(f.id)).typedMsisdn).toBe(typed);
    const html = await screenAfter(f, res);
    expect(html).toContain('value="07700 &quot;900&quot;&lt;b&gt;12"');
    expect(html).not.toContain("<b>12");
    expect(html).toMatch(/<input[^>]*aria-invalid="true"[^>]*>/);
    expect(html).toMatch(/<input[^>]*aria-describedby="form-error msisdn-help"[^>]*autofocus=""/);
    // Shown once: the row forgets it, a reload shows an empty field.
    expect((await row(f.id)).typedMsisdn).toBeNull();
    expect(await screenAfter(f, res)).not.toContain("900&quot;");
  });

  it("an old one is not shown; a code sent clears it", async () => {
    const f = await beginAuthorization(baseUrl, client);
    await post(f, "msisdn", { msisdn: "12" });
    await db.authorizationRequest.update({ where: { id: f.id }, data: { typedAt: new Date(Date.now() - 61_000) } });
    expect((await getInteraction(baseUrl, f.id, f.cookie, "?e=msisdn_invalid")).html).not.toContain('value="12"');
    await post(f, "msisdn", { msisdn: "12" });
    await post(f, "msisdn", { msisdn: "+447700900998" });
    expect(await row(f.id)).toMatchObject({ typedMsisdn: null, typedAt: null });
  });

  it("the help text gives an example of DEFAULT_COUNTRY in national and international form", async () => {
    const f = await beginAuthorization(baseUrl, client);
    expect(f.html).toContain("For example 07400 123456 or +44 7400 123456.");
    expect(f.html).not.toContain("with the country code,");
  });
});

describe("the code screen", () => {
  it("names the typed number masked, the expiry time and the resend time, the same for a known and an unknown number", async () => {
    const known = await createTestSubscriber();
    const texts: string[] = [];
    for (const msisdn of [known.msisdn, "447700900876"]) {
      const f = await beginAuthorization(baseUrl, client);
      const res = await post(f, "msisdn", { msisdn });
      expect(errorOf(res)).toBeNull();
      const r = await row(f.id);
      expect(r.sentTo).toBe(maskMsisdn(msisdn));
      const html = await screenAfter(f, res);
      expect(html).toContain(`We sent a 6-digit code by text message to ${maskMsisdn(msisdn)}.`);
      const time = new Intl.DateTimeFormat("en", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" });
      expect(html).toContain(`The code is valid until ${time.format(new Date(r.otpSentAt!.getTime() + 300_000))}.`);
      expect(html).toMatch(/<button[^>]*id="resend"[^>]*disabled=""[^>]*aria-describedby="resend-at"/);
      expect(html).toMatch(/id="resend-at"[^>]*>You can ask for a new code at \d\d:\d\d:\d\d/);
      texts.push(textOf(html).replace(maskMsisdn(msisdn), "NUMBER").replace(/\d\d:\d\d(:\d\d)? \w+/g, "TIME"));
    }
    expect(texts[0]).toBe(texts[1]);
  });

  it("offers Request a new code once the wait is over", async () => {
    const f = await beginAuthorization(baseUrl, client);
    await post(f, "msisdn", { msisdn: "447700900877" });
    await db.authorizationRequest.update({ where: { id: f.id }, data: { otpSentAt: new Date(Date.now() - 31_000) } });
    const html = (await getInteraction(baseUrl, f.id, f.cookie)).html;
    expect(html).toMatch(/<button[^>]*id="resend"/);
    expect(html).not.toMatch(/<button[^>]*id="resend"[^>]*disabled/);
    expect(html).not.toContain('id="resend-at"');
  });

  it("an expired code: no code form, the message linked to Request a new code, offered at once", async () => {
    const f = await beginAuthorization(baseUrl, client);
    await post(f, "msisdn", { msisdn: "447700900880" });
    await db.authorizationRequest.update({ where: { id: f.id }, data: { otpSentAt: new Date(Date.now() - 3_600_000) } });
    const html = (await getInteraction(baseUrl, f.id, f.cookie)).html;
    expect(html).toContain("This code has expired. Request a new code.");
    expect(html).not.toContain('name="code"');
    expect(html).not.toContain("The code is valid until");
    expect(html).toMatch(/<button[^>]*id="resend"[^>]*aria-describedby="form-error"/);
    expect(html).not.toMatch(/<button[^>]*id="resend"[^>]*disabled/);
  });
});

describe("tries left", () => {
  it("code tries from the request row, the wrong code's field marked and described", async () => {
    const s = await createTestSubscriber();
    const f = await beginAuthorization(baseUrl, client);
    await post(f, "msisdn", { msisdn: s.msisdn });
    const code = (await latestCode(s.msisdn))!;
    const wrong = code === "000000" ? "111111" : "000000";
    let res = await post(f, "code", { code: wrong });
    let html = await screenAfter(f, res);
    expect(html).toContain("2 tries left with this code.");
    expect(html).toMatch(/<input[^>]*id="code"[^>]*aria-invalid="true"[^>]*aria-describedby="form-error code-tries code-expiry"/);
    res = await post(f, "code", { code: wrong });
    expect(await screenAfter(f, res)).toContain("1 try left with this code.");
  });

  it("PIN tries from the lockout counter checkPin reserved (?left=), only after the right code", async () => {
    const s = await createTestSubscriber({ pin: "8642" });
    const f = await beginAuthorization(baseUrl, client, { acr_values: "3" });
    await post(f, "msisdn", { msisdn: s.msisdn });
    const code = (await latestCode(s.msisdn))!;
    for (const left of [4, 3]) {
      const res = await post(f, "code", { code, pin: "1357" });
      expect(location(res).searchParams.get("left")).toBe(String(left));
      expect((await db.subscriber.findUniqueOrThrow({ where: { id: s.id } })).failedPinAttempts).toBe(5 - left);
      const html = await screenAfter(f, res);
      expect(html).toContain(`${left} PIN tries left before sign-in is locked.`);
      expect(html).toMatch(/<input[^>]*id="pin"[^>]*aria-invalid="true"[^>]*autofocus=""[^>]*aria-describedby="form-error pin-help code-kept pin-tries"/);
    }
    // A wrong code says nothing of the PIN.
    const wrongCode = await post(f, "code", { code: code === "000000" ? "111111" : "000000", pin: "1357" });
    expect(errorOf(wrongCode)).toBe("code_invalid");
    expect(location(wrongCode).searchParams.get("left")).toBeNull();
    expect(await screenAfter(f, wrongCode)).not.toContain("PIN tries left");
  });

  it("a forged ?left= is shown only with pin_invalid and within the policy", async () => {
    const f = await beginAuthorization(baseUrl, client, { acr_values: "3" });
    await post(f, "msisdn", { msisdn: "447700900878" });
    for (const q of ["?e=code_invalid&left=2", "?e=pin_invalid&left=9", "?e=pin_invalid&left=0", "?e=pin_invalid&left=x"]) {
      expect((await getInteraction(baseUrl, f.id, f.cookie, q)).html).not.toContain("PIN tr");
    }
  });
});

describe("approve on your phone before any text message", () => {
  it("sends no text, shows the same waiting screen for a number with a phone and an unknown one; a code can follow", async () => {
    const s = await createTestSubscriber();
    await enrolledDevice(s);
    const texts: string[] = [];
    for (const msisdn of [s.msisdn, "447700900879"]) {
      const f = await beginAuthorization(baseUrl, client);
      const res = await post(f, "msisdn", { msisdn, via: "phone" });
      expect(errorOf(res)).toBeNull();
      const html = await screenAfter(f, res);
      expect(html).toContain('id="check-code"');
      texts.push(textOf(html).replace(/TestApp\w+/g, "APP").replace(/\b\d{2,}\b/g, "N"));
      expect(await db.message.count({ where: { msisdn } })).toBe(0);
      expect((await row(f.id)).otpSentAt!.getTime()).toBe(0);
      expect(await db.deviceRequest.count({ where: { authorizationRequestId: f.id } })).toBe(1);
      // An error on the waiting screen is linked to "Check now", which has the focus.
      const withError = (await getInteraction(baseUrl, f.id, f.cookie, "?e=phone_limited")).html;
      expect(withError).toMatch(/<a[^>]*id="phone-check"[^>]*aria-describedby="form-error"[^>]*autofocus=""/);
      // "Enter a code instead": no code form (none was sent), "Send me a code" sends one.
      const back = await post(f, "use-code");
      const codeScreen = await screenAfter(f, back);
      expect(codeScreen).toContain(`No code has been sent to ${maskMsisdn(msisdn)}.`);
      expect(codeScreen).not.toContain('name="code"');
      expect(codeScreen).toContain("Send me a code");
      await post(f, "resend");
      if (msisdn === s.msisdn) {
        const code = (await latestCode(s.msisdn))!;
        expect((await post(f, "code", { code })).headers.get("location")).toBe(`${baseUrl}/authorize/resume/${f.id}`);
      } else {
        expect(await db.message.count({ where: { msisdn } })).toBe(0);
      }
    }
    expect(texts[0]).toBe(texts[1]);
  });

  it("a refused number is refused before anything goes to a phone", async () => {
    const f = await beginAuthorization(baseUrl, client);
    const res = await post(f, "msisdn", { msisdn: "0770O", via: "phone" });
    expect(errorOf(res)).toBe("msisdn_invalid");
    expect(await db.deviceRequest.count({ where: { authorizationRequestId: f.id } })).toBe(0);
  });
});

describe("the account choice", () => {
  it("an error is linked to the choices and the first has the focus", async () => {
    const [a, b] = [await createTestSubscriber(), await createTestSubscriber()];
    const { browserId } = await signedInBrowser(a);
    await signedInBrowser(b, { browserId });
    const { row } = await expectInteraction(await authorize(requestFor(client, { prompt: "select_account" }), { browserId }));
    const cookie = `${browserCookieName()}=${browserId}`;
    const plain = (await getInteraction(baseUrl, row.id, cookie)).html;
    expect(plain).toContain('value="new"');
    expect(plain).not.toContain('role="alert"');
    const html = (await getInteraction(baseUrl, row.id, cookie, "?e=session_unusable")).html;
    expect(html).toContain("Please sign in again with this number.");
    const buttons = [...html.matchAll(/<button[^>]*name="session"[^>]*>/g)].map((m) => m[0]);
    expect(buttons.length).toBe(3);
    expect(buttons.every((tag) => tag.includes('aria-describedby="form-error"'))).toBe(true);
    expect(buttons[0]).toContain('autofocus=""');
    expect(buttons.slice(1).some((tag) => tag.includes("autofocus"))).toBe(false);
  });
});
