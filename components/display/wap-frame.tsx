import type { Messages } from "@/lib/i18n/get-messages";
import { BrandLine } from "@/lib/branding/brand-line";
import { LanguageSwitch } from "./language-switch";

/** `display=wap`: feature phones - minimal markup, plain forms, no script needed. */
export function WapFrame({ t, children }: { t: Messages; children: React.ReactNode }) {
  return (
    <main lang={t.lang} className="p-2 text-sm">
      <BrandLine t={t} className="font-bold" logo={false} />
      {children}
      <LanguageSwitch t={t} className="mt-2" />
    </main>
  );
}
