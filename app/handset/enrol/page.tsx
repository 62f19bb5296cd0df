import type { Metadata } from "next";
import { LanguageSwitch } from "@/components/display/language-switch";
import { pageLanguage } from "@/lib/i18n/page-language";
import { servicePath } from "@/lib/interaction/screen-headers";

export const dynamic = "force-dynamic";
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await pageLanguage()).handset.enrolTitle, referrer: "no-referrer", robots: { index: false, follow: false } };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * GET /handset/enrol: registers this handset as the subscriber's authorization device. Step 1 the
 * number (national format of DEFAULT_COUNTRY or international; a code is sent through the messaging
 * channel, readable in /handset/inbox locally); step 2 the code and a name for the phone. Plain
 * forms, no script; in the page's language (the `lang` cookie, else Accept-Language).
 */
export default async function EnrolPage({ searchParams }: Props) {
  const query = await searchParams;
  const t = await pageLanguage();
  const m = t.handset;
  const error = typeof query.error === "string" && Object.hasOwn(m.errors, query.error) ? m.errors[query.error] : undefined;
  const codeStep = query.step === "code" && query.error !== "code_expired";
  const field = "mt-1 block w-full rounded border border-slate-300 px-2 py-1";
  return (
    <main lang={t.lang} className="mx-auto max-w-sm p-4">
      <h1 className="text-xl font-semibold">{m.enrolTitle}</h1>
      <p className="mb-3 text-sm text-slate-600">{m.enrolIntro}</p>
      {error && <p role="alert" id="enrol-error" className="mb-3 rounded bg-red-100 p-2 text-sm">{error}</p>}
      {codeStep ? (
        <form method="post" action={servicePath("/handset/enrol/confirm")} className="space-y-3">
          <label className="block text-sm">{m.codeLabel}
            <input name="code" inputMode="numeric" autoComplete="one-time-code" required maxLength={12} className={field} />
          </label>
          <label className="block text-sm">{m.nameLabel}
            <input name="name" defaultValue={m.defaultName} maxLength={60} className={field} />
          </label>
          <button type="submit" className="rounded bg-slate-800 px-3 py-1.5 text-white">{m.registerButton}</button>
        </form>
      ) : (
        <form method="post" action={servicePath("/handset/enrol/start")} className="space-y-3">
          <label className="block text-sm">{m.msisdnLabel}
            <input name="msisdn" type="tel" required maxLength={40} className={field} aria-describedby="msisdn-help"
              aria-invalid={query.error === "msisdn_invalid" || undefined} />
          </label>
          <p id="msisdn-help" className="text-xs text-slate-600">{m.msisdnHelp}</p>
          <button type="submit" className="rounded bg-slate-800 px-3 py-1.5 text-white">{m.sendCode}</button>
        </form>
      )}
      <LanguageSwitch t={t} className="mt-8 text-sm" />
    </main>
  );
}
