import { DisplayFrame } from "@/components/display/display-frame";
import { pageLanguage } from "@/lib/i18n/page-language";

/**
 * The 404 page (issue 17): the product's frame (its `main` landmark, its language switch), a heading
 * and a link home, in the page's language (lib/i18n/page-language.ts: the `lang` cookie, else
 * Accept-Language). No script needed; Next.js answers it with status 404.
 */
export default async function NotFound() {
  const t = await pageLanguage();
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
