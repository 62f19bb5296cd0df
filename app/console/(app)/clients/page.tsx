import Link from "next/link";
import { consolePage } from "@/lib/console/console-page";
import { clientsMessages } from "@/lib/console/messages/clients";
import { roleAllows } from "@/lib/console/roles";
import { listClients } from "@/lib/clients/list-clients";
import { ConsoleForm, ui, ConsoleTable } from "@/components/console/console-ui";
import { ClientFields } from "@/components/console/clients-form";

// GET /console/clients - every registered client (all roles); administrators also register one here.
export default async function ConsoleClients() {
  const { staff, csrfToken, t } = await consolePage("viewer");
  const m = t(clientsMessages);
  const clients = await listClients();
  return (
    <div className={ui.page}>
      <h1 className={ui.h1}>{m.title}</h1>
      <p>{m.intro}</p>
      {clients.length === 0 ? <p>{m.empty}</p> : (
        <ConsoleTable caption={m.caption}
          columns={[m.columns.id, m.columns.name, m.columns.profile, m.columns.type, m.columns.state]}>
          {clients.map((c) => (
            <tr key={c.id}>
              <th scope="row" className={`${ui.td} font-mono font-normal`}>
                <Link className={ui.link} href={`/console/clients/${encodeURIComponent(c.id)}`}>{c.id}</Link>
              </th>
              <td className={ui.td}>{c.name}</td>
              <td className={ui.td}>{c.profile}</td>
              <td className={ui.td}>{m.type[c.isPublic ? "public" : "confidential"]}</td>
              <td className={ui.td}>{m.state[c.status === "disabled" ? "disabled" : "enabled"]}</td>
            </tr>
          ))}
        </ConsoleTable>
      )}
      {roleAllows(staff.role, "admin") && (
        <section className={ui.section} aria-labelledby="create-client">
          <h2 id="create-client" className={ui.h2}>{m.create.title}</h2>
          <ConsoleForm action="/console/clients/create" csrfToken={csrfToken} className="space-y-3">
            <div>
              <label className={ui.label} htmlFor="name">{m.create.name}</label>
              <input id="name" name="name" required maxLength={64} className={ui.input} />
            </div>
            <fieldset>
              <legend className={ui.label}>{m.create.kind}</legend>
              <div>
                <input type="radio" id="kind_confidential" name="kind" value="confidential" defaultChecked />{" "}
                <label htmlFor="kind_confidential">{m.create.confidential}</label>
              </div>
              <div>
                <input type="radio" id="kind_public" name="kind" value="public" />{" "}
                <label htmlFor="kind_public">{m.create.public}</label>
              </div>
            </fieldset>
            <ClientFields m={m} />
            <button type="submit" className={ui.button}>{m.create.submit}</button>
          </ConsoleForm>
        </section>
      )}
    </div>
  );
}
