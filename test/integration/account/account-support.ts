import { expect } from "vitest";
import { db } from "@/lib/db";
import { baseUrl } from "../../support/authorize-support";

/** A browser without JavaScript for the account page: a cookie jar, redirects followed by hand. */
export class AccountBrowser {
  readonly cookies = new Map<string, string>();
  /** Every Set-Cookie line received, in order (to check the cookies' attributes). */
  readonly setCookies: string[] = [];

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  keep(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      this.setCookies.push(line);
      const [pair] = line.split(";");
      const [name, ...value] = pair!.split("=");
      if (/max-age=0/i.test(line)) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value.join("="));
    }
  }

  async get(url: string): Promise<Response> {
    const res = await fetch(new URL(url, baseUrl), { redirect: "manual", headers: { cookie: this.cookieHeader() } });
    this.keep(res);
    return res;
  }

  async post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    const res = await fetch(new URL(path, baseUrl), {
      method: "POST", redirect: "manual", body: new URLSearchParams(fields),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, cookie: this.cookieHeader(), ...headers },
    });
    this.keep(res);
    return res;
  }

  /** Follows redirects from `url` (GET) until a page answers; returns its URL and text. */
  async follow(url: string): Promise<{ url: string; status: number; html: string }> {
    for (let hop = 0; hop < 20; hop++) {
      const res = await this.get(url);
      if (res.status >= 300 && res.status < 400) {
        url = new URL(res.headers.get("location")!, url.startsWith("http") ? url : baseUrl).toString();
        continue;
      }
      return { url, status: res.status, html: await res.text() };
    }
    throw new Error("too many redirects");
  }
}

/**
 * Signs `subscriber` in to /account the way a person without script would: the sign-in screens of
 * /authorize (number, code from the device inbox, PIN when asked), then back to the account page.
 */
export async function signInToAccount(subscriber: { msisdn: string; pin: string }, opts: { query?: string } = {}) {
  const browser = new AccountBrowser();
  let page = await browser.follow(`${baseUrl}/account${opts.query ?? ""}`);
  for (let step = 0; step < 4 && /\/interaction\//.test(page.url); step++) {
    const name = /action="[^"]*\/interaction\/[^/"]+\/(msisdn|code)"/.exec(page.html)?.[1];
    const id = /\/interaction\/([^/?"]+)/.exec(page.url)![1]!;
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.html)![1]!;
    const fields: Record<string, string> = { csrf_token: csrf };
    if (name === "msisdn") fields.msisdn = subscriber.msisdn;
    else if (name === "code") {
      const message = await db.message.findFirst({ where: { msisdn: subscriber.msisdn }, orderBy: { createdAt: "desc" } });
      fields.code = /\b(\d{6})\b/.exec(message?.body ?? "")![1]!;
      if (/name="pin"/.test(page.html)) fields.pin = subscriber.pin;
    } else throw new Error(`no known form at ${page.url}`);
    const res = await browser.post(`/interaction/${id}/${name}`, fields);
    expect(res.status).toBe(303);
    page = await browser.follow(res.headers.get("location")!);
  }
  expect(new URL(page.url).pathname).toBe("/account");
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.html)?.[1];
  return { browser, page, csrf: csrf! };
}

/** Reads the account page again with the browser's cookies. */
export async function accountPage(browser: AccountBrowser, query = "") {
  return browser.follow(`${baseUrl}/account${query}`);
}
