import { messageFor } from "@/lib/console/messages/localise";
import Link from "next/link";
import { consolePage } from "@/lib/console/console-page";
import { subscriberMessages } from "@/lib/console/messages/subscribers";
import { queryParam } from "@/lib/console/subscribers/query-param";
import { consoleTime } from "@/lib/console/audit/console-time";
import { listSubscribersPage, type SubscriberListStatus } from "@/lib/subscribers/list-subscribers-page";
import type { SubscriberRecord } from "@/lib/subscribers/subscriber-record";
import { ConsoleForm, Notice, ui, ConsoleTable } from "@/components/console/console-ui";
import { headers } from "next/headers";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { clientIp } from "@/lib/http/client-ip";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const STATUSES: SubscriberListStatus[] = ["active", "suspended", "locked"];

// GET /console/subscribers - care and admin: find a subscriber by number (POST /console/subscribers/find, so the number
// is in no URL), or list them by status (paged by MSISDN). Every page listed is audited (console_subscribers_list:
// the status filter, how many rows were shown, whether it was a later page), so bulk reads leave a trace.
export default async function SubscribersPage({ searchParams }: Props) {
  const { staff, csrfToken, t } = await consolePage("care");
  const m = t(subscriberMessages);
  const [query, h] = await Promise.all([searchParams, headers()]);
  const statusParam = queryParam(query, "status", 20);
  const status = (STATUSES as string[]).includes(statusParam) ? (statusParam as SubscriberListStatus) : undefined;
  const after = queryParam(query, "after", 100);
  const now = new Date();

  const e = queryParam(query, "e", 20);
  const error = e === "bad" ? m.search.bad : e === "none" ? m.search.none : messageFor(m.errors, e);
  const { subscribers: rows, next } = await listSubscribersPage({ status,
    after: after || undefined, now });
  // No cursor in the detail: it is a subscriber id, which the audit log keeps only as a pseudonym.
  await recordAuditEvent({ type: "console_subscribers_list", outcome: "success", staffId: staff.id, ip: clientIp(h),
    detail: { status: status ?? "any", rows: rows.length, later: after !== "" } });
  const pageLink = (cursor?: string) => {
    const p = new URLSearchParams();
    if (status) p.set("status", status);
    if (cursor) p.set("after", cursor);
    const s = p.toString();
    return `/console/subscribers${s ? `?${s}` : ""}`;
  };
  const name = (s: SubscriberRecord) =>
    [s.attributes.given_name, s.attributes.family_name].filter((v) => typeof v === "string").join(" ");

  return (
    <div className={ui.page}>
      <h1 className={ui.h1}>{m.title}</h1>
      <p className={ui.muted}>{m.intro}</p>
      <Notice error={error} />
      <ConsoleForm action="/console/subscribers/find" csrfToken={csrfToken} className={ui.section}>
        <h2 className={ui.h2}>{m.search.legend}</h2>
        <div>
          <label className={ui.label} htmlFor="number">{m.search.number}</label>
          <p id="number-help" className={`${ui.muted} text-sm`}>{m.search.numberHelp}</p>
          <input id="number" name="number" type="tel" autoComplete="off" required aria-describedby="number-help"
            aria-invalid={e === "bad" ? true : undefined} className={ui.input} />
        </div>
        <button type="submit" className={ui.button}>{m.search.submit}</button>
      </ConsoleForm>
      <form method="get" action="/console/subscribers" className={ui.section}>
        <h2 className={ui.h2}>{m.list.legend}</h2>
        <div>
          <label className={ui.label} htmlFor="status">{m.list.status}</label>
          <select id="status" name="status" defaultValue={status ?? ""} className={ui.input}>
            <option value="">{m.list.any}</option>
            {STATUSES.map((s) => <option key={s} value={s}>{m.status[s]}</option>)}
          </select>
        </div>
        <button type="submit" className={ui.button}>{m.list.submit}</button>
      </form>
      {rows.length === 0 ? <p>{m.list.empty}</p> : (
        <ConsoleTable caption={m.list.caption}
          columns={[m.list.number, m.list.name, m.list.state, m.list.lock, m.list.created]}>
          {rows.map((s) => (
            <tr key={s.id}>
              <th scope="row" className={ui.td}>
                <Link prefetch={false} className={ui.link} href={`/console/subscribers/${encodeURIComponent(s.id)}`}>
                  {`+${s.msisdn}`}
                </Link>
              </th>
              <td className={ui.td}>{name(s)}</td>
              <td className={ui.td}>{m.status[s.status] ?? s.status}</td>
              <td className={ui.td}>
                {s.lockedUntil && s.lockedUntil > now ? m.pinLocked(consoleTime(s.lockedUntil)) : m.pinOk}
              </td>
              <td className={ui.td}>{consoleTime(s.createdAt)}</td>
            </tr>
          ))}
        </ConsoleTable>
      )}
      {(after || next) && (
        <nav aria-label={m.list.caption} className="flex gap-4">
          {after && <Link prefetch={false} className={ui.link} href={pageLink()}>{m.list.first}</Link>}
          {next && <Link prefetch={false} className={ui.link} href={pageLink(next)}>{m.list.next}</Link>}
        </nav>
      )}
    </div>
  );
}
