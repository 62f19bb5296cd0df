import { db } from "@/lib/db";
import { withSetCookies } from "@/e2e/fixtures/interaction-http";

/**
 * A subscriber's browser without JavaScript, driven over HTTP: follows redirects by hand, keeps the
 * cookie up to date from every Set-Cookie (redirects and form posts), and answers the sign-in and
 * consent screens the way a person would (the one-time code is read from the device inbox, i.e. the
 * Message table). Returns the final redirect to the client and the cookie the browser ends with.
 */
export async function signInAndConsent({ authorizationUrl, msisdn, pin, cookie = "", decision = "allow" }: {
  authorizationUrl: string; msisdn: string; pin?: string; cookie?: string; decision?: "allow" | "deny";
}): Promise<{ callbackUrl: URL; cookie: string }> {
  const origin = new URL(authorizationUrl).origin;
  let url = authorizationUrl;
  for (let hop = 0; hop < 20; hop++) {
    if (!url.startsWith(origin)) return { callbackUrl: new URL(url), cookie };
    const res = await fetch(url, { redirect: "manual", headers: cookie ? { cookie } : {} });
    cookie = withSetCookies(cookie, res);
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get("location")!, url).toString();
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`unexpected ${res.status} at ${url}: ${html.slice(0, 200)}`);
    const step = /action="[^"]*\/interaction\/[^/"]+\/(msisdn|code|consent)"/.exec(html)?.[1];
    const id = /\/interaction\/([^/?"]+)/.exec(url)?.[1];
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
    if (!step || !id || !csrf) throw new Error(`no known form at ${url}`);
    const fields: Record<string, string> = { csrf_token: csrf };
    if (step === "msisdn") fields.msisdn = msisdn;
    if (step === "code") {
      const message = await db.message.findFirst({ where: { msisdn }, orderBy: { createdAt: "desc" } });
      fields.code = /\b(\d{6})\b/.exec(message?.body ?? "")?.[1] ?? "";
      if (/name="pin"/.test(html)) fields.pin = pin ?? "";
    }
    if (step === "consent") fields.decision = decision;
    const post = await fetch(`${origin}/interaction/${id}/${step}`, {
      method: "POST", redirect: "manual", body: new URLSearchParams(fields),
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin },
    });
    if (post.status !== 303) throw new Error(`${step} answered ${post.status}`);
    // A sign-in renews the browser cookie (session fixation defence); a browser keeps the new one.
    cookie = withSetCookies(cookie, post);
    url = new URL(post.headers.get("location")!, origin).toString();
  }
  throw new Error("too many redirects");
}
