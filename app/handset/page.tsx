import type { Metadata } from "next";
import { headers } from "next/headers";
import { ClientMark } from "@/components/interaction/client-mark";
import { findClientProvenances } from "@/lib/clients/find-client-provenances";
import { findDevice } from "@/lib/devices/find-device";
import { listDeviceRequests } from "@/lib/out-of-band/list-device-requests";
import { loadOrUnavailable } from "@/lib/http/unavailable-screen";
import { LanguageSwitch } from "@/components/display/language-switch";
import { pageLanguage } from "@/lib/i18n/page-language";
import { describeConsent } from "@/lib/interaction/describe-consent";
import { servicePath } from "@/lib/interaction/screen-headers";
import { maskMsisdn } from "@/lib/messaging/mask-msisdn";
import { parseScope } from "@/lib/oauth/scopes";
import { CibaRequestCard, clock, minutesLeft, PinAndAnswer } from "./ciba-request-card";

export const dynamic = "force-dynamic";
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await pageLanguage()).handset.title, referrer: "no-referrer", robots: { index: false, follow: false } };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// Reloads the page when the set of pending requests changes (SSE from /handset/events); stops once a
// form is submitted, so the reload cannot cancel the answer's own navigation (and its result message).

const js = (value: string) => JSON.stringify(value).replace(/</g, "\\u003c");
const live = (events: string, page: string) => `(function(){var ids=document.querySelector("main").dataset.ids||"";
var es=new EventSource(${js(events)});es.addEventListener("requests",function(e){
var n=JSON.parse(e.data).ids.join(",");if(n!==ids){ids=n;location.replace(${js(page)});}});
document.addEventListener("submit",function(){es.close();});})();`;

/**
 * GET /device: the authorization device (the subscriber's handset). Lists the pending requests of
 * the enrolled subscriber, newest first: the app, what it asks for in plain language, where and when
 * the request came from and when it expires, and the client's context and binding message (marked
 * unverified unless the client authenticated, and always for a self-registered app, which is marked as such with
 * its redirect host); Approve needs the number shown on the consumption
 * device (number matching) and, at level 3, the PIN; Reject. Live via Server-Sent Events; without script it
 * refreshes itself every 5 s. A backchannel (CIBA) request, asked by the app's own server, has its own card
 * (ciba-request-card.tsx): no number to type, the binding message to check, the PIN at level 3.
 * "Remove this phone" revokes the handset (POST /handset/remove).
 */
