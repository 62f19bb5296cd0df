import { en, type Messages } from "./en";
import { fr } from "./fr";

/**
 * French typography (Imprimerie nationale): a space before `:` `;` `?` `!` `»` and after `«`, which
 * must never break the line away from its sign. One pass over the whole catalogue (string values and
 * the strings that message functions return) instead of hand-typed spaces in fr.ts: U+00A0 NO-BREAK
 * SPACE, which every browser and feature-phone font has (U+202F, the narrow one, is missing from many).
 * The `sms` texts are left alone: a text message in the GSM 7-bit alphabet has no no-break space.
 */
export const FRENCH_SPACE = "\u00a0";
const BEFORE = / +([:;?!»])/g;
const AFTER = /« +/g;

/** `text` with French no-break spaces (see above); idempotent. */
export function frenchTypography(text: string): string {
  return text.replace(BEFORE, `${FRENCH_SPACE}$1`).replace(AFTER, `«${FRENCH_SPACE}`);
}

/** A copy of a catalogue (or one of its groups) with `fix` applied to every text, functions included. */
export function mapTexts<T>(value: T, fix: (s: string) => string, skip: ReadonlySet<string>): T {
  if (typeof value === "string") return fix(value) as T;
  if (typeof value === "function") {
    const f = value as unknown as (...args: unknown[]) => unknown;
    return ((...args: unknown[]) => {
      const out = f(...args);
      return typeof out === "string" ? fix(out) : out;
    }) as T;
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, skip.has(k) ? v : mapTexts(v, fix, new Set())]),
    ) as T;
  }
  return value;
}

const DICTIONARIES: Record<string, Messages> = {
  en,
  fr: mapTexts(fr, frenchTypography, new Set(["lang", "sms"])),
};

/** Languages the screens are translated into (kept in line with `UI_LOCALES` in lib/oauth/scopes.ts). */
export const SUPPORTED_LANGUAGES = Object.keys(DICTIONARIES);

/**
 * The texts for a `ui_locales` preference list (RFC 5646 tags, most preferred first): the first
 * language we have, matched on the primary subtag (`fr-CA` -> `fr`), else English. Never throws:
 * OIDC Core §3.1.2.1 says unsupported locales must not cause an error.
 */
export function getMessages(uiLocales: readonly string[] | undefined): Messages {
  for (const tag of uiLocales ?? []) {
    const primary = tag.split("-")[0]?.toLowerCase() ?? "";
    const dict = Object.hasOwn(DICTIONARIES, primary) ? DICTIONARIES[primary] : undefined;
    if (dict) return dict;
  }
  return en;
}

export type { Messages };
