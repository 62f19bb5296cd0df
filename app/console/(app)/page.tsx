import Link from "next/link";
import { consolePage } from "@/lib/console/console-page";
import { shellMessages } from "@/lib/console/messages/shell";
import { roleAllows } from "@/lib/console/roles";
import { ui } from "@/components/console/console-ui";

// GET /console - the console's start page: the areas the member's role may open.
export default async function ConsoleHome() {
  const { staff, t } = await consolePage("viewer");
  const m = t(shellMessages);
  const areas = roleAllows(staff.role, "care") ? (["subscribers", "clients", "keys", "audit", "limits", "metrics"] as const)
    : (["clients", "keys", "audit", "limits", "metrics"] as const);
  return (
    <div className={ui.page}>
      <h1 className={ui.h1}>{m.title}</h1>
      <p>{m.home.intro}</p>
      <ul className="list-disc pl-6">
        {areas.map((a) => <li key={a}><Link className={ui.link} href={`/console/${a}`}>{m.nav[a]}</Link></li>)}
        {roleAllows(staff.role, "admin") && <li><Link className={ui.link} href="/console/staff">{m.nav.staff}</Link></li>}
      </ul>
    </div>
  );
}
