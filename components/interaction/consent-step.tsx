import { describeConsent } from "@/lib/interaction/describe-consent";
import type { AuthorizationParams } from "@/lib/oauth/authorize/types";
import { ScreenForm } from "./screen-form";
import type { StepProps } from "./step-props";

/**
 * Consent: names the relying party, says what each scope allows, lists the attributes shared, and
 * for `mc_authz` shows `context` and `binding_message` (rendered as text: React escapes them).
 */
export function ConsentStep({ id, csrf, t, ui, clientName, params, maskedMsisdn }: StepProps & {
  params: AuthorizationParams; maskedMsisdn?: string;
}) {
  const { scopeLines, attributes } = describeConsent({ scopes: params.scopes, t });
  const authz = params.scopes.includes("mc_authz");
  return (
    <div className={ui.stack}>
      <h1 className={ui.heading}>{t.consent.title(clientName)}</h1>
      {maskedMsisdn && <p className={`${ui.text} ${ui.muted}`}>{maskedMsisdn}</p>}
      {authz && (
        <section aria-labelledby="transaction" className="rounded-md border border-amber-300 bg-amber-50 p-3">
          <h2 id="transaction" className="font-semibold">{t.consent.transaction}</h2>
          <dl className={ui.text}>
            <dt className={ui.muted}>{t.consent.context}</dt>
            <dd id="context" className="mb-2 break-words whitespace-pre-wrap">{params.context}</dd>
            {params.bindingMessage !== undefined && (
              <>
                <dt className={ui.muted}>{t.consent.bindingMessage}</dt>
                <dd id="binding-message" className="font-mono break-words">{params.bindingMessage}</dd>
              </>
            )}
          </dl>
        </section>
      )}
      <p className={ui.text} id="scopes-label">{t.consent.intro(clientName)}</p>
      <ul className={`${ui.text} list-disc pl-6`} id="scopes" aria-labelledby="scopes-label">
        {scopeLines.map((s) => <li key={s.scope}>{s.text}</li>)}
      </ul>
      {attributes.length > 0 && (
        <>
          <p className={ui.text} id="attributes-label">{t.consent.attributes}</p>
          <ul className={`${ui.text} list-disc pl-6`} id="attributes" aria-labelledby="attributes-label">
            {attributes.map((a) => <li key={a}>{a}</li>)}
          </ul>
        </>
      )}
      <p className={`text-sm ${ui.muted}`}>{authz ? t.consent.notRemembered : t.consent.remembered}</p>
      <ScreenForm id={id} step="consent" csrf={csrf} className={ui.row}>
        <button type="submit" name="decision" value="deny" id="deny" className={ui.secondary}>{t.consent.deny}</button>
        <button type="submit" name="decision" value="allow" id="allow" className={ui.primary}>{t.consent.allow}</button>
      </ScreenForm>
    </div>
  );
}
