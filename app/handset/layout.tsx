import { headers } from "next/headers";
import { BrandLine } from "@/lib/branding/brand-line";
import { getMessages } from "@/lib/i18n/get-messages";
import { acceptLanguageTags } from "@/lib/i18n/request-language";

/**
 * The handset app's frame: the operator's brand (name or logo, colours) above every page. The handset
 * pages are drawn in the light scheme whatever the phone prefers (`.brand-light`, app/globals.css).
 */
export default async function HandsetLayout({ children }: { children: React.ReactNode }) {
  const t = getMessages(acceptLanguageTags((await headers()).get("accept-language")));
  return (
    <div className="brand-light">
      <header lang={t.lang} className="mx-auto max-w-sm px-4 pt-4">
        <BrandLine t={t} className="text-sm font-semibold tracking-wide text-brand-ink uppercase" logoClassName="h-7 w-auto" />
      </header>
      {children}
    </div>
  );
}
