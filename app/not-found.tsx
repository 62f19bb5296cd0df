import { headers } from "next/headers";
import { DisplayFrame } from "@/components/display/display-frame";
import { getMessages } from "@/lib/i18n/get-messages";
import { acceptLanguageTags } from "@/lib/i18n/request-language";

/**
 * The 404 page (issue 17): the product's frame (its `main` landmark), a heading and a link home, in
 * English or French after the request's Accept-Language (lib/i18n/request-language.ts). No script needed; Next.js answers it with status 404.
 */
export default async function NotFound() {
  const t = getMessages(acceptLanguageTags((await headers()).get("accept-language")));
  return (
    <DisplayFrame display="page" t={t}>
      {(ui) => (
        <div className={ui.stack}>
          <h1 className={ui.heading}>{t.a11y.notFoundTitle}</h1>
          <p className={ui.text}>{t.a11y.notFoundText}</p>
          <p><a className={ui.link} href="/">{t.a11y.home}</a></p>
        </div>
      )}
    </DisplayFrame>
  );
}

