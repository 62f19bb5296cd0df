import { currentStaff } from "@/lib/console/current-staff";
import { localise } from "@/lib/console/messages/localise";
import { shellMessages } from "@/lib/console/messages/shell";
import { pageLanguage } from "@/lib/i18n/page-language";
import { ui } from "@/components/console/console-ui";

/** 403 for a console page the member's role may not open (forbidden() in lib/console/console-page.ts). */
export default async function ConsoleForbidden() {
  const t = localise(shellMessages, (await pageLanguage()).lang);
  const staff = await currentStaff();
  return (
    <main id="content" className="mx-auto max-w-6xl space-y-3 px-4 py-6">
      <h1 className={ui.h1}>{t.forbidden.title}</h1>
      <p>{t.forbidden.text(staff ? t.roles[staff.role] ?? staff.role : "")}</p>
      <p><a className={ui.link} href="/console">{t.nav.home}</a></p>
    </main>
  );
}
