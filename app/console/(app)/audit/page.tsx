import Link from "next/link";
import { consolePage } from "@/lib/console/console-page";
import { auditMessages } from "@/lib/console/messages/audit";
import { AUDIT_OUTCOMES, auditCursor, auditFilterOf, type AuditQuery } from "@/lib/console/audit/audit-query";
import { staffUsernames } from "@/lib/console/audit/staff-usernames";
import { consoleTime } from "@/lib/console/audit/console-time";
import { queryParam } from "@/lib/console/subscribers/query-param";
import { listAuditEvents, type AuditEventView } from "@/lib/audit/list-audit-events";
import { Notice, ui, ConsoleTable } from "@/components/console/console-ui";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const PAGE_SIZE = 50;

// GET /console/audit - every role: the audit log, filtered by time, type, client, outcome and subscriber pseudonym,
// newest first, paged by (at, id). Subscribers appear only as their pseudonym (an HMAC: nothing here reverses it).
export default async function AuditPage({ searchParams }: Props) {
  const { t } = await consolePage("viewer");
  const m = t(auditMessages);
  const raw = await searchParams;
  const q: AuditQuery = {
    from: queryParam(raw, "from", 40), to: queryParam(raw, "to", 40), type: queryParam(raw, "type", 100),
    client: queryParam(raw, "client", 255), outcome: queryParam(raw, "outcome", 20),
    subscriber: queryParam(raw, "subscriber", 100), before: queryParam(raw, "before", 100),
  };
  const filter = auditFilterOf(q, PAGE_SIZE + 1);
  const rows: AuditEventView[] = filter ? await listAuditEvents(filter) : [];
  const events = rows.slice(0, PAGE_SIZE);
  const staff = await staffUsernames({ staffIds: events.map((e) => e.staffId) });
  const link = (before?: string) => {
    const p = new URLSearchParams();
    for (const k of ["from", "to", "type", "client", "outcome", "subscriber"] as const) if (q[k]) p.set(k, q[k]);
    if (before) p.set("before", before);
    const s = p.toString();
    return `/console/audit${s ? `?${s}` : ""}`;
  };
  const next = rows.length > PAGE_SIZE ? auditCursor(events.at(-1)!) : null;
  const field = (name: keyof AuditQuery, label: string, type = "text", help?: string) => (
    <div>
      <label className={ui.label} htmlFor={`f-${name}`}>{label}</label>
      {help && <p id={`f-${name}-help`} className={`${ui.muted} text-sm`}>{help}</p>}
      <input id={`f-${name}`} name={name} type={type} defaultValue={q[name]} className={ui.input}
        aria-describedby={help ? `f-${name}-help` : undefined} />
    </div>
  );

  return (
    <div className={ui.page}>
      <h1 className={ui.h1}>{m.title}</h1>
      <p className={ui.muted}>{m.intro}</p>
      <Notice error={filter ? null : m.filter.bad} />
      <form method="get" action="/console/audit" className={ui.section}>
        <h2 className={ui.h2}>{m.filter.legend}</h2>
        <div className="flex flex-wrap gap-4">
          {field("from", m.filter.from, "datetime-local")}
          {field("to", m.filter.to, "datetime-local")}
          {field("type", m.filter.type, "text", m.filter.typeHelp)}
          {field("client", m.filter.client)}
          <div>
            <label className={ui.label} htmlFor="f-outcome">{m.filter.outcome}</label>
            <select id="f-outcome" name="outcome" defaultValue={q.outcome} className={ui.input}>
              <option value="">{m.filter.any}</option>
              {AUDIT_OUTCOMES.map((o) => <option key={o} value={o}>{m.outcomes[o]}</option>)}
            </select>
          </div>
          {field("subscriber", m.filter.subscriber)}
        </div>
        <p className="flex gap-4">
          <button type="submit" className={ui.button}>{m.filter.submit}</button>
          <Link prefetch={false} className={ui.link} href="/console/audit">{m.filter.clear}</Link>
        </p>
      </form>
      {events.length === 0 ? <p>{m.empty}</p> : (
        <div className="overflow-x-auto">
          <ConsoleTable caption={m.table.caption}
            columns={[m.table.at, m.table.type, m.table.outcome, m.table.subscriber, m.table.client, m.table.staff,
              m.table.ip, m.table.detail]}>
            {events.map((e) => (
              <tr key={e.id}>
                <th scope="row" className={`${ui.td} whitespace-nowrap`}>{consoleTime(e.at)}</th>
                <td className={ui.td}><code>{e.type}</code></td>
                <td className={ui.td}>{m.outcomes[e.outcome] ?? e.outcome}</td>
                <td className={ui.td}>
                  {e.subscriberRef && (
                    <Link prefetch={false} className={ui.link} title={e.subscriberRef}
                      href={`/console/audit?subscriber=${encodeURIComponent(e.subscriberRef)}`}>
                      <code>{e.subscriberRef.slice(0, 12)}</code>
                    </Link>
                  )}
                </td>
                <td className={ui.td}>{e.clientId ?? ""}</td>
                <td className={ui.td}>{e.staffId ? staff.get(e.staffId) ?? m.table.unknownStaff : ""}</td>
                <td className={ui.td}>{e.ip ?? ""}</td>
                <td className={`${ui.td} break-all`}>{e.detail ? <code>{JSON.stringify(e.detail)}</code> : ""}</td>
              </tr>
            ))}
          </ConsoleTable>
        </div>
      )}
      {(q.before || next) && (
        <nav aria-label={m.table.caption} className="flex gap-4">
          {q.before && <Link prefetch={false} className={ui.link} href={link()}>{m.first}</Link>}
          {next && <Link prefetch={false} className={ui.link} href={link(next)}>{m.next}</Link>}
        </nav>
      )}
    </div>
  );
}
