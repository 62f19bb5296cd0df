import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { config } from "@/lib/config";
import { LanguageSwitch } from "@/components/display/language-switch";
import { pageLanguage } from "@/lib/i18n/page-language";
import { normaliseMsisdn } from "@/lib/interaction/normalise-msisdn";
import { deviceInboxAllowed } from "@/lib/messaging/device-inbox-allowed";
import { listMessages } from "@/lib/messaging/list-messages";

export const dynamic = "force-dynamic";
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await pageLanguage()).inbox.title, referrer: "no-referrer", robots: { index: false, follow: false } };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * GET /handset/inbox?msisdn=<digits>: the text messages the local messaging channel "delivered" to a
 * number, newest first, as the handset would show them. A demo page: 404 outside the local demo
 * (lib/messaging/device-inbox-allowed.ts) or with DEVICE_INBOX_ENABLED=false.
 * Plain HTML (works without JavaScript); a Reload link, no timed refresh (WCAG 2.2.1 Timing Adjustable).
 */
export default async function DeviceInboxPage({ searchParams }: Props) {
  if (!deviceInboxAllowed(config()) || !config().DEVICE_INBOX_ENABLED) notFound();
  const query = await searchParams;
  const texts = await pageLanguage(); // the `lang` cookie, else Accept-Language
  const t = texts.inbox;
  // As typed on the sign-in number step: the national format of DEFAULT_COUNTRY or international.
  const msisdn = typeof query.msisdn === "string" ? normaliseMsisdn(query.msisdn, { country: config().DEFAULT_COUNTRY }) : null;
  const messages = msisdn ? await listMessages({ msisdn }) : [];
  const time = new Intl.DateTimeFormat(texts.lang === "fr" ? "fr-FR" : "en-GB", { timeStyle: "medium", dateStyle: "short" });
  return (
    <main lang={texts.lang} className="mx-auto max-w-sm p-4">
      <h1 className="text-xl font-semibold">{t.title}</h1>
      <p className="mb-3 text-sm text-slate-600">{t.note}</p>
      <form method="get" action="/handset/inbox" className="mb-4 flex items-end gap-2">
        <label className="flex-1 text-sm">
          {t.numberLabel}
          <input name="msisdn" type="tel" defaultValue={msisdn ?? ""} required maxLength={40}
            className="mt-1 block w-full rounded border border-slate-300 px-2 py-1" />
        </label>
        <button type="submit" className="rounded bg-slate-800 px-3 py-1.5 text-white">{t.show}</button>
      </form>
      {msisdn && (
        <section aria-label={t.forNumber(msisdn)} className="rounded-2xl bg-slate-900 p-3 text-white">
          <h2 className="mb-2 text-sm text-slate-300">{t.forNumber(`+${msisdn}`)}</h2>
          {messages.length === 0 ? <p className="text-sm">{t.none}</p> : (
            <ol className="space-y-2" id="messages">
              {messages.map((m) => (
                <li key={m.id} data-message-id={m.id} className="message rounded-xl bg-slate-700 p-2">
                  <p className="message-body">{m.body}</p>
                  <p className="text-right text-xs text-slate-300"><time dateTime={m.createdAt.toISOString()}>
                    {time.format(m.createdAt)}</time></p>
                </li>
              ))}
            </ol>
          )}
          <p className="mt-3 text-sm"><a className="underline" href={`/handset/inbox?msisdn=${msisdn}`}>{t.reload}</a></p>
        </section>
      )}
      <LanguageSwitch t={texts} className="mt-6 text-sm" />
    </main>
  );
}
