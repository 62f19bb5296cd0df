import Link from "next/link";
import { redirect } from "next/navigation";
import { currentStaff } from "@/lib/console/current-staff";
import { CONSOLE_SIGN_IN_PATH } from "@/lib/console/console-auth";
import { consoleFormToken } from "@/lib/console/console-post";
import { roleAllows, type StaffRole } from "@/lib/console/roles";
import { localise } from "@/lib/console/messages/localise";
import { shellMessages } from "@/lib/console/messages/shell";
import { pageLanguage } from "@/lib/i18n/page-language";
import { ConsoleForm, ui } from "@/components/console/console-ui";

const AREAS: Array<{ href: string; key: keyof typeof shellMessages.en.nav; role: StaffRole }> = [
  { href: "/console", key: "home", role: "viewer" },
  { href: "/console/subscribers", key: "subscribers", role: "care" },
  { href: "/console/clients", key: "clients", role: "viewer" },
  { href: "/console/keys", key: "keys", role: "viewer" },
  { href: "/console/audit", key: "audit", role: "viewer" },
  { href: "/console/limits", key: "limits", role: "viewer" },
  { href: "/console/metrics", key: "metrics", role: "viewer" },
  { href: "/console/staff", key: "staff", role: "admin" },
];

/** The signed-in console's frame: who is signed in, the areas their role may open, sign-out. */
export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const staff = await currentStaff();
  if (!staff) redirect(CONSOLE_SIGN_IN_PATH);
  const t = localise(shellMessages, (await pageLanguage()).lang);
  return (
    <div className="min-h-screen">
      <a href="#content" className="sr-only focus:not-sr-only">{t.skip}</a>
      <header className="border-b border-slate-300 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-2">
          <p className="font-semibold">{t.title}</p>
          <div className="flex items-center gap-3 text-sm">
            <span>{t.signedInAs(staff.username, t.roles[staff.role] ?? staff.role)}</span>
            <ConsoleForm action="/console/sign-out" csrfToken={consoleFormToken(staff)}>
              <button type="submit" className={ui.secondary}>{t.signOut}</button>
            </ConsoleForm>
          </div>
        </div>
        <nav aria-label={t.nav.label} className="mx-auto max-w-6xl px-4 pb-2">
          <ul className="flex flex-wrap gap-3 text-sm">
            {AREAS.filter((a) => roleAllows(staff.role, a.role)).map((a) => (
              <li key={a.href}><Link className={ui.link} href={a.href}>{t.nav[a.key]}</Link></li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="content" className="mx-auto max-w-6xl px-4 py-6">{children}</main>
    </div>
  );
}
