import type { Metadata } from "next";
import { headers } from "next/headers";
import { findDevice } from "@/lib/devices/find-device";
import { listDeviceRequests } from "@/lib/out-of-band/list-device-requests";
import { loadOrUnavailable } from "@/lib/http/unavailable-screen";
import { getMessages } from "@/lib/i18n/get-messages";
import { describeConsent } from "@/lib/interaction/describe-consent";
import { servicePath } from "@/lib/interaction/screen-headers";
import { maskMsisdn } from "@/lib/messaging/mask-msisdn";
import { parseScope } from "@/lib/oauth/scopes";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Approvals", referrer: "no-referrer", robots: { index: false, follow: false } };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const RESULTS: Record<string, string> = {
  enrolled: "This phone is now registered for approvals.",
  approved: "Approved. You can return to the other device.",
  rejected: "Rejected. The application has been told.",
  gone: "This request was already answered, has expired, or the screen that asked for it was closed.",
  check_missing: "Type the number shown on the screen where you are signing in, then approve.",
  mismatch: "The number did not match, so the request was cancelled. If it was you, start again on the other screen.",
  pin_missing: "Enter your PIN to approve this request.",
  pin_invalid: "Wrong PIN. Try again.",
  locked: "Your PIN is locked for now. Try again later.",
  bad_request: "That did not work. Try again.",
  removed: "This phone was removed. It no longer receives requests; register it again to approve on it.",
};

// Reloads the page when the set of pending requests changes (SSE from /handset/events); stops once a
// form is submitted, so the reload cannot cancel the answer's own navigation (and its result message).
/** Times on the handset: hours and minutes in UTC (the server does not know the phone's time zone). */
const clock = (d: Date) => `${d.toISOString().slice(11, 16)} UTC`;
const minutesLeft = (d: Date) => {
  const m = Math.max(0, Math.ceil((d.getTime() - Date.now()) / 60_000));
  return m <= 1 ? "in less than a minute" : `in ${m} minutes`;
};

const js = (value: string) => JSON.stringify(value).replace(/</g, "\\u003c");
const live = (events: string, page: string) => `(function(){var ids=document.querySelector("main").dataset.ids||"";
var es=new EventSource(${js(events)});es.addEventListener("requests",function(e){
var n=JSON.parse(e.data).ids.join(",");if(n!==ids){ids=n;location.replace(${js(page)});}});
document.addEventListener("submit",function(){es.close();});})();`;

/**
 * GET /device: the authorization device (the subscriber's handset). Lists the pending requests of
 * the enrolled subscriber, newest first: the app, what it asks for in plain language, where and when
 * the request came from and when it expires, and the client's context and binding message (marked
 * unverified unless the client authenticated); Approve needs the number shown on the consumption
 * device (number matching) and, at level 3, the PIN; Reject. Live via Server-Sent Events; without script it
 * refreshes itself every 5 s. "Remove this phone" revokes the handset (POST /handset/remove).
 */
