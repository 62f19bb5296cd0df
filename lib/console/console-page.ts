import { forbidden, redirect } from "next/navigation";
import { pageLanguage } from "../i18n/page-language";
import { currentStaff, type ConsoleStaff } from "./current-staff";
import { roleAllows, type StaffRole } from "./roles";
import { CONSOLE_SIGN_IN_PATH } from "./console-auth";
import { consoleFormToken } from "./console-post";
import { localise, type ConsoleLanguage } from "./messages/localise";

export interface ConsolePageContext {
  staff: ConsoleStaff;
  lang: ConsoleLanguage;
  /** The hidden `csrf_token` of every form on the page (lib/console/console-post.ts). */
  csrfToken: string;
  /** One of the console's catalogues in the page's language. */
  t<T extends object>(catalogue: Record<ConsoleLanguage, T>): T;
}

/**
 * The start of every console page: the signed-in member (else to the sign-in page), whose role must
 * allow `role` (else 403, app/console/forbidden.tsx), and the page's language (the service's: `lang`
 * cookie, then Accept-Language).
 */
export async function consolePage(role: StaffRole): Promise<ConsolePageContext> {
  const staff = await currentStaff();
  if (!staff) redirect(CONSOLE_SIGN_IN_PATH);
  if (!roleAllows(staff.role, role)) forbidden();
  const lang: ConsoleLanguage = (await pageLanguage()).lang === "fr" ? "fr" : "en";
  return { staff, lang, csrfToken: consoleFormToken(staff), t: (c) => localise(c, lang) };
}
