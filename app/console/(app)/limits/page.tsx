import { messageFor } from "@/lib/console/messages/localise";
import Link from "next/link";
import { consolePage } from "@/lib/console/console-page";
import { limitMessages } from "@/lib/console/messages/limits";
import { listThrottled } from "@/lib/console/limits/list-throttled";
import { listLockedAccounts } from "@/lib/console/limits/list-locked-accounts";
import { consoleTime } from "@/lib/console/audit/console-time";
import { queryParam } from "@/lib/console/subscribers/query-param";
import { roleAllows } from "@/lib/console/roles";
import { ConsoleForm, Notice, ui, ConsoleTable } from "@/components/console/console-ui";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// GET /console/limits - every role: the abuse counters refusing their subject now, subscribers in PIN lockout,
// locked staff accounts. Administrators may lift a throttle (POST /console/limits/lift).
export default async function LimitsPage({ searchParams }: Props) {
  const { staff, csrfToken, t } = await consolePage("viewer");
  const m = t(limitMessages);
  const query = await searchParams;
  const now = new Date();
  const [{ counters, more }, locked] = await Promise.all([listThrottled({ now }), listLockedAccounts({ now })]);
  const admin = roleAllows(staff.role, "admin");
  const care = roleAllows(staff.role, "care");

  return (
    <div className={ui.page}>
      <h1 className={ui.h1}>{m.title}</h1>
      <p className={ui.muted}>{m.intro}</p>
      <Notice done={messageFor(m.done, queryParam(query, "done", 20))}
        error={messageFor(m.errors, queryParam(query, "e", 20))} />

      <section className={ui.section} aria-labelledby="throttled">
        <h2 id="throttled" className={ui.h2}>{m.throttled.heading}</h2>
        {counters.length === 0 ? <p>{m.throttled.none}</p> : (
          <div className="overflow-x-auto">
            <ConsoleTable caption={m.throttled.caption}
              columns={[m.throttled.limit, m.throttled.per, m.throttled.subject, m.throttled.count, m.throttled.since,
                m.throttled.until, ...(admin ? [m.throttled.action] : [])]}>
              {counters.map((c) => (
                <tr key={c.key}>
                  <th scope="row" className={ui.td}>
                    {m.names[c.limit.name] ?? c.limit.name} <code>{c.limit.name}</code>
                  </th>
                  <td className={ui.td}>{m.subjects[c.limit.subject] ?? c.limit.subject}</td>
                  <td className={ui.td}><code>{c.subjectHash}</code></td>
                  <td className={ui.td}>{c.count} / {c.limit.limit}</td>
                  <td className={ui.td}>{consoleTime(c.windowStart)}</td>
                  <td className={ui.td}>{consoleTime(c.until)}</td>
                  {admin && (
                    <td className={ui.td}>
                      <ConsoleForm action="/console/limits/lift" csrfToken={csrfToken}>
                        <input type="hidden" name="key" value={c.key} />
                        <button type="submit" className={ui.secondary}
                          aria-label={m.throttled.liftLabel(c.limit.name, c.subjectHash)}>{m.throttled.lift}</button>
                      </ConsoleForm>
                    </td>
                  )}
                </tr>
              ))}
            </ConsoleTable>
          </div>
        )}
        {more && <p>{m.throttled.more}</p>}
        {!admin && counters.length > 0 && <p className={ui.muted}>{m.throttled.adminOnly}</p>}
      </section>

      <section className={ui.section} aria-labelledby="locked">
        <h2 id="locked" className={ui.h2}>{m.locked.heading}</h2>
        <p>{m.locked.subscribers(locked.subscribers, locked.more)}</p>
        {care && locked.subscribers > 0 && (
          <p>
            <Link prefetch={false} className={ui.link} href="/console/subscribers?status=locked">
              {m.locked.subscribersLink}
            </Link>
          </p>
        )}
        <h3 className="font-semibold">{m.locked.staff}</h3>
        {locked.staff.length === 0 ? <p>{m.locked.noStaff}</p> : (
          <ConsoleTable columns={[m.locked.username, m.locked.until]}>
            {locked.staff.map((s) => (
              <tr key={s.username}>
                <th scope="row" className={ui.td}>{s.username}</th>
                <td className={ui.td}>{consoleTime(s.until)}</td>
              </tr>
            ))}
          </ConsoleTable>
        )}
      </section>
    </div>
  );
}