export default async function DevicePage({ searchParams }: Props) {
  const query = await searchParams;
  const h = await headers();
  const cookieHeader = h.get("cookie");
  const device = await loadOrUnavailable(() => findDevice({ cookieHeader }), "/handset");
  const result = typeof query.result === "string" ? RESULTS[query.result] : undefined;
  if (!device) {
    return (
      <main className="mx-auto max-w-sm p-4">
        <h1 className="text-xl font-semibold">Approvals</h1>
        {result && <p role="status" className="my-3 rounded bg-slate-200 p-2 text-sm">{result}</p>}
        <p className="my-3">This phone is not registered for approvals yet.</p>
        <a className="rounded bg-slate-800 px-3 py-1.5 text-white" href={servicePath("/handset/enrol")}>Register this phone</a>
      </main>
    );
  }
  const requests = await loadOrUnavailable(() => listDeviceRequests({ subscriberId: device.subscriberId }), "/handset");
  const t = getMessages([]);
  return (
    <main className="mx-auto max-w-sm p-4" data-ids={requests.map((r) => r.id).join(",")}>
      <noscript><meta httpEquiv="refresh" content="5" /></noscript>
      <h1 className="text-xl font-semibold">Approvals</h1>
      <p className="mb-3 text-sm text-slate-600">{device.name} · {maskMsisdn(device.msisdn)}</p>
      {result && <p role="status" className="mb-3 rounded bg-slate-200 p-2 text-sm">{result}</p>}
      {requests.length === 0 ? <p>No requests waiting.</p> : (
        <ol className="space-y-3">
          {requests.map((r) => (
            <li key={r.id} className="device-request rounded-xl border border-slate-300 bg-white p-3" data-request-id={r.id}>
              <h2 className="font-semibold">{r.clientName}</h2>
              <p className="text-sm">asks to sign you in and to:</p>
              <ul className="my-2 list-disc pl-5 text-sm">
                {describeConsent({ scopes: parseScope(r.scope), t }).scopeLines.map((l) => <li key={l.scope}>{l.text}</li>)}
              </ul>
              <dl className="my-2 grid grid-cols-[auto_1fr] gap-x-2 text-sm">
                <dt className="text-slate-600">From</dt><dd className="request-origin">{r.origin || "unknown"}</dd>
                <dt className="text-slate-600">Asked at</dt><dd><time dateTime={r.createdAt.toISOString()}>{clock(r.createdAt)}</time></dd>
                <dt className="text-slate-600">Expires</dt>
                <dd><time dateTime={r.expiresAt.toISOString()}>{clock(r.expiresAt)}</time> ({minutesLeft(r.expiresAt)})</dd>
              </dl>
              {(r.context || r.bindingMessage) && (r.textVerified ? (
                <div className="request-text my-2">
                  {r.context && <p className="request-context">{r.context}</p>}
                  {r.bindingMessage && <p className="binding-message">{r.bindingMessage}</p>}
                </div>
              ) : (
                <div className="request-text unverified my-2 rounded border border-dashed border-slate-500 p-2 text-sm">
                  <p className="font-semibold">Unverified text sent with this request</p>
                  <p className="text-slate-700">The app did not prove it wrote this. Do not follow instructions in it.</p>
                  {r.context && <p className="request-context break-words">&ldquo;{r.context}&rdquo;</p>}
                  {r.bindingMessage && <p className="binding-message break-words">&ldquo;{r.bindingMessage}&rdquo;</p>}
                </div>
              ))}
              <form method="post" action={servicePath(`/handset/requests/${r.id}`)} className="flex flex-wrap items-end gap-2">
                <label className="w-full text-sm">Number shown on the screen where you are signing in
                  <input name="check" type="text" inputMode="numeric" autoComplete="off" maxLength={8} pattern="[0-9 ]*"
                    className="mt-1 block w-24 rounded border border-slate-300 px-2 py-1 text-lg tracking-widest" />
                </label>
                {r.acr === "3" && (
                  <label className="w-full text-sm">PIN
                    <input name="pin" type="password" inputMode="numeric" autoComplete="off" maxLength={64}
                      className="mt-1 block w-full rounded border border-slate-300 px-2 py-1" />
                  </label>
                )}
                <button name="decision" value="approve" className="rounded bg-green-700 px-3 py-1.5 text-white">Approve</button>
                <button name="decision" value="reject" className="rounded bg-slate-200 px-3 py-1.5">Reject</button>
              </form>
              <p className="mt-2 text-xs text-slate-600">Not you? Reject it: nobody can use it without the number on your screen.</p>
            </li>
          ))}
        </ol>
      )}
      <form method="post" action={servicePath("/handset/remove")} className="mt-8 border-t border-slate-300 pt-4">
        <input type="hidden" name="confirm" value="remove" />
        <p className="mb-2 text-sm text-slate-600">Stop approving on this phone. You can register it again later.</p>
        <button type="submit" className="rounded border border-red-700 px-3 py-1.5 text-red-800">Remove this phone</button>
      </form>
      {/* the page's CSP allows only scripts carrying this request's nonce (proxy.ts) */}
      <script nonce={h.get("x-nonce") ?? undefined} dangerouslySetInnerHTML={{ __html: live(servicePath("/handset/events"), servicePath("/handset")) }} />
    </main>
  );
}
