import { getMessages, SUPPORTED_LANGUAGES, type Messages } from "@/lib/i18n/get-messages";
import { switchBack } from "@/lib/i18n/switch-back";
import { languageSwitchHref } from "@/lib/i18n/switch-language";

/**
 * The on-page language switch (issue 17): a plain link to each other language, named in that
 * language (`lang`, `hreflang`), to GET /language, which keeps the choice in a cookie and comes back
 * to this screen (`back`, by default the path of the request being rendered: lib/i18n/switch-back.ts).
 * No script and no form, so the WAP display keeps it.
 */
export function LanguageSwitch({ t, back, className = "mt-4 text-sm" }: {
  t: Messages; back?: string; className?: string;
}) {
  const to = back ?? switchBack();
  return (
    <nav aria-label={t.language.label} className={className}>
      {SUPPORTED_LANGUAGES.filter((l) => l !== t.lang).map((l, i) => (
        <span key={l}>{i > 0 && " · "}
          <a className="underline" href={languageSwitchHref(l, to)} hrefLang={l} lang={l}>
            {getMessages([l]).language.name}
          </a>
        </span>
      ))}
    </nav>
  );
}
