import type { Messages } from "@/lib/i18n/get-messages";
import { BrandLine, SupportLink } from "@/lib/branding/brand-line";
import { LanguageSwitch } from "./language-switch";

/** `display=touch`: full-width, big text and tap targets of at least 48 px (WCAG 2.5.5 / platform guidance). */
export function TouchFrame({ t, children }: { t: Messages; children: React.ReactNode }) {
  return (
    <main lang={t.lang} className="brand-scheme min-h-screen bg-surface px-5 py-6 text-xl text-ink">
      <div className="mx-auto max-w-lg">
        <BrandLine t={t} className="mb-6 text-base font-bold tracking-wide text-brand-ink uppercase" logoClassName="h-10 w-auto" />
        {children}
        <LanguageSwitch t={t} className="mt-6 text-base [&_a]:inline-block [&_a]:py-3" />
      </div>
    </main>
  );
}
