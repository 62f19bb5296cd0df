import { requestMessages } from "../i18n/request-language";
import { consolePost, type ConsoleActionResult } from "./console-post";
import type { ConsoleStaff } from "./current-staff";
import { localise, type ConsoleLanguage } from "./messages/localise";
import { staffMessages, type StaffMessages } from "./messages/staff";
import { StaffAccountError, type StaffCredentials } from "./staff-accounts";
import type { Params } from "../http/params";

export const STAFF_PAGE = "/console/staff";

/** What a staff action does with the target username; `self` is why the acting member may not do it to themself. */
type StaffVerb = (input: { staff: ConsoleStaff; username: string; form: Params; m: StaffMessages; lang: ConsoleLanguage })
  => Promise<Pick<ConsoleActionResult, "done" | "show" | "e">>;

/**
 * A POST of the staff page (admin only, lib/console/console-post.ts): the target is the form's
 * `username`; the acting administrator may not apply a `selfRefused` verb to themself (so the console
 * never loses its last administrator by accident); a refusal of the staff functions
 * (lib/console/staff-accounts.ts, StaffAccountError) goes back to the page with its message. Audited as
 * `console_staff_<verb>` with the target username, never a password.
 */
export function staffAction(verb: string, act: StaffVerb, { selfRefused = () => false }:
  { selfRefused?: (form: Params) => boolean } = {}) {
  return consolePost("admin", async ({ staff, form, req }): Promise<ConsoleActionResult> => {
    const username = (form.get("username") ?? "").trim().toLowerCase();
    const lang: ConsoleLanguage = requestMessages(req).lang === "fr" ? "fr" : "en";
    const type = `console_staff_${verb}` as const;
    if (username === staff.username && selfRefused(form)) {
      return { back: STAFF_PAGE, e: "self", audit: { type, outcome: "denied", detail: { username, reason: "self" } } };
    }
    try {
      const result = await act({ staff, username, form, m: localise(staffMessages, lang), lang });
      const role = form.get("role");
      return { back: STAFF_PAGE, ...result, audit: { type, outcome: "success", detail: role ? { username, role } : { username } } };
    } catch (err) {
      if (!(err instanceof StaffAccountError)) throw err;
      return { back: STAFF_PAGE, e: err.code, audit: { type, outcome: "failure", detail: { username, reason: err.code } } };
    }
  });
}

/** The show-once page of new credentials (create, reset): password and TOTP enrolment, never stored or logged. */
export function showCredentials(c: StaffCredentials, title: string, m: StaffMessages, lang: ConsoleLanguage) {
  return { lang, title, note: m.shown.note, backLabel: m.shown.back,
    values: [[m.shown.username, c.username], [m.shown.password, c.password], [m.shown.totpSecret, c.totpSecret],
      [m.shown.totpUri, c.totpUri]] as Array<[string, string]> };
}
