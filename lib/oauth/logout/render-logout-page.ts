import { escapeHtml, htmlDocument } from "../../http/html";
import { randomToken } from "../../crypto";
import { cspSourceList } from "../../http/csp-sources";
import { hstsHeaders } from "../../http/security-headers";

const STYLE = `body{font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;margin:0}
main{max-width:28rem;margin:3rem auto;padding:1.5rem;background:#fff;border-radius:.5rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.4rem;margin-top:0}button{font:inherit;padding:.5rem 1rem;margin-right:.5rem;border-radius:.375rem;
border:1px solid #334155;background:#fff;cursor:pointer}button.primary{background:#0f172a;color:#fff}
.rp-frames iframe{width:0;height:0;border:0;position:absolute;visibility:hidden}`;

/** A complete, script-free HTML page; framing is refused (anti-clickjacking, RFC 9700 §4.16). */
export function htmlPage({ title, body, status = 200, csp = STATIC_CSP, setCookie }: {
  title: string; body: string; status?: number; csp?: string; setCookie?: string;
}): Response {
  const html = htmlDocument({ title, head: `<style>${STYLE}</style>`, body: `<main><h1>${escapeHtml(title)}</h1>${body}</main>` });
  return new Response(html, {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Frame-Options": "DENY",
      "Content-Security-Policy": csp,
      "Referrer-Policy": "no-referrer",
      "X-Content-Type-Options": "nosniff",
      ...hstsHeaders(),
      ...(setCookie ? { "Set-Cookie": setCookie } : {}),
    },
  });
}

const STATIC_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

/**
 * Front-Channel Logout 1.0 §2: the "signed out" page renders one hidden iframe per relying party
 * registered with a `frontchannel_logout_uri` (with `iss` and `sid` when it requires them). Its CSP
 * allows exactly those origins in `frame-src` (the plain ones: lib/http/csp-sources.ts), and one script
 * (this response's nonce) that goes on to the `post_logout_redirect_uri` once every iframe has loaded
 * (or after 5 s); without JavaScript the "Continue" link does.
 */
export function frontChannelLogoutPage({ frames, next, setCookie }: {
  frames: ReadonlyArray<{ url: string; origin: string }>; next?: string; setCookie?: string;
}): Response {
  const nonce = randomToken(16);
  const origins = cspSourceList(frames.map((f) => f.origin));
  const iframes = frames.map((f) =>
    `<iframe class="rp-logout" src="${escapeHtml(f.url)}" title="Signing out of an application" tabindex="-1"></iframe>`).join("");
  const go = next
    ? `<p><a id="logout-continue" href="${escapeHtml(next)}">Continue</a></p><script nonce="${nonce}">(function(){`
      + `var f=document.querySelectorAll("iframe.rp-logout"),n=f.length,done=false;function go(){if(done)return;done=true;`
      + `location.replace(document.getElementById("logout-continue").href);}`
      + `for(var i=0;i<f.length;i++)f[i].addEventListener("load",function(){if(--n<=0)go();});setTimeout(go,5000);})();</script>`
    : "";
  return htmlPage({
    title: "Signed out", setCookie,
    csp: `default-src 'none'; style-src 'unsafe-inline'; frame-src ${origins}; script-src 'nonce-${nonce}'; `
      + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    body: `<p id="logout-done">You have been signed out. You can close this window.</p>${go}`
      + `<div class="rp-frames" aria-hidden="true">${iframes}</div>`,
  });
}

/** The confirmation form: a plain POST (works without JavaScript) carrying the request and the CSRF token. */
export function confirmLogoutPage({ action, fields }: {
  action: string; fields: Record<string, string | undefined>;
}): Response {
  const hidden = Object.entries(fields)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join("");
  return htmlPage({
    title: "Sign out",
    body: `<p>Do you want to sign out of your operator account on this device?</p>
<form method="post" action="${escapeHtml(action)}" id="logout-form">${hidden}
<button type="submit" name="decision" value="logout" id="logout-confirm" class="primary">Sign out</button>
<button type="submit" name="decision" value="stay" id="logout-cancel">Stay signed in</button></form>`,
  });
}

/** The page shown when there is nowhere to send the browser back to. */
export function loggedOutPage({ signedOut, setCookie }: { signedOut: boolean; setCookie?: string }): Response {
  return signedOut
    ? htmlPage({ title: "Signed out", setCookie, body: "<p id=\"logout-done\">You have been signed out. You can close this window.</p>" })
    : htmlPage({ title: "Still signed in", body: "<p id=\"logout-cancelled\">You are still signed in.</p>" });
}

/** The error page: a logout request is never redirected to an unverified address. */
export function logoutErrorPage({ description, status = 400 }: { description: string; status?: number }): Response {
  return htmlPage({ title: "Sign-out request not accepted", status,
    body: `<p id="logout-error">${escapeHtml(description)}</p>` });
}
