import { messageFor } from "@/lib/console/messages/localise";
import Link from "next/link";
import { notFound } from "next/navigation";
import { headers } from "next/headers";
import { consolePage } from "@/lib/console/console-page";
import { subscriberMessages } from "@/lib/console/messages/subscribers";
import { loadSubscriberView } from "@/lib/console/subscribers/load-subscriber-view";
import { queryParam } from "@/lib/console/subscribers/query-param";
import { consoleTime } from "@/lib/console/audit/console-time";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { clientIp } from "@/lib/http/client-ip";
import { ConsoleForm, Notice, ui, ConsoleTable } from "@/components/console/console-ui";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

// GET /console/subscribers/<id> - care and admin: one subscriber (account, PIN lockout, attributes, handsets,
// consents, sign-ins, audit events) and the care actions. Every opening is audited (console_subscribers_view).
export default async function SubscriberPage({ params, searchParams }: Props) {
  const { staff, csrfToken, t } = await consolePage("care");
  const m = t(subscriberMessages);
  const [{ id }, query, h] = await Promise.all([params, searchParams, headers()]);
  const view = id.length <= 100 ? await loadSubscriberView({ id }) : null;
  if (!view) notFound();
  await recordAuditEvent({ type: "console_subscribers_view", outcome: "success", subscriberId: view.subscriber.id,
    staffId: staff.id, ip: clientIp(h) });
  const { subscriber: s, devices, consents, signIns, events, clientNames, staffNames } = view;
  const done = messageFor(m.done, queryParam(query, "done", 40));
  const error = messageFor(m.errors, queryParam(query, "e", 40));
  const now = new Date();
  const locked = s.lockedUntil !== null && s.lockedUntil > now;
  const app = (clientId: string | null) => (clientId ? clientNames.get(clientId) ?? clientId : "");
  const o = m.one;
  const hidden = <input type="hidden" name="id" value={s.id} />;

  return (
    <div className={ui.page}>
      <p><Link prefetch={false} className={ui.link} href="/console/subscribers">{o.back}</Link></p>
      <h1 className={ui.h1}>{o.title(`+${s.msisdn}`)}</h1>
      <Notice done={done} error={error} />

      <section className={ui.section} aria-labelledby="account">
        <h2 id="account" className={ui.h2}>{o.account}</h2>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
          <dt className="font-medium">{o.status}</dt><dd>{m.status[s.status] ?? s.status}</dd>
          <dt className="font-medium">{o.created}</dt><dd>{consoleTime(s.createdAt)}</dd>
          <dt className="font-medium">{o.pin}</dt><dd>{s.hasPin ? o.pinSet : o.pinUnset}</dd>
          <dt className="font-medium">{o.failed}</dt><dd>{s.failedPinAttempts}</dd>
          <dt className="font-medium">{o.lockouts}</dt><dd>{s.lockoutCount}</dd>
          <dt className="font-medium">{o.lockedUntil}</dt><dd>{locked ? consoleTime(s.lockedUntil) : o.notLocked}</dd>
        </dl>
      </section>

      <section className={ui.section} aria-labelledby="actions">
        <h2 id="actions" className={ui.h2}>{o.actions}</h2>
        <ConsoleForm action="/console/subscribers/unlock" csrfToken={csrfToken} className="space-y-1">
          {hidden}
          <p className={ui.muted}>{o.unlockNote}</p>
          <button type="submit" className={ui.button}>{o.unlock}</button>
        </ConsoleForm>
        {s.status === "suspended" ? (
          <ConsoleForm action="/console/subscribers/resume" csrfToken={csrfToken} className="space-y-1">
            {hidden}
            <p className={ui.muted}>{o.resumeNote}</p>
            <button type="submit" className={ui.button}>{o.resume}</button>
          </ConsoleForm>
        ) : (
          <ConsoleForm action="/console/subscribers/suspend" csrfToken={csrfToken} className="space-y-1">
            {hidden}
            <p className={ui.muted}>{o.suspendNote}</p>
            <p>
              <input id="confirm-suspend" type="checkbox" name="confirm" value="yes" required className="mr-2" />
              <label htmlFor="confirm-suspend">{o.suspendConfirm}</label>
            </p>
            <button type="submit" className={ui.danger}>{o.suspend}</button>
          </ConsoleForm>
        )}
      </section>

      <section className={ui.section} aria-labelledby="attributes">
        <h2 id="attributes" className={ui.h2}>{o.attributes}</h2>
        {Object.keys(s.attributes).length === 0 ? <p>{o.noAttributes}</p> : (
          <ConsoleTable columns={[o.attribute, o.value]}>
            {Object.entries(s.attributes).map(([k, v]) => (
              <tr key={k}>
                <th scope="row" className={ui.td}><code>{k}</code></th>
                <td className={ui.td}>{typeof v === "boolean" ? (v ? o.yes : o.no) : v}</td>
              </tr>
            ))}
          </ConsoleTable>
        )}
      </section>

      <section className={ui.section} aria-labelledby="handsets">
        <h2 id="handsets" className={ui.h2}>{o.handsets}</h2>
        {devices.length === 0 ? <p>{o.noHandsets}</p> : (
          <ConsoleTable columns={[o.handset, o.enrolled, o.lastSeen, o.handsetState]}>
            {devices.map((d) => (
              <tr key={d.id}>
                <th scope="row" className={ui.td}>{d.name}</th>
                <td className={ui.td}>{consoleTime(d.createdAt)}</td>
                <td className={ui.td}>{d.lastSeenAt ? consoleTime(d.lastSeenAt) : o.never}</td>
                <td className={ui.td}>
                  {d.revokedAt ? o.removed(consoleTime(d.revokedAt)) : (
                    <ConsoleForm action="/console/subscribers/revoke" csrfToken={csrfToken}>
                      {hidden}
                      <input type="hidden" name="device" value={d.id} />
                      <span className="mr-2">{o.inUse}</span>
                      <button type="submit" className={ui.secondary}>{o.removeHandset(d.name)}</button>
                    </ConsoleForm>
                  )}
                </td>
              </tr>
            ))}
          </ConsoleTable>
        )}
      </section>

      <section className={ui.section} aria-labelledby="consents">
        <h2 id="consents" className={ui.h2}>{o.consents}</h2>
        {consents.length === 0 ? <p>{o.noConsents}</p> : (
          <ConsoleTable columns={[o.app, o.scopes, o.since]}>
            {consents.map((g) => (
              <tr key={g.clientId}>
                <th scope="row" className={ui.td}>
                  {clientNames.get(g.clientId) ?? o.unknownApp} <code>{g.clientId}</code>
                </th>
                <td className={ui.td}>{g.scopes.join(" ")}</td>
                <td className={ui.td}>{consoleTime(g.createdAt)}</td>
              </tr>
            ))}
          </ConsoleTable>
        )}
      </section>

      <section className={ui.section} aria-labelledby="sign-ins">
        <h2 id="sign-ins" className={ui.h2}>{o.signIns}</h2>
        {signIns.length === 0 ? <p>{o.noSignIns}</p> : (
          <ConsoleTable columns={[o.at, o.app, o.level, o.method]}>
            {signIns.map((x, i) => (
              <tr key={i}>
                <th scope="row" className={ui.td}>{consoleTime(x.at)}</th>
                <td className={ui.td}>{app(x.clientId)}</td>
                <td className={ui.td}>{x.acr ?? ""}</td>
                <td className={ui.td}>{x.method ?? ""}</td>
              </tr>
            ))}
          </ConsoleTable>
        )}
      </section>

      <section className={ui.section} aria-labelledby="events">
        <h2 id="events" className={ui.h2}>{o.events}</h2>
        <p className={`${ui.muted} break-all`}>{o.eventsNote(view.subscriberRef)}</p>
        <p>
          <Link prefetch={false} className={ui.link}
            href={`/console/audit?subscriber=${encodeURIComponent(view.subscriberRef)}`}>{o.allEvents}</Link>
        </p>
        {events.length === 0 ? <p>{o.noEvents}</p> : (
          <ConsoleTable columns={[o.at, o.type, o.outcome, o.client, o.staff]}>
            {events.map((e) => (
              <tr key={e.id}>
                <th scope="row" className={ui.td}>{consoleTime(e.at)}</th>
                <td className={ui.td}><code>{e.type}</code></td>
                <td className={ui.td}>{e.outcome}</td>
                <td className={ui.td}>{app(e.clientId)}</td>
                <td className={ui.td}>{e.staffId ? staffNames.get(e.staffId) ?? "?" : ""}</td>
              </tr>
            ))}
          </ConsoleTable>
        )}
      </section>
    </div>
  );
}
