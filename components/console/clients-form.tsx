import { CLIENT_GRANT_TYPES } from "@/lib/clients/client-security";
import type { ClientRecord } from "@/lib/clients/client-record";
import type { ClientsMessages } from "@/lib/console/messages/clients";
import { ui } from "./console-ui";

/**
 * The client settings fields shared by the create and edit forms (read back by lib/console/clients/client-form.ts):
 * one URI per line, scopes space-separated, one checkbox per grant type. `client` fills them for editing.
 */
export function ClientFields({ m, client }: { m: ClientsMessages; client?: ClientRecord }) {
  const f = m.form;
  const grants: readonly string[] = client?.grantTypes ?? ["authorization_code", "refresh_token"];
  return (
    <>
      <div>
        <label className={ui.label} htmlFor="redirect_uris">{f.redirectUris}</label>
        <textarea id="redirect_uris" name="redirect_uris" required rows={3} className={`${ui.input} w-full font-mono`}
          defaultValue={client?.redirectUris.join("\n")} />
      </div>
      <div>
        <label className={ui.label} htmlFor="post_logout_redirect_uris">{f.postLogoutUris}</label>
        <textarea id="post_logout_redirect_uris" name="post_logout_redirect_uris" rows={2}
          className={`${ui.input} w-full font-mono`} defaultValue={client?.postLogoutRedirectUris.join("\n")} />
      </div>
      <div>
        <label className={ui.label} htmlFor="scopes">{f.scopes}</label>
        <input id="scopes" name="scopes" required className={`${ui.input} w-full font-mono`}
          defaultValue={client ? client.allowedScopes.join(" ") : "openid"} />
      </div>
      <div className="flex flex-wrap gap-4">
        <div>
          <label className={ui.label} htmlFor="profile">{f.profile}</label>
          <select id="profile" name="profile" className={ui.input} defaultValue={client?.profile ?? "oidc"}>
            {Object.entries(f.profiles).map(([v, label]) => <option key={v} value={v}>{label}</option>)}
          </select>
        </div>
        <div>
          <label className={ui.label} htmlFor="expires_in">{f.expiresIn}</label>
          <select id="expires_in" name="expires_in" className={ui.input} defaultValue={client?.expiresInFormat ?? "default"}>
            {Object.entries(f.expiresInOptions).filter(([v]) => !client || v !== "default")
              .map(([v, label]) => <option key={v} value={v}>{label}</option>)}
          </select>
        </div>
        <div>
          <label className={ui.label} htmlFor="auth_method">{f.authMethod}</label>
          <select id="auth_method" name="auth_method" className={ui.input} defaultValue={client?.authMethod ?? "default"}>
            {Object.entries(f.authMethods).map(([v, label]) => <option key={v} value={v}>{label}</option>)}
          </select>
        </div>
      </div>
      <div>
        <label className={ui.label} htmlFor="jwks_uri">{f.jwksUri}</label>
        <input id="jwks_uri" name="jwks_uri" type="url" className={`${ui.input} w-full font-mono`}
          defaultValue={client?.jwksUri ?? ""} />
      </div>
      <fieldset>
        <legend className={ui.label}>{f.grantTypes}</legend>
        {CLIENT_GRANT_TYPES.map((g, i) => (
          <div key={g}>
            <input type="checkbox" id={`grant_${i}`} name={`grant_${i}`} defaultChecked={grants.includes(g)} />{" "}
            <label htmlFor={`grant_${i}`} className="font-mono">{g}</label>
          </div>
        ))}
      </fieldset>
      <fieldset>
        <legend className={ui.label}>{f.requirements}</legend>
        {([["require_par", f.requirePar, client?.requirePushedAuthorizationRequests],
          ["require_dpop", f.requireDpop, client?.dpopBoundAccessTokens],
          ["require_signed_request", f.requireSignedRequest, client?.requireSignedRequestObject]] as const)
          .map(([name, label, on]) => (
            <div key={name}>
              <input type="checkbox" id={name} name={name} defaultChecked={on ?? false} />{" "}
              <label htmlFor={name}>{label}</label>
            </div>
          ))}
      </fieldset>
    </>
  );
}
