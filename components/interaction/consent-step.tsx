import { Fragment } from "react";
import { describeConsent, type SharedAttribute } from "@/lib/interaction/describe-consent";
import { servicePath } from "@/lib/interaction/screen-headers";
import type { AuthorizationParams } from "@/lib/oauth/authorize/types";
import { ClientMark, UnverifiedNote } from "./client-mark";
import { ScreenForm } from "./screen-form";
import type { StepProps } from "./step-props";

/**
 * Consent: names the relying party and says what of THIS subscriber would be shared (`shared`, from
 * chooseScreen(): only attributes the subscriber has, lib/interaction/describe-consent.ts), as a
 * summary of names by group, then the values in a `<details>` element (opens without JavaScript),
 * so the subscriber can see exactly what leaves. On `popup` and `touch` the scope lines move into the
 * details too and Allow/Deny stick to the bottom of the window (CSS only), so both are reachable
 * without scrolling whatever the length of an `mc_authz` context. WAP (feature phones: no room, no
 * stylesheet, `<details>` not supported everywhere) shows the names only. For `mc_authz` it shows
 * `context` and `binding_message` (rendered as text: React escapes them). "Forget it" links to the
 * account page (from a popup in a new window, so the sign-in in the popup is not lost).
 */
export function ConsentStep({ id, csrf, t, ui, clientName, mark, params, maskedMsisdn, shared = [] }: StepProps & {
  params: AuthorizationParams; maskedMsisdn?: string; shared?: readonly SharedAttribute[];
}) {
  const { scopeLines, groups, purpose } = describeConsent({ scopes: params.scopes, t, shared });
  const authz = params.scopes.includes("mc_authz");
  const wap = params.display === "wap";
  const popup = params.display === "popup";
  // The small screens: what the app may do moves into the details, under the summary of what is shared.
  const compact = popup || params.display === "touch";
  const scopes = (
    <>
      <p className={ui.text} id="scopes-label">{t.consent.intro(clientName)}</p>
      <ul className={`${ui.text} list-disc pl-6`} id="scopes" aria-labelledby="scopes-label">
        {scopeLines.map((s) => <li key={s.scope}>{s.text}</li>)}
      </ul>
      {purpose && <p className={ui.text} id="purpose">{t.consent.purpose(purpose.text)}</p>}
    </>
  );
  return (
    <div className={ui.stack}>
      <h1 className={ui.heading}>{t.consent.title(clientName)}</h1>
      <ClientMark t={t} mark={mark} />
      {maskedMsisdn && <p className={`${ui.text} ${ui.muted}`}>{maskedMsisdn}</p>}
      {authz && (
        <section aria-labelledby="transaction" className="rounded-md border border-amber-300 bg-amber-50 p-3">
          <h2 id="transaction" className="font-semibold">{t.consent.transaction}</h2>
          {/* A self-registered app's context and binding message: its own words, not checked (issue 33). */}
          {mark && <div className={`${ui.text} unverified mb-2`}><UnverifiedNote t={t} /></div>}
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
      {!compact && scopes}
      {groups.length > 0 && (
        <>
          <p className={ui.text} id="attributes-label">{t.consent.attributes}</p>
          <ul className={`${ui.text} list-disc pl-6`} id="attributes" aria-labelledby="attributes-label">
            {groups.map((g) => (
              <li key={g.group}>
                <span className="font-semibold">{t.consent.groupLabel(g.label)}</span>{" "}
                {g.attributes.map((a, i) => <Fragment key={a.name}>{i > 0 && ", "}<span>{a.label}</span></Fragment>)}
              </li>
            ))}
          </ul>
        </>
      )}
      {!wap && (compact || groups.length > 0) && (
        <details id="consent-details" className={`${ui.text} [&_summary]:scroll-mb-40`}>
          <summary className={`${ui.link} cursor-pointer`}>{t.consent.details}</summary>
          <div className="mt-2 space-y-2">
            {compact && scopes}
            {groups.map((g) => (
              <section key={g.group} aria-labelledby={`group-${g.group}`}>
                <h2 id={`group-${g.group}`} className="font-semibold">{g.label}</h2>
                <ul aria-labelledby={`group-${g.group}`}>
                  {g.attributes.map((a) => (
                    <li key={a.name} className="break-words">
                      {t.consent.valueLine(a.label, a.verified ? `${a.value} (${t.consent.verified})` : a.value)}
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </div>
        </details>
      )}
      <p className={`text-sm ${ui.muted}`}>
        {authz ? t.consent.notRemembered : purpose ? t.consent.purposeRemembered : (
          <>
            {t.consent.remembered}{" "}
            <a id="forget" className={`${ui.link} scroll-mb-40`} href={servicePath("/account")}
              {...(popup ? { target: "_blank", rel: "noopener noreferrer" } : {})}>
              {t.consent.forget}{popup && <span className="sr-only"> {t.consent.newWindow}</span>}
            </a>
          </>
        )}
      </p>
      {/* popup and touch: the buttons stay in view (CSS only) whatever the length of the context above. */}
      <div className={compact ? "sticky bottom-0 -mx-5 border-t border-line bg-surface px-5 py-3" : undefined}>
        <ScreenForm id={id} step="consent" csrf={csrf} className={compact ? "grid grid-cols-2 gap-3" : ui.row}>
          <button type="submit" name="decision" value="deny" id="deny" className={ui.secondary}>{t.consent.deny}</button>
          <button type="submit" name="decision" value="allow" id="allow" className={ui.primary}>{t.consent.allow}</button>
        </ScreenForm>
      </div>
    </div>
  );
}
