import { messageFor } from "@/lib/console/messages/localise";
import { consolePage } from "@/lib/console/console-page";
import { shellMessages } from "@/lib/console/messages/shell";
import { staffMessages } from "@/lib/console/messages/staff";
import { listStaff } from "@/lib/console/staff-accounts";
import { STAFF_ROLES } from "@/lib/console/roles";
import { ConsoleForm, Notice, ui, ConsoleTable } from "@/components/console/console-ui";

type Search = Promise<Record<string, string | string[] | undefined>>;

/**
 * GET /console/staff - the staff accounts (admin only): username, role, status, lockout, last sign-in,
 * and per member: change role, disable or enable (which also lifts a lockout), reset credentials; and a
 * form to add a member. New credentials are shown once, by the action's answer (lib/console/staff-action.ts).
 */
export default async function StaffPage({ searchParams }: { searchParams: Search }) {
  const { staff: me, lang, csrfToken, t } = await consolePage("admin");
  const m = t(staffMessages);
  const roles = t(shellMessages).roles;
  const q = await searchParams;
  const members = await listStaff();
  const now = new Date();
  const when = (d: Date | null) => d ? d.toLocaleString(lang === "fr" ? "fr-FR" : "en-GB", { timeZone: "UTC",
    dateStyle: "medium", timeStyle: "short" }) + " UTC" : null;
  const done = messageFor(m.done, q.done);
  const error = messageFor(m.errors, q.e);
  return (
    <div className={ui.page}>
      <h1 className={ui.h1}>{m.title}</h1>
      <p className={ui.muted}>{m.intro}</p>
      <Notice done={done} error={error} />
      <section className={ui.section} aria-labelledby="staff-create">
        <h2 id="staff-create" className={ui.h2}>{m.create.title}</h2>
        <ConsoleForm action="/console/staff/create" csrfToken={csrfToken} className="flex flex-wrap items-end gap-3">
          <p>
            <label htmlFor="new-username" className={ui.label}>{m.create.username}</label>
            <input id="new-username" name="username" required pattern="[a-z0-9][a-z0-9._\-]{1,62}" autoComplete="off"
              aria-describedby="new-username-help" className={ui.input} />
            <span id="new-username-help" className={`block text-sm ${ui.muted}`}>{m.create.usernameHelp}</span>
          </p>
          <p>
            <label htmlFor="new-role" className={ui.label}>{m.create.role}</label>
            <select id="new-role" name="role" defaultValue="viewer" className={ui.input}>
              {STAFF_ROLES.map((r) => <option key={r} value={r}>{roles[r]}</option>)}
            </select>
          </p>
          <p><button type="submit" className={ui.button}>{m.create.submit}</button></p>
        </ConsoleForm>
      </section>
      {members.length === 0 ? <p>{m.list.empty}</p> : (
        <ConsoleTable caption={m.list.caption}
          columns={[m.list.username, m.list.role, m.list.status, m.list.lockedUntil, m.list.lastSignIn,
            m.list.actions]}>
          {members.map((s) => {
            const self = s.username === me.username;
            const roleId = `role-${s.id}`;
            return (
              <tr key={s.id}>
                <th scope="row" className={ui.td}>{s.username} {self && <span className={ui.muted}>{m.list.you}</span>}</th>
                <td className={ui.td}>{roles[s.role] ?? s.role}</td>
                <td className={ui.td}>{s.disabled ? m.list.disabled : m.list.enabled}</td>
                <td className={ui.td}>{s.lockedUntil && s.lockedUntil > now ? when(s.lockedUntil) : m.list.none}</td>
                <td className={ui.td}>{when(s.lastSignInAt) ?? m.list.never}</td>
                <td className={`${ui.td} space-y-2`}>
                  <ConsoleForm action="/console/staff/role" csrfToken={csrfToken} className="flex flex-wrap items-end gap-2">
                    <input type="hidden" name="username" value={s.username} />
                    <label htmlFor={roleId} className="sr-only">{m.roleChange.label(s.username)}</label>
                    <select id={roleId} name="role" defaultValue={s.role} className={ui.input}>
                      {STAFF_ROLES.map((r) => <option key={r} value={r}>{roles[r]}</option>)}
                    </select>
                    <button type="submit" className={ui.secondary} aria-label={`${m.roleChange.submit}: ${s.username}`}>
                      {m.roleChange.submit}
                    </button>
                  </ConsoleForm>
                  <div className="flex flex-wrap gap-2">
                    <ConsoleForm action={`/console/staff/${s.disabled ? "enable" : "disable"}`} csrfToken={csrfToken}>
                      <input type="hidden" name="username" value={s.username} />
                      <button type="submit" className={s.disabled ? ui.secondary : ui.danger}
                        aria-label={`${s.disabled ? m.enable.submit : m.disable.submit}: ${s.username}`}>
                        {s.disabled ? m.enable.submit : m.disable.submit}
                      </button>
                    </ConsoleForm>
                    {!s.disabled && s.lockedUntil && s.lockedUntil > now && (
                      <ConsoleForm action="/console/staff/enable" csrfToken={csrfToken}>
                        <input type="hidden" name="username" value={s.username} />
                        <button type="submit" className={ui.secondary} aria-label={`${m.unlock}: ${s.username}`}>{m.unlock}</button>
                      </ConsoleForm>
                    )}
                    <ConsoleForm action="/console/staff/reset" csrfToken={csrfToken}>
                      <input type="hidden" name="username" value={s.username} />
                      <button type="submit" className={ui.secondary} aria-label={`${m.reset.submit}: ${s.username}`}>
                        {m.reset.submit}
                      </button>
                    </ConsoleForm>
                  </div>
                </td>
              </tr>
            );
          })}
        </ConsoleTable>
      )}
    </div>
  );
}
