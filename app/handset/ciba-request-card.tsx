import { ClientMark, UnverifiedNote } from "@/components/interaction/client-mark";
import type { ClientProvenance } from "@/lib/clients/client-provenance";
import type { Messages } from "@/lib/i18n/get-messages";
import { describeConsent } from "@/lib/interaction/describe-consent";
import { parseScope } from "@/lib/oauth/scopes";

/** Times on the handset: hours and minutes in UTC (the server does not know the phone's time zone). */
export const clock = (d: Date) => `${d.toISOString().slice(11, 16)} UTC`;
export const minutesLeft = (d: Date) => Math.max(0, Math.ceil((d.getTime() - Date.now()) / 60_000));

/**
 * The approval card of a backchannel (CIBA) request, shared by the handset (app/handset/page.tsx) and the
 * text-message link (app/handset/approve/[token]): the app, that its own service asked (no browser of the
 * subscriber waits, so there is no number to type), the binding message shown prominently (the client
 * authenticated: the interlock the subscriber checks; a self-registered app's is marked as its own, unverified
 * words, beside the app's mark), the scopes, the expiry, the PIN at level 3; Approve and Reject post to `action`.
 * `headingLevel` keeps the page's outline (h2 in the list, h2 under the link page's h1).
 */
export function CibaRequestCard({ t, action, clientName, mark, scope, acr, bindingMessage, createdAt, expiresAt }: {
  t: Messages; action: string; clientName: string; mark: ClientProvenance | null; scope: string; acr: string;
  bindingMessage: string | null; createdAt?: Date; expiresAt: Date;
}) {
  const m = t.handset;
  const { scopeLines, purpose } = describeConsent({ scopes: parseScope(scope), t });
  return (
    <>
      <h2 className="font-semibold">{clientName}</h2>
      <ClientMark t={t} mark={mark} className="my-1" />
      <p className="ciba-origin my-1 text-sm">{m.cibaOrigin}</p>
      {/* A self-registered app's binding message is its own words: shown, but not as the interlock (issue 33). */}
      {bindingMessage && mark && (
        <div className="binding-message-box unverified my-2 rounded border border-dashed border-slate-500 p-2 text-sm">
          <UnverifiedNote t={t} />
          <p className="binding-message break-words">&ldquo;{bindingMessage}&rdquo;</p>
        </div>
      )}
      {bindingMessage && !mark && (
        <div className="binding-message-box my-2 rounded border-2 border-slate-800 p-2">
          <p className="text-sm font-semibold">{m.cibaBindingTitle}</p>
          <p className="binding-message break-words text-lg font-semibold">{bindingMessage}</p>
        </div>
      )}
      <p className="text-sm">{m.asks}</p>
      <ul className="my-2 list-disc pl-5 text-sm">
        {scopeLines.map((l) => <li key={l.scope}>{l.text}</li>)}
      </ul>
      {/* Network APIs: the purpose the app gives (approving is consenting, docs/network-apis.md). */}
      {purpose && <p className="text-sm">{t.consent.purpose(purpose.text)}</p>}
      <dl className="my-2 grid grid-cols-[auto_1fr] gap-x-2 text-sm">
        {createdAt && <><dt className="text-slate-600">{m.askedAt}</dt>
          <dd><time dateTime={createdAt.toISOString()}>{clock(createdAt)}</time></dd></>}
        <dt className="text-slate-600">{m.expires}</dt>
        <dd><time dateTime={expiresAt.toISOString()}>{clock(expiresAt)}</time> ({m.minutesLeft(minutesLeft(expiresAt))})</dd>
      </dl>
      <form method="post" action={action} className="flex flex-wrap items-end gap-2">
        <PinAndAnswer t={t} acr={acr} />
      </form>
      <p className="mt-2 text-xs text-slate-600">{m.cibaNotYou}</p>
    </>
  );
}

/** The end of every handset answer form: the PIN field at level 3, then Approve and Reject (`decision`). */
export function PinAndAnswer({ t, acr }: { t: Messages; acr: string }) {
  const m = t.handset;
  return (
    <>
      {acr === "3" && (
        <label className="w-full text-sm">{m.pinLabel}
          <input name="pin" type="password" inputMode="numeric" autoComplete="off" maxLength={64}
            className="mt-1 block w-full rounded border border-slate-300 px-2 py-1" />
        </label>
      )}
      <button name="decision" value="approve" className="rounded bg-green-700 px-3 py-1.5 text-white">{m.approve}</button>
      <button name="decision" value="reject" className="rounded bg-slate-200 px-3 py-1.5">{m.reject}</button>
    </>
  );
}
