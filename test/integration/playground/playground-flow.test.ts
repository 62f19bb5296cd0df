import { describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db";
import { createTestSubscriber } from "../../support/fixtures";

/**
 * next-auth as a real relying party: the whole playground flow over HTTP, as a browser without
 * JavaScript does it (cookie jar, redirects by hand, our sign-in screens answered like a person). The
 * callback lands on the same origin, so this drives it itself rather than test/support/browserless.ts.
 */
const baseUrl = inject("baseUrl");

class Browser {
  private jar = new Map<string, string>();

  private absorb(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(";");
      const i = pair!.indexOf("=");
      const name = pair!.slice(0, i).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired) this.jar.delete(name);
      else this.jar.set(name, pair!.slice(i + 1).trim());
    }
  }

  async request(url: string, init: { form?: Record<string, string> | Array<[string, string]> } = {}): Promise<Response> {
    const headers: Record<string, string> = { cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ") };
    if (init.form) Object.assign(headers, { "content-type": "application/x-www-form-urlencoded", origin: baseUrl });
    const res = await fetch(url, {
      method: init.form ? "POST" : "GET", redirect: "manual", headers, body: init.form && new URLSearchParams(init.form),
    });
    this.absorb(res);
    return res;
  }

  /** Posts a form and follows redirects, answering the sign-in and consent screens; returns the final page. */
  async submit(url: string, form: Record<string, string> | Array<[string, string]>, person: { msisdn: string; pin: string }) {
    let res = await this.request(url, { form });
    for (let hop = 0; hop < 25; hop++) {
      if (res.status >= 300 && res.status < 400) {
        url = new URL(res.headers.get("location")!, url).toString();
        res = await this.request(url);
        continue;
      }
      const html = await res.text();
      const step = /action="[^"]*\/interaction\/([^/"]+)\/(msisdn|code|consent)"/.exec(html);
      // React separates text parts with <!-- -->; drop them so the page reads as shown.
      if (!step) return { url: new URL(url), status: res.status, html: html.replace(/<!-- -->/g, "") };
      const fields: Record<string, string> = { csrf_token: /name="csrf_token" value="([^"]+)"/.exec(html)![1]! };
      if (step[2] === "msisdn") fields.msisdn = person.msisdn;
      if (step[2] === "code") {
        const message = await db.message.findFirst({ where: { msisdn: person.msisdn }, orderBy: { createdAt: "desc" } });
        fields.code = /\b(\d{6})\b/.exec(message?.body ?? "")![1]!;
        if (/name="pin"/.test(html)) fields.pin = person.pin;
      }
      if (step[2] === "consent") fields.decision = "allow";
      url = `${baseUrl}/interaction/${step[1]}/${step[2]}`;
      res = await this.request(url, { form: fields });
    }
    throw new Error("too many redirects");
  }
}

/** Whether a page contains a text (or matches a pattern), with a short failure message rather than the page. */
function shows(page: { html: string }, what: string | RegExp, expected = true) {
  const found = typeof what === "string" ? page.html.includes(what) : what.test(page.html);
  expect(found, `page ${expected ? "shows" : "does not show"} ${String(what)}`).toBe(expected);
}

describe("the playground's next-auth relying party against this service", () => {
  it("signs in at level 3 with the phone number scope, refreshes, revokes and logs out", async () => {
    const person = await createTestSubscriber({ pin: "2580" });
    const browser = new Browser();
    const signedIn = await browser.submit(`${baseUrl}/playground/start`, [
      ["scope", "mc_identity_phonenumber"], ["scope", "offline_access"], ["acr_values", "3"],
      ["login_hint_type", "MSISDN"], ["login_hint_value", person.msisdn],
    ], person);
    expect(signedIn.url.pathname).toBe("/playground");
    shows(signedIn, "id_token (signature verified)");
    shows(signedIn, `&quot;acr&quot;: &quot;3&quot;`);
    shows(signedIn, person.msisdn);
    shows(signedIn, "Token response (authorization_code)");
    shows(signedIn, /Premium info.*HTTP 200/s);

    const refreshed = await browser.submit(`${baseUrl}/playground/refresh`, {}, person);
    expect(refreshed.url.pathname).toBe("/playground");
    shows(refreshed, "Token response (refresh_token)");
    shows(refreshed, "Refresh failed", false);
    shows(refreshed, person.msisdn);

    const revoked = await browser.submit(`${baseUrl}/playground/revoke`, { token: "access_token" }, person);
    shows(revoked, /Premium info.*HTTP 401/s);

    const loggedOut = await browser.submit(`${baseUrl}/playground/logout`, {}, person);
    expect(loggedOut.url.pathname).toBe("/playground");
    shows(loggedOut, "Not signed in to the playground.");
  });
});
