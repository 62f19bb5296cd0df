import type { Messages } from "@/lib/i18n/get-messages";
import { BrandLine, SupportLink } from "@/lib/branding/brand-line";
import { LanguageSwitch } from "./language-switch";

/** `display=popup`: fits a 450×500 window (OIDC Core §3.1.2.1, the interface's recommended size); no site chrome. */
export function PopupFrame({ t, children }: { t: Messages; children: React.ReactNode }) {
  return (
    <main lang={t.lang} className="brand-scheme mx-auto w-full max-w-[450px] bg-surface px-5 py-4 text-ink">
      <BrandLine t={t} className="mb-3 text-xs font-semibold tracking-wide text-brand-ink uppercase" logoClassName="h-6 w-auto" />
      {children}
      <LanguageSwitch t={t} className="mt-3 text-xs" />
    </main>
  );
}
