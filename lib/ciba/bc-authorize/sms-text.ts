import { configuredBrandName } from "../../branding/brand";
import { getMessages } from "../../i18n/get-messages";

/**
 * The text message of the no-handset fallback (docs/ciba.md), in the subscriber's language when their profile has
 * one we speak (Subscriber.locale), else English: who asks, the binding message, the link and the code. Plain
 * GSM-friendly text (no no-break spaces), like the other `sms` texts (lib/i18n).
 */
export function backchannelSmsText({ locale, clientName, bindingMessage, url, code }: {
  locale: string | null; clientName: string; bindingMessage: string | null; url: string; code: string;
}): string {
  const lang = getMessages(locale ? [locale] : []).lang === "fr" ? "fr" : "en";
  const brand = configuredBrandName(lang);
  const from = brand ? (lang === "fr" ? `${brand} : ` : `${brand}: `) : "";
  if (lang === "fr") {
    return `${from}${clientName} demande votre accord pour vous connecter${bindingMessage ? ` (« ${bindingMessage} »)` : ""}. `
      + `Pour accepter ou refuser, ouvrez ${url} et saisissez le code ${code}. Si vous n'attendiez rien, ignorez ce message.`;
  }
  return `${from}${clientName} asks you to approve a sign-in${bindingMessage ? ` ("${bindingMessage}")` : ""}. `
    + `To approve or refuse, open ${url} and enter the code ${code}. If you did not expect this, ignore this message.`;
}
