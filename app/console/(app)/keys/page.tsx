import { messageFor } from "@/lib/console/messages/localise";
import { consolePage } from "@/lib/console/console-page";
import { keysMessages } from "@/lib/console/messages/keys";
import { roleAllows } from "@/lib/console/roles";
import { listKeys } from "@/lib/keys/list-keys";
import { getKeys, ENC_ALG, SIGNING_ALGS } from "@/lib/keys/key-store";
import { ConsoleForm, Notice, ui, ConsoleTable } from "@/components/console/console-ui";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** One timeline per use and algorithm: each signing algorithm has its own keys and rotation (lib/keys/key-store.ts). */
const GROUPS = [...SIGNING_ALGS.map((alg) => ({ use: "sig", alg })), { use: "enc", alg: ENC_ALG }] as const;

// GET /console/keys - the next / active / retired timeline of the service's keys per use and alg (all roles);
// administrators rotate one use and alg's key, or remove a retired key from the JWKS before its remove-after time
// (confirmed).
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
      {GROUPS.map(({ use, alg }) => {
        const mine = keys.filter((k) => k.use === use && k.alg === alg);
        const label = use === "sig" ? `${use} ${alg}` : use;
        return (
          <section key={label} className={ui.section} aria-labelledby={`use-${use}-${alg}`}>
            <h2 id={`use-${use}-${alg}`} className={ui.h2}>{m.uses[use]}{use === "sig" ? ` · ${alg}` : ""}</h2>
            {mine.length === 0 ? <p>{m.empty}</p> : (
              <div className="overflow-x-auto">
                <ConsoleTable caption={m.caption(label)}
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
                {use === "sig" && <input type="hidden" name="alg" value={alg} />}
                <p className={ui.muted}>{m.rotate.note}</p>
                <button type="submit" className={ui.button}>{m.rotate.submit(label)}</button>
              </ConsoleForm>
            )}
          </section>
        );
      })}
    </div>
  );
}
