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
  const disabled = c.status === "disabled";
  const form = { clientId: c.id, csrfToken };
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
    [d.state, m.state[disabled ? "disabled" : "enabled"]],
    [d.type, m.type[c.isPublic ? "public" : "confidential"]],
    [d.secret, c.hasSecret ? d.secretSet : d.secretNone],
    [d.profile, c.profile],
    [d.expiresIn, c.expiresInFormat],
    [d.idTokenAlg, c.idTokenSignedResponseAlg],
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
              <div>
                <label className={ui.label} htmlFor="name">{m.create.name}</label>
                <input id="name" name="name" required maxLength={64} className={ui.input} defaultValue={c.name} />
              </div>
              <ClientFields m={m} client={c} />
              <button type="submit" className={ui.button}>{m.edit.submit}</button>
            </ConsoleForm>
          </section>
          {c.hasSecret && <ClientAction id="rotate" texts={m.rotate} action="/console/clients/rotate-secret" {...form} />}
          {disabled ? <ClientAction id="state" texts={m.enable} action="/console/clients/enable" {...form} />
            : <ClientAction id="state" texts={m.disable} action="/console/clients/disable" danger {...form} />}
          {disabled && <ClientAction id="revoke-again" texts={m.revokeAgain} action="/console/clients/disable" danger {...form} />}
        </>
      )}
    </div>
  );
}

/** One of the client page's actions: a titled section, what it does, and its button (a form naming the client). */
function ClientAction({ id, texts, action, danger = false, clientId, csrfToken }: {
  id: string; texts: { title: string; note: string; submit: string }; action: string; danger?: boolean;
  clientId: string; csrfToken: string;
}) {
  return (
    <section className={ui.section} aria-labelledby={id}>
      <h2 id={id} className={ui.h2}>{texts.title}</h2>
      <p>{texts.note}</p>
      <ConsoleForm action={action} csrfToken={csrfToken}>
        <input type="hidden" name="client_id" value={clientId} />
        <button type="submit" className={danger ? ui.danger : ui.button}>{texts.submit}</button>
      </ConsoleForm>
    </section>
  );
}
