import type { Messages } from "@/lib/i18n/get-messages";
import { LanguageSwitch } from "./language-switch";

/** `display=page`: a responsive centred card with the operator's name and the usual links. */
export function PageFrame({ t, children }: { t: Messages; children: React.ReactNode }) {
  return (
    <main lang={t.lang} className="flex min-h-screen items-start justify-center px-4 py-8 sm:items-center sm:py-12">
      <div className="w-full max-w-md rounded-2xl bg-white p-6 shadow-lg ring-1 ring-slate-200 sm:p-8">
        <p className="mb-6 text-sm font-semibold tracking-wide text-blue-800 uppercase">{t.brand}</p>
        {children}
        <LanguageSwitch t={t} className="mt-6 text-sm" />
        <p className="mt-8 flex gap-4 text-xs text-slate-500">
          <a className="underline" href="/policy">{t.footer.policy}</a>
          <a className="underline" href="/terms">{t.footer.terms}</a>
        </p>
      </div>
    </main>
  );
}