export default async function DevicePage({ searchParams }: Props) {
  const query = await searchParams;
  const h = await headers();
  const cookieHeader = h.get("cookie");
  const device = await loadOrUnavailable(() => findDevice({ cookieHeader }), "/handset");
  // The `lang` cookie, else Accept-Language (lib/i18n/page-language.ts); the handset app has no ui_locales.
  const t = await pageLanguage();
  const m = t.handset;
  const result = typeof query.result === "string" && Object.hasOwn(m.results, query.result)
    ? m.results[query.result] : undefined;
  if (!device) {
    return (
      <main lang={t.lang} className="mx-auto max-w-sm p-4">
        <h1 className="text-xl font-semibold">{m.title}</h1>
        {result && <p role="status" className="my-3 rounded bg-slate-200 p-2 text-sm">{result}</p>}
        <p className="my-3">{m.notRegistered}</p>
        <a className="rounded bg-slate-800 px-3 py-1.5 text-white" href={servicePath("/handset/enrol")}>{m.register}</a>
        <LanguageSwitch t={t} className="mt-8 text-sm" />
      </main>
    );
  }
  const requests = await loadOrUnavailable(() => listDeviceRequests({ subscriberId: device.subscriberId }), "/handset");
  // Self-registered apps are marked, and their text is never shown as verified (issue 33).
  const marks = await loadOrUnavailable(
    () => findClientProvenances({ clientIds: requests.map((r) => r.clientId) }), "/handset");
  const markOf = (r: (typeof requests)[number]) => (r.clientId && marks.get(r.clientId)) || null;
  return (
    <main lang={t.lang} className="mx-auto max-w-sm p-4" data-ids={requests.map((r) => r.id).join(",")}>
      <noscript><meta httpEquiv="refresh" content="5" /></noscript>
      <h1 className="text-xl font-semibold">{m.title}</h1>
      <p className="mb-3 text-sm text-slate-600">{device.name} · {maskMsisdn(device.msisdn)}</p>
      {result && <p role="status" className="mb-3 rounded bg-slate-200 p-2 text-sm">{result}</p>}
      {requests.length === 0 ? <p>{m.none}</p> : (
        <ol className="space-y-3">
          {requests.map((r) => r.backchannelRequestId ? (
            <li key={r.id} className="device-request ciba-request rounded-xl border border-slate-300 bg-white p-3"
              data-request-id={r.id}>
              <CibaRequestCard t={t} action={servicePath(`/handset/requests/${r.id}`)} clientName={r.clientName}
                mark={markOf(r)} scope={r.scope} acr={r.acr} bindingMessage={r.bindingMessage} createdAt={r.createdAt}
                expiresAt={r.expiresAt} />
            </li>
          ) : (
            <li key={r.id} className="device-request rounded-xl border border-slate-300 bg-white p-3" data-request-id={r.id}>
              <h2 className="font-semibold">{r.clientName}</h2>
              <ClientMark t={t} mark={markOf(r)} className="my-1" />
              <p className="text-sm">{m.asks}</p>
              <ul className="my-2 list-disc pl-5 text-sm">
                {describeConsent({ scopes: parseScope(r.scope), t }).scopeLines.map((l) => <li key={l.scope}>{l.text}</li>)}
              </ul>
              <dl className="my-2 grid grid-cols-[auto_1fr] gap-x-2 text-sm">
                <dt className="text-slate-600">{m.from}</dt><dd className="request-origin">{r.origin || m.unknownOrigin}</dd>
                <dt className="text-slate-600">{m.askedAt}</dt><dd><time dateTime={r.createdAt.toISOString()}>{clock(r.createdAt)}</time></dd>
                <dt className="text-slate-600">{m.expires}</dt>
                <dd><time dateTime={r.expiresAt.toISOString()}>{clock(r.expiresAt)}</time> ({m.minutesLeft(minutesLeft(r.expiresAt))})</dd>
              </dl>
              {(r.context || r.bindingMessage) && (r.textVerified && !markOf(r) ? (
                <div className="request-text my-2">
                  {r.context && <p className="request-context">{r.context}</p>}
                  {r.bindingMessage && <p className="binding-message">{r.bindingMessage}</p>}
                </div>
              ) : (
                <div className="request-text unverified my-2 rounded border border-dashed border-slate-500 p-2 text-sm">
                  <p className="font-semibold">{m.unverifiedTitle}</p>
                  <p className="text-slate-700">{m.unverifiedText}</p>
                  {r.context && <p className="request-context break-words">&ldquo;{r.context}&rdquo;</p>}
                  {r.bindingMessage && <p className="binding-message break-words">&ldquo;{r.bindingMessage}&rdquo;</p>}
                </div>
              ))}
              <form method="post" action={servicePath(`/handset/requests/${r.id}`)} className="flex flex-wrap items-end gap-2">
                <label className="w-full text-sm">{m.checkLabel}
                  <input name="check" type="text" inputMode="numeric" autoComplete="off" maxLength={8} pattern="[0-9 ]*"
                    className="mt-1 block w-24 rounded border border-slate-300 px-2 py-1 text-lg tracking-widest" />
                </label>
                <PinAndAnswer t={t} acr={r.acr} />
              </form>
              <p className="mt-2 text-xs text-slate-600">{m.notYou}</p>
            </li>
          ))}
        </ol>
      )}
      <form method="post" action={servicePath("/handset/remove")} className="mt-8 border-t border-slate-300 pt-4">
        <input type="hidden" name="confirm" value="remove" />
        <p className="mb-2 text-sm text-slate-600">{m.removeText}</p>
        <button type="submit" className="rounded border border-red-700 px-3 py-1.5 text-red-800">{m.remove}</button>
      </form>
      <LanguageSwitch t={t} className="mt-6 text-sm" />
      {/* the page's CSP allows only scripts carrying this request's nonce (proxy.ts) */}
      <script nonce={h.get("x-nonce") ?? undefined} dangerouslySetInnerHTML={{ __html: live(servicePath("/handset/events"), servicePath("/handset")) }} />
    </main>
  );
}
