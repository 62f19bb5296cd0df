import { messageFor } from "@/lib/console/messages/localise";
import Link from "next/link";
import { notFound } from "next/navigation";
import { consolePage } from "@/lib/console/console-page";
import { clientsMessages } from "@/lib/console/messages/clients";
import { roleAllows } from "@/lib/console/roles";
import { getClientOrThrow } from "@/lib/clients/get-client-or-throw";
import { AdminError } from "@/lib/admin/admin-error";
import { ConsoleForm, Notice, ui } from "@/components/console/console-ui";
import { ClientFields } from "@/components/console/clients-form";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

// GET /console/clients/{id} - one client's settings (never its secret hash); administrators edit, rotate its
// secret, disable or enable it here, and revoke a disabled client's tokens again.
export default async function ConsoleClient({ params, searchParams }: Props) {
  const { staff, csrfToken, t } = await consolePage("viewer");
  const m = t(clientsMessages);
  const { id } = await params;
  const q = await searchParams;
  const c = await getClientOrThrow({ clientId: id }).catch((err: unknown) => {
    if (err instanceof AdminError) notFound();
    throw err;
  });
  const d = m.detail;
  const admin = roleAllows(staff.role, "admin");
  const done = messageFor(m.done, q.done);
  const when = (at: Date) => at.toISOString().replace(/\.\d+Z$/, "Z");
  const list = (v: readonly string[]) => (v.length ? <ul>{v.map((x) => <li key={x} className="font-mono">{x}</li>)}</ul>
    : d.none);
  const requirements = [
    c.requirePushedAuthorizationRequests && "PAR", c.dpopBoundAccessTokens && "DPoP",
    c.requireSignedRequestObject && "signed request object",
  ].filter((x): x is string => Boolean(x));
  const rows: Array<[string, React.ReactNode]> = [
    [d.id, <code key="id">{c.id}</code>],
    [d.name, c.name],
    [d.state, m.state[c.status === "disabled" ? "disabled" : "enabled"]],
    [d.type, m.type[c.isPublic ? "public" : "confidential"]],
    [d.secret, c.hasSecret ? d.secretSet : d.secretNone],
    [d.profile, c.profile],
    [d.expiresIn, c.expiresInFormat],
    [d.redirectUris, list(c.redirectUris)],
    [d.postLogoutUris, list(c.postLogoutRedirectUris)],
    [d.scopes, list(c.allowedScopes)],
    [d.sector, c.sectorIdentifier],
    [d.authMethod, c.authMethod ?? (c.isPublic ? "none" : "client_secret_basic, client_secret_post")],
    [d.jwksUri, c.jwksUri ?? d.none],
    [d.jwksKeys, list((c.jwks?.keys ?? []).map((k) => `${k.kid ?? "-"} ${k.kty}${k.alg ? ` ${k.alg}` : ""}`))],
    [d.grantTypes, list(c.grantTypes)],
    [d.requirements, requirements.length ? requirements.join(", ") : d.none],
    [d.registeredBy, c.registeredBy],
    [d.created, when(c.createdAt)],
    [d.updated, when(c.updatedAt)],
  ];
  return (
    <div className={ui.page}>
      <p><Link className={ui.link} href="/console/clients">{m.back}</Link></p>
      <h1 className={ui.h1}>{c.name}</h1>
      <Notice done={done} />
      <section className={ui.section} aria-labelledby="settings">
        <h2 id="settings" className={ui.h2}>{d.settings}</h2>
        <table className={ui.table}>
          <tbody>
            {rows.map(([k, v]) => (
              <tr key={k}><th scope="row" className={ui.th}>{k}</th><td className={ui.td}>{v}</td></tr>
            ))}
          </tbody>
        </table>
      </section>
      {admin && (
        <>
          <section className={ui.section} aria-labelledby="edit">
            <h2 id="edit" className={ui.h2}>{m.edit.title}</h2>
            <p className={ui.muted}>{m.edit.note}</p>
            <ConsoleForm action="/console/clients/update" csrfToken={csrfToken} className="space-y-3">
              <input type="hidden" name="client_id" value={c.id} />
              <ClientFields m={m} client={c} />
              <button type="submit" className={ui.button}>{m.edit.submit}</button>
            </ConsoleForm>
          </section>
          {c.hasSecret && (
            <section className={ui.section} aria-labelledby="rotate">
              <h2 id="rotate" className={ui.h2}>{m.rotate.title}</h2>
              <p>{m.rotate.note}</p>
              <ConsoleForm action="/console/clients/rotate-secret" csrfToken={csrfToken}>
                <input type="hidden" name="client_id" value={c.id} />
                <button type="submit" className={ui.button}>{m.rotate.submit}</button>
              </ConsoleForm>
            </section>
          )}
          <section className={ui.section} aria-labelledby="state">
            <h2 id="state" className={ui.h2}>{c.status === "disabled" ? m.enable.title : m.disable.title}</h2>
            <p>{c.status === "disabled" ? m.enable.note : m.disable.note}</p>
            <ConsoleForm action={c.status === "disabled" ? "/console/clients/enable" : "/console/clients/disable"} csrfToken={csrfToken}>
              <input type="hidden" name="client_id" value={c.id} />
              <button type="submit" className={c.status === "disabled" ? ui.button : ui.danger}>
                {c.status === "disabled" ? m.enable.submit : m.disable.submit}
              </button>
            </ConsoleForm>
          </section>
          {c.status === "disabled" && (
            <section className={ui.section} aria-labelledby="revoke-again">
              <h2 id="revoke-again" className={ui.h2}>{m.revokeAgain.title}</h2>
              <p>{m.revokeAgain.note}</p>
              <ConsoleForm action="/console/clients/disable" csrfToken={csrfToken}>
                <input type="hidden" name="client_id" value={c.id} />
                <button type="submit" className={ui.danger}>{m.revokeAgain.submit}</button>
              </ConsoleForm>
            </section>
          )}
        </>
      )}
    </div>
  );
}
