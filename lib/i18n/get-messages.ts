import { en, type Messages } from "./en";
import { fr } from "./fr";

const DICTIONARIES: Record<string, Messages> = { en, fr };

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
