import { messageFor } from "@/lib/console/messages/localise";
import { consolePage } from "@/lib/console/console-page";
import { keysMessages } from "@/lib/console/messages/keys";
import { roleAllows } from "@/lib/console/roles";
import { listKeys } from "@/lib/keys/list-keys";
import { getKeys } from "@/lib/keys/key-store";
import { ConsoleForm, Notice, ui, ConsoleTable } from "@/components/console/console-ui";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const USES = ["sig", "enc"] as const;

// GET /console/keys - the next / active / retired timeline of the service's keys per use (all roles); administrators
// rotate a use's key, or remove a retired key from the JWKS before its remove-after time (confirmed).
export default async function ConsoleKeys({ searchParams }: Props) {
  const { staff, csrfToken, t } = await consolePage("viewer");
  const m = t(keysMessages);
  const q = await searchParams;
  await getKeys(); // creates the key set on a fresh database, as the first signature would (cached otherwise)
  const keys = await listKeys();
  const admin = roleAllows(staff.role, "admin");
  const when = (at: Date | null) => (at ? at.toISOString().replace(/\.\d+Z$/, "Z") : "–");
  const c = m.columns;
  return (
    <div className={ui.page}>
      <h1 className={ui.h1}>{m.title}</h1>
      <p>{m.intro}</p>
      <Notice done={messageFor(m.done, q.done)}
        error={messageFor(m.errors, q.e)} />
      {USES.map((use) => {
        const mine = keys.filter((k) => k.use === use);
        return (
          <section key={use} className={ui.section} aria-labelledby={`use-${use}`}>
            <h2 id={`use-${use}`} className={ui.h2}>{m.uses[use]}</h2>
            {mine.length === 0 ? <p>{m.empty}</p> : (
              <div className="overflow-x-auto">
                <ConsoleTable caption={m.caption(use)}
                  columns={[c.kid, c.alg, c.status, c.created, c.activated, c.retired, c.removeAfter, c.published,
                    ...(admin ? [c.actions] : [])]}>
                  {mine.map((k) => (
                    <tr key={k.kid}>
                      <th scope="row" className={`${ui.td} font-mono font-normal`}>{k.kid}</th>
                      <td className={ui.td}>{k.alg}</td>
                      <td className={ui.td}>{m.status[k.status] ?? k.status}</td>
                      <td className={ui.td}>{when(k.createdAt)}</td>
                      <td className={ui.td}>{when(k.activatedAt)}</td>
                      <td className={ui.td}>{when(k.retiredAt)}</td>
                      <td className={ui.td}>{when(k.removeAfter)}</td>
                      <td className={ui.td}>{k.published ? m.yes : m.no}</td>
                      {admin && (
                        <td className={ui.td}>
                          {k.status === "retired" && k.published && (
                            <ConsoleForm action="/console/keys/unpublish" csrfToken={csrfToken} className="space-y-1">
                              <input type="hidden" name="kid" value={k.kid} />
                              <div>
                                <input type="checkbox" id={`confirm-${k.kid}`} name="confirm" value="yes" required />{" "}
                                <label htmlFor={`confirm-${k.kid}`}>{m.unpublish.confirm(k.kid)}</label>
                              </div>
                              <button type="submit" className={ui.danger}>{m.unpublish.submit}</button>
                            </ConsoleForm>
                          )}
                        </td>
                      )}
                    </tr>
                  ))}
                </ConsoleTable>
              </div>
            )}
            {admin && (
              <ConsoleForm action="/console/keys/rotate" csrfToken={csrfToken} className="space-y-1">
                <input type="hidden" name="use" value={use} />
                <p className={ui.muted}>{m.rotate.note}</p>
                <button type="submit" className={ui.button}>{m.rotate.submit(use)}</button>
              </ConsoleForm>
            )}
          </section>
        );
      })}
    </div>
  );
}
