import { servicePath } from "@/lib/interaction/screen-headers";

/**
 * A plain HTML form posting to `/account/<action>` (a route handler: works without JavaScript), with
 * the session's CSRF token and the page's display and language, so the 303 comes back to the same page.
 */
export function AccountForm({ action, csrf, display, lang, className, children }: {
  action: string; csrf: string; display: string; lang: string; className?: string; children: React.ReactNode;
}) {
  return (
    <form method="post" action={servicePath(`/account/${action}`)} className={className}>
      <input type="hidden" name="csrf_token" value={csrf} />
      <input type="hidden" name="display" value={display} />
      <input type="hidden" name="ui_locales" value={lang} />
      {children}
    </form>
  );
}
