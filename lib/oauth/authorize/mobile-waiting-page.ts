import { escapeHtml, htmlDocument, PAGE_HEADERS } from "../../http/html";
import { issuerBase } from "../../http/issuer-base";

/**
 * The consumption device's page while a `prompt=mobile` request waits for the handset: the check
 * code the subscriber types on the phone (number matching), the app and the expiry. No form and no
 * script: it reloads itself at once into /authorize/wait/{id}, which holds the response (up to 50 s)
 * while the browser keeps showing this page, and comes back here when nothing happened. This is the
 * one screen `prompt=mobile` shows, a deliberate deviation from the interface's "show no UI": without
 * it there is nothing to match the handset's request against (docs/interface.md, "Deviations from the standards").
 */
export function mobileWaitingPage({ requestId, checkCode, clientName, expiresAt }: {
  requestId: string; checkCode: string; clientName: string; expiresAt: Date;
}): Response {
  const wait = `${issuerBase()}/authorize/wait/${requestId}`;
  const until = expiresAt.toISOString().slice(11, 16);
  const body = htmlDocument({ title: "Approve on your phone",
    head: `<meta http-equiv="refresh" content="0;url=${escapeHtml(wait)}">`
      + "<style>body{font-family:sans-serif;max-width:30rem;margin:1rem auto;padding:0 1rem}</style>",
    body: `<main>
<h1 style="font-size:1.25rem">Approve on your phone</h1>
<p>${escapeHtml(clientName)} asks you to approve this sign-in on your phone.</p>
<p>On your phone, type this number:</p>
<p id="check-code" style="font-size:2.5rem;font-weight:bold;letter-spacing:.2em;margin:.5rem 0">${escapeHtml(checkCode)}</p>
<p role="status">Waiting for your answer. This request expires at ${until} UTC.</p>
<p style="color:#444">Did not start this? Do not approve anything on your phone.</p>
</main>` });
  return new Response(body, { status: 200, headers: PAGE_HEADERS });
}
