import { frenchTypography, mapTexts } from "../../i18n/get-messages";

export type ConsoleLanguage = "en" | "fr";

const cache = new WeakMap<object, unknown>();

/**
 * One of a console catalogue's languages (each area of the console keeps its texts in its own file of
 * lib/console/messages, as `{ en, fr }`), French with its no-break spaces as the subscriber screens'.
 */
export function localise<T extends object>(catalogue: Record<ConsoleLanguage, T>, lang: string): T {
  if (lang !== "fr") return catalogue.en;
  let fr = cache.get(catalogue.fr) as T | undefined;
  if (!fr) {
    fr = mapTexts(catalogue.fr, frenchTypography, new Set());
    cache.set(catalogue.fr, fr);
  }
  return fr;
}

/**
 * The text a page shows for a `?done=` / `?e=` code: only the catalogue's own string entries (a code such as
 * `__proto__` or `constructor`, sent by anyone, must never reach an inherited property), else null.
 */
export function messageFor(texts: Readonly<Record<string, unknown>>, code: unknown): string | null {
  if (typeof code !== "string" || !Object.hasOwn(texts, code)) return null;
  const text = texts[code];
  return typeof text === "string" ? text : null;
}
