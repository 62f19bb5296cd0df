import { describeConsent, type SharedAttribute } from "@/lib/interaction/describe-consent";
import { servicePath } from "@/lib/interaction/screen-headers";
import type { AuthorizationParams } from "@/lib/oauth/authorize/types";
import { ScreenForm } from "./screen-form";
import type { StepProps } from "./step-props";

/**
 * Consent: names the relying party, says what each scope allows, and what of THIS subscriber would
 * be shared (`shared`, from chooseScreen(): only attributes the subscriber has), first as a short
 * summary (one line per group, names only) and then, except on WAP (names only: a feature phone has
 * no room, and no `<details>`), the values in a `<details>` element that opens without JavaScript,
 * so Allow and Deny stay within a popup's or a phone's first screen. For `mc_authz` it shows
 * `context` and `binding_message` (rendered as text: React escapes them). "Forget it" links to the
 * account page (in a new window from a popup, so the sign-in in the popup is not lost).
 */
export function ConsentStep({ id, csrf, t, ui, clientName, params, maskedMsisdn, shared = [] }: StepProps & {
  params: AuthorizationParams; maskedMsisdn?: string; shared?: readonly SharedAttribute[];
}) {
  const { scopeLines, groups } = describeConsent({ scopes: params.scopes, t, shared });
  const authz = params.scopes.includes("mc_authz");
  const wap = params.display === "wap";
  const popup = params.display === "popup";
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
      {groups.length > 0 && (
        <>
          <p className={ui.text} id="attributes-label">{t.consent.attributes}</p>
          <ul className={`${ui.text} list-disc pl-6`} id="attributes" aria-labelledby="attributes-label">
            {groups.map((g) => (
              <li key={g.group}>{t.consent.groupLine(g.label, g.attributes.map((a) => a.label).join(", "))}</li>
            ))}
          </ul>
          {!wap && (
            <details id="attribute-details" className={ui.text}>
              <summary className={`${ui.link} cursor-pointer`}>{t.consent.details}</summary>
              {groups.map((g) => (
                <section key={g.group} aria-labelledby={`group-${g.group}`} className="mt-2">
                  <h2 id={`group-${g.group}`} className="font-semibold">{g.label}</h2>
                  <dl className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-x-3">
                    {g.attributes.map((a) => (
                      <div key={a.name} className="contents">
                        <dt className={ui.muted}>{a.label}</dt>
                        <dd className="break-words">{a.value}{a.verified ? ` (${t.consent.verified})` : ""}</dd>
                      </div>
                    ))}
                  </dl>
                </section>
              ))}
            </details>
          )}
        </>
      )}
      <p className={`text-sm ${ui.muted}`}>
        {authz ? t.consent.notRemembered : (
          <>
            {t.consent.remembered}{" "}
            <a id="forget" className={ui.link} href={servicePath("/account")}
              {...(popup ? { target: "_blank", rel: "noopener noreferrer" } : {})}>
              {t.consent.forget}{popup && <span className="sr-only"> {t.consent.newWindow}</span>}
            </a>
          </>
        )}
      </p>
      <ScreenForm id={id} step="consent" csrf={csrf} className={ui.row}>
        <button type="submit" name="decision" value="deny" id="deny" className={ui.secondary}>{t.consent.deny}</button>
        <button type="submit" name="decision" value="allow" id="allow" className={ui.primary}>{t.consent.allow}</button>
      </ScreenForm>
    </div>
  );
}
