import { headers } from "next/headers";
import { DisplayFrame } from "@/components/display/display-frame";
import { getMessages } from "@/lib/i18n/get-messages";

/**
 * The 404 page (issue 17): the product's frame (its `main` landmark), a heading and a link home, in
 * English or French after the request's Accept-Language (quality values honoured, at most 20 tags
 * read). No script needed; Next.js answers it with status 404.
 */
export default async function NotFound() {
  const t = getMessages(preferredLanguages((await headers()).get("accept-language")));
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

function preferredLanguages(header: string | null): string[] {
  return (header ?? "").slice(0, 1000).split(",").slice(0, 20)
    .map((part, i) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((l) => l.tag && l.tag !== "*" && l.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((l) => l.tag);
}
