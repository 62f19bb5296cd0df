import { configuredBrandName } from "../../branding/brand";
import { getMessages } from "../../i18n/get-messages";

/**
 * The text message of the no-handset fallback (docs/ciba.md), in the subscriber's language when their profile has
 * one we speak (Subscriber.locale), else English: who asks, the link and the code. Plain GSM-friendly text (no
 * no-break spaces), like the other `sms` texts (lib/i18n).
 * The message goes out from the operator's sender, so it carries no words a client chose freely (issue 20, S1):
 * - never the binding message (the link's page shows it after the code, marked as the app's words);
 * - the client's name only for a client the operator registered (`registeredBy` "admin"); a dynamically registered
 *   client is "a service" ("un service").
 */
export function backchannelSmsText({ locale, clientName, registeredBy, url, code }: {
  locale: string | null; clientName: string; registeredBy: "admin" | "dynamic"; url: string; code: string;
}): string {
  const lang = getMessages(locale ? [locale] : []).lang === "fr" ? "fr" : "en";
  const brand = configuredBrandName(lang);
  const from = brand ? (lang === "fr" ? `${brand} : ` : `${brand}: `) : "";
  const named = registeredBy === "admin";
  if (lang === "fr") {
    return `${from}${named ? clientName : "Un service"} demande votre accord pour vous connecter. `
      + `Pour accepter ou refuser, ouvrez ${url} et saisissez le code ${code}. Si vous n'attendiez rien, ignorez ce message.`;
  }
  return `${from}${named ? clientName : "A service"} asks you to approve a sign-in. `
    + `To approve or refuse, open ${url} and enter the code ${code}. If you did not expect this, ignore this message.`;
}
