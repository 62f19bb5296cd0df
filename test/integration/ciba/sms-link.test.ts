import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { SMS_CODE_ATTEMPTS, SMS_LINK_PATH } from "@/lib/ciba/sms-link";
import { createTestSubscriber } from "../../support/fixtures";
import { baseUrl } from "../../support/authorize-support";
import { createCibaClient } from "../../support/ciba-support";
import { pendingBackchannelRequest } from "../../support/ciba-rows";

/**
 * The text-message fallback of CIBA for a subscriber with no enrolled handset (lib/ciba/answer-by-link.ts):
 * GET /handset/approve/<token> asks the code (never answers), POST …/code checks it (tries reserved first, at most
 * SMS_CODE_ATTEMPTS), the right code sets a proof cookie and the page shows the approval card, POST …/answer settles
 * the request (amr otp sms [+ pin], as the code flow). Rows are written directly, not through /bc-authorize.
 */

async function setup(opts: { acr?: "2" | "3"; bindingMessage?: string } = {}) {
  const client = await createCibaClient();
  const subscriber = await createTestSubscriber();
  const request = await pendingBackchannelRequest({ client, subscriber, channel: "sms", acr: opts.acr,
    bindingMessage: opts.bindingMessage ?? "PARCEL-22", scope: "openid profile" });
  const link = request.link!;
  return { client, subscriber, request, page: `${baseUrl}${SMS_LINK_PATH}/${link.token}`, code: link.code };
}

function post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(url, { method: "POST", redirect: "manual", body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, ...headers } });
}

const wrong = (code: string) => (code === "000000" ? "111111" : "000000");
const backchannel = (id: string) => db.backchannelRequest.findUniqueOrThrow({ where: { id } });

/** Follows the 303 back to the page, with the proof cookie if one is set (or the one given). */
async function follow(res: Response, cookie = "", lang = "en") {
  expect(res.status).toBe(303);
  const set = res.headers.getSetCookie().find((c) => c.startsWith("op_ciba_link="));
  const jar = set ? set.split(";")[0]! : cookie;
  const location = res.headers.get("location")!;
  const html = await (await fetch(location, { headers: { ...(jar ? { cookie: jar } : {}), "accept-language": lang } })).text();
  return { location, html, cookie: set && set.startsWith("op_ciba_link=;") ? "" : jar, set };
}

