import type { Messages } from "@/lib/i18n/get-messages";
import { BrandLine, SupportLink } from "@/lib/branding/brand-line";
import { LanguageSwitch } from "./language-switch";

/** `display=page`: a responsive centred card with the operator's name and the usual links. */
export function PageFrame({ t, children }: { t: Messages; children: React.ReactNode }) {
  return (
    <main lang={t.lang} className="brand-scheme flex min-h-screen items-start justify-center bg-canvas px-4 py-8 sm:items-center sm:py-12 text-ink">
      <div className="w-full max-w-md rounded-2xl bg-surface p-6 shadow-lg ring-1 ring-line sm:p-8">
        <BrandLine t={t} className="mb-6 text-sm font-semibold tracking-wide text-brand-ink uppercase" />
        {children}
        <LanguageSwitch t={t} className="mt-6 text-sm" />
        <p className="mt-8 flex gap-4 text-xs text-ink-muted">
          <a className="underline" href="/policy">{t.footer.policy}</a>
          <a className="underline" href="/terms">{t.footer.terms}</a>
          <SupportLink t={t} className="underline" />
        </p>
      </div>
    </main>
  );
}
