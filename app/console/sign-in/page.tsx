import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { consoleCookieNames, CONSOLE_AUTH_BASE } from "@/lib/console/console-auth";
import { currentStaff } from "@/lib/console/current-staff";
import { localise, messageFor } from "@/lib/console/messages/localise";
import { shellMessages } from "@/lib/console/messages/shell";
import { pageLanguage } from "@/lib/i18n/page-language";
import { Notice, ui } from "@/components/console/console-ui";

type Search = Promise<Record<string, string | string[] | undefined>>;

/**
 * GET /console/sign-in - the staff sign-in form (username, password, authenticator code), posted to
 * next-auth's credentials callback (app/console/auth). It carries next-auth's CSRF token: without its
 * cookie the browser is first sent through next-auth's `signin`, which sets it and comes back here
 * with `fresh=1` (still no cookie then: cookies are off, which the page says). Works without script.
 */
export default async function ConsoleSignIn({ searchParams }: { searchParams: Search }) {
  const q = await searchParams;
  if (await currentStaff()) redirect("/console");
  const t = localise(shellMessages, (await pageLanguage()).lang);
  const csrfCookie = (await cookies()).get(consoleCookieNames().csrfToken)?.value ?? "";
  const csrfToken = csrfCookie.split("|")[0] ?? "";
  if (!csrfToken && q.fresh !== "1") redirect(`${CONSOLE_AUTH_BASE}/signin?callbackUrl=${encodeURIComponent("/console")}`);
  const e = typeof q.e === "string" ? q.e : null;
  const error = !csrfToken ? t.signIn.errors.cookies : e ? messageFor(t.signIn.errors, e) ?? t.signIn.errors.other : null;
  return (
    <main id="content" className="mx-auto max-w-md space-y-4 px-4 py-10">
      <h1 className={ui.h1}>{t.signIn.title}</h1>
      <p className={ui.muted}>{t.signIn.intro}</p>
      <Notice error={error} />
      {csrfToken && (
        <form method="post" action={`${CONSOLE_AUTH_BASE}/callback/staff`} className="space-y-4">
          <input type="hidden" name="csrfToken" value={csrfToken} />
          <input type="hidden" name="callbackUrl" value="/console" />
          <p>
            <label htmlFor="username" className={ui.label}>{t.signIn.username}</label>
            <input id="username" name="username" autoComplete="username" required className={ui.input} />
          </p>
          <p>
            <label htmlFor="password" className={ui.label}>{t.signIn.password}</label>
            <input id="password" name="password" type="password" autoComplete="current-password" required className={ui.input} />
          </p>
          <p>
            <label htmlFor="code" className={ui.label}>{t.signIn.code}</label>
            <input id="code" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" required
              aria-describedby="code-help" className={ui.input} />
            <span id="code-help" className={`block text-sm ${ui.muted}`}>{t.signIn.codeHelp}</span>
          </p>
          <button type="submit" className={ui.button}>{t.signIn.submit}</button>
        </form>
      )}
    </main>
  );
}