describe("the text-message link", () => {
  it("asks the code; a wrong code tells the tries left; the right one shows the card; approve settles it", async () => {
    const { client, request, page, code } = await setup();
    const first = await (await fetch(page)).text();
    expect(first).toContain("Enter the 6-digit code");
    expect(first).not.toContain("PARCEL-22");

    const bad = await follow(await post(`${page}/code`, { code: wrong(code) }));
    expect(bad.location).toContain("error=code_invalid");
    expect(bad.html).toContain("That code is not right.");
    expect(bad.html).toContain(`${SMS_CODE_ATTEMPTS - 1} tries left.`);
    expect(bad.set).toBeUndefined();

    const right = await follow(await post(`${page}/code`, { code }));
    expect(right.set).toMatch(/HttpOnly/);
    expect(right.set).toMatch(/SameSite=Strict/);
    expect(right.set).toContain(`Path=${SMS_LINK_PATH}/`);
    expect(right.html).toContain(client.name);
    expect(right.html).toContain("PARCEL-22");
    expect(right.html).toContain("Check this matches what you were told");
    expect(right.html).not.toContain('name="pin"');
    expect((await backchannel(request.id)).status).toBe("pending");

    const done = await follow(await post(`${page}/answer`, { decision: "approve" }, { cookie: right.cookie }), right.cookie);
    expect(done.set).toMatch(/Max-Age=0/);
    expect(done.html).toContain("Approved. The application has been told.");
    const row = await backchannel(request.id);
    expect(row).toMatchObject({ status: "approved", acr: "2", amr: "otp sms", codeAttempts: 2 });
    expect(row.authTime).toBeInstanceOf(Date);
    const again = await follow(await post(`${page}/answer`, { decision: "reject" }, { cookie: right.cookie }));
    expect(again.html).toContain("Approved.");
    expect((await backchannel(request.id)).status).toBe("approved");
  });

  it("at level 3 asks the PIN after the code: wrong PIN keeps it pending, right PIN approves with otp sms pin", async () => {
    const { request, page, code } = await setup({ acr: "3" });
    const right = await follow(await post(`${page}/code`, { code }));
    expect(right.html).toContain('name="pin"');
    const badPin = await follow(await post(`${page}/answer`, { decision: "approve", pin: "0000" }, { cookie: right.cookie }),
      right.cookie);
    expect(badPin.location).toContain("error=pin_invalid");
    expect(badPin.html).toContain("Wrong PIN.");
    expect((await backchannel(request.id)).status).toBe("pending");
    await follow(await post(`${page}/answer`, { decision: "approve", pin: "2468" }, { cookie: right.cookie }), right.cookie);
    expect(await backchannel(request.id)).toMatchObject({ status: "approved", acr: "3", amr: "otp sms pin" });
  });

  it("at level 3 with the PIN locked: the page says so and the request stays pending", async () => {
    const { subscriber, request, page, code } = await setup({ acr: "3" });
    const right = await follow(await post(`${page}/code`, { code }));
    await db.subscriber.update({ where: { id: subscriber.id }, data: { lockedUntil: new Date(Date.now() + 600_000) } });
    const locked = await follow(await post(`${page}/answer`, { decision: "approve", pin: "2468" }, { cookie: right.cookie }),
      right.cookie);
    expect(locked.location).toContain("error=locked");
    expect(locked.html).toContain("Your PIN is locked for now.");
    expect((await backchannel(request.id)).status).toBe("pending");
  });

  it("reject after the code: denied; in French", async () => {
    const { request, page, code } = await setup();
    const right = await follow(await post(`${page}/code`, { code }), "", "fr");
    expect(right.html).toContain("Vérifiez que ceci correspond");
    const done = await follow(await post(`${page}/answer`, { decision: "reject" }, { cookie: right.cookie }), right.cookie, "fr");
    expect(done.html).toContain("Refusée.");
    expect(await backchannel(request.id)).toMatchObject({ status: "denied", amr: null });
  });

  it("tries exhausted: no tries left, even for the right code, and the request stays unanswered", async () => {
    const { request, page, code } = await setup();
    const results = await Promise.all(Array.from({ length: SMS_CODE_ATTEMPTS + 5 }, () =>
      post(`${page}/code`, { code: wrong(code) })));
    expect(results.every((r) => r.status === 303)).toBe(true);
    expect((await backchannel(request.id)).codeAttempts).toBe(SMS_CODE_ATTEMPTS);
    const last = await follow(await post(`${page}/code`, { code }));
    expect(last.set).toBeUndefined();
    expect(last.html).toContain("Too many wrong codes");
    expect((await backchannel(request.id)).status).toBe("pending");
  });

  it("the answer without the proof of the code is refused (asks the code again)", async () => {
    const { request, page } = await setup();
    const forged = `op_ciba_link=${Math.floor(Date.now() / 1000) + 300}.${"A".repeat(43)}`;
    const res = await follow(await post(`${page}/answer`, { decision: "approve" }, { cookie: forged }));
    expect(res.location).toContain("error=code_again");
    expect(res.html).toContain("Enter the code from the text message again.");
    expect((await backchannel(request.id)).status).toBe("pending");
  });

  it("a GET never answers: opening the link, even with the proof and decision in the query, changes nothing", async () => {
    const { request, page, code } = await setup();
    const right = await follow(await post(`${page}/code`, { code }));
    for (const path of ["", "?decision=approve", "/answer?decision=approve", "/code?code=" + code]) {
      const res = await fetch(`${page}${path}`, { redirect: "manual", headers: { cookie: right.cookie } });
      expect(res.status).not.toBe(500);
    }
    expect(await backchannel(request.id)).toMatchObject({ status: "pending", codeAttempts: 1 });
  });

  it("a cross-site POST is refused: no try spent, no cookie, no answer", async () => {
    const { request, page, code } = await setup();
    const res = await post(`${page}/code`, { code }, { origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toContain("error=bad_request");
    expect(res.headers.getSetCookie()).toHaveLength(0);
    const right = await follow(await post(`${page}/code`, { code }));
    const answer = await post(`${page}/answer`, { decision: "approve" },
      { cookie: right.cookie, origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect(answer.headers.get("location")).toContain("error=bad_request");
    expect(await backchannel(request.id)).toMatchObject({ status: "pending", codeAttempts: 1 });
  });

  it("expired, unknown link and a request already answered on another channel: a clear page, never a 500", async () => {
    const { request, page, code } = await setup();
    await db.backchannelRequest.update({ where: { id: request.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await fetch(page);
    expect(expired.status).toBe(200);
    expect(await expired.text()).toContain("This request has expired.");
    expect((await follow(await post(`${page}/code`, { code }))).html).toContain("This request has expired.");

    const unknown = await fetch(`${baseUrl}${SMS_LINK_PATH}/${"x".repeat(32)}`);
    expect(unknown.status).toBe(200);
    expect(await unknown.text()).toContain("This link is not valid.");
    const junk = await post(`${baseUrl}${SMS_LINK_PATH}/%3Cscript%3E/code`, { code: "123456" });
    expect(junk.status).toBe(303);

    const other = await setup();
    await db.backchannelRequest.update({ where: { id: other.request.id }, data: { status: "denied" } });
    expect(await (await fetch(other.page)).text()).toContain("Rejected.");
  });

  it("malformed posts (wrong content type, huge or odd bodies, bad tokens) end on a page, never a 5xx", async () => {
    const { request, page } = await setup();
    const bodies: [string, string][] = [["text/plain", "code=123456"], ["application/x-www-form-urlencoded", "x".repeat(10_000)],
      ["application/x-www-form-urlencoded", "code=%ZZ&decision=%00"], ["application/x-www-form-urlencoded", "decision=maybe"],
      ["application/x-www-form-urlencoded", "code[]=1&code=2"], ["multipart/form-data; boundary=x", "--x--"]];
    for (const target of [`${page}/code`, `${page}/answer`, `${baseUrl}${SMS_LINK_PATH}/${"%E2%80%AE".repeat(4)}/answer`]) {
      for (const [type, body] of bodies) {
        const res = await fetch(target, { method: "POST", redirect: "manual", body,
          headers: { "content-type": type, origin: baseUrl } });
        expect(res.status, `${target} ${type}`).toBeLessThan(500);
      }
    }
    expect((await backchannel(request.id)).status).toBe("pending");
  });
});
