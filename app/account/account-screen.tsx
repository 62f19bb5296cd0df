import type { DisplayUi } from "@/components/display/display-ui";
import { ClientMark } from "@/components/interaction/client-mark";
import type { AccountView } from "@/lib/account/load-account-view";
import type { AccountOptions } from "@/lib/account/account-options";
import { AccountForm } from "./account-form";

/** Dates and times on the account page: UTC, ISO order (the server does not know the subscriber's time zone). */
const day = (d: Date) => d.toISOString().slice(0, 10);
const time = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")}`;

/**
 * The signed-in account page: the apps allowed (what each may do, since when, "Forget"), the
 * handsets (with "Remove"), the CIBA user code (set, change, remove), the recent sign-ins (time, app, level) and "Sign out". Every action is a
 * plain form (AccountForm); nothing needs script.
 */
export function AccountScreen({ ui, options, view, csrf, level, notice }: {
  ui: DisplayUi; options: AccountOptions; view: AccountView; csrf: string; level: string | null; notice?: Notice;
}) {
  const { t, display, lang } = options;
  const a = t.account;
  const form = { csrf, display, lang };
  const item = display === "wap" ? "border-t border-black py-1" : "rounded-lg border border-line p-3";
  return (
    <div className={ui.stack}>
      <h1 className={ui.heading}>{a.title}</h1>
      <NoticeLine ui={ui} notice={notice} />
      {level && <p className={`${ui.text} ${ui.muted}`}>{a.level(level)}</p>}

      <section aria-labelledby="apps-title" className={ui.stack}>
        <h2 id="apps-title" className="font-semibold">{a.appsTitle}</h2>
        {view.apps.length === 0 ? <p className={ui.text}>{a.noApps}</p> : (
          <ul className={ui.stack} aria-labelledby="apps-title">
            {view.apps.map((app) => (
              <li key={app.clientId} className={item}>
                <h3 className="font-semibold break-words">{app.name}</h3>
                <ClientMark t={t} mark={app.mark} />
                <p className={ui.text} id={`reads-${app.clientId}`}>{a.mayDo(app.name)}</p>
                <ul className={`${ui.text} list-disc pl-6`} aria-labelledby={`reads-${app.clientId}`}>
                  {app.reads.map((r) => <li key={r}>{r}</li>)}
                </ul>
                <p className={`${ui.text} ${ui.muted}`}>{a.since(day(app.since))}</p>
                <AccountForm action="forget" {...form} className="mt-2">
                  <input type="hidden" name="client_id" value={app.clientId} />
                  <button type="submit" className={ui.secondary}>{a.forget(app.name)}</button>
                </AccountForm>
              </li>
            ))}
          </ul>
        )}
        {view.apps.length > 0 && <p className={`text-sm ${ui.muted}`}>{a.forgetHelp}</p>}
      </section>

      {view.apiConsents.length > 0 && (
        <section aria-labelledby="api-consents-title" className={ui.stack}>
          <h2 id="api-consents-title" className="font-semibold">{a.apiConsentsTitle}</h2>
          <ul className={ui.stack} aria-labelledby="api-consents-title">
            {view.apiConsents.map((c, i) => (
              <li key={`${c.clientId} ${c.purpose}`} className={item}>
                <h3 className="font-semibold break-words" id={`api-consent-${i}`}>
                  {a.apiConsentPurpose(c.name, c.purposeText)}
                </h3>
                <ClientMark t={t} mark={c.mark} />
                <ul className={`${ui.text} list-disc pl-6`} aria-labelledby={`api-consent-${i}`}>
                  {c.apis.map((api) => <li key={api}>{api}</li>)}
                </ul>
                <p className={`${ui.text} ${ui.muted}`}>{a.apiConsentSince(day(c.since))}</p>
                <AccountForm action="withdraw-consent" {...form} className="mt-2">
                  <input type="hidden" name="client_id" value={c.clientId} />
                  <input type="hidden" name="purpose" value={c.purpose} />
                  <button type="submit" className={ui.secondary}>{a.withdraw(c.name)}</button>
                </AccountForm>
              </li>
            ))}
          </ul>
          <p className={`text-sm ${ui.muted}`}>{a.withdrawHelp}</p>
        </section>
      )}

      <section aria-labelledby="handsets-title" className={ui.stack}>
        <h2 id="handsets-title" className="font-semibold">{a.handsetsTitle}</h2>
        {view.handsets.length === 0 ? <p className={ui.text}>{a.noHandsets}</p> : (
          <ul className={ui.stack} aria-labelledby="handsets-title">
            {view.handsets.map((h) => (
              <li key={h.id} className={item}>
                <h3 className="font-semibold break-words">{h.name}</h3>
                <p className={`${ui.text} ${ui.muted}`}>
                  {a.enrolled(day(h.enrolledAt))}{h.lastSeenAt && <> {a.lastUsed(time(h.lastSeenAt))}</>}
                </p>
                <AccountForm action="remove-handset" {...form} className="mt-2">
                  <input type="hidden" name="device_id" value={h.id} />
                  <button type="submit" className={ui.secondary}>{a.remove(h.name)}</button>
                </AccountForm>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="user-code-title" className={ui.stack}>
        <h2 id="user-code-title" className="font-semibold">{a.userCodeTitle}</h2>
        <p className={ui.text}>{a.userCodeText}</p>
        <p className={ui.text}>{view.hasUserCode ? a.userCodeIsSet : a.userCodeNone}</p>
        {/* One form: what proves the change, the new code, and Change / Remove (the latter skips the browser's
            check of the new code: it is not needed to remove). Works without script. The subscriber says what they
            type: the current code and the PIN are two fields (lib/ciba/user-code-proof.ts), so a fumbled code is
            never counted as a wrong PIN. */}
        <AccountForm action="user-code" {...form} className={ui.stack}>
          {view.userCodeProof === "code_or_pin" && (
            <fieldset aria-describedby="user-code-current-help">
              <legend className={ui.label}>{a.userCodeProofLabel.code_or_pin}</legend>
              <div className="mt-2">
                <label htmlFor="user-code-current" className={ui.label}>{a.userCodeProofLabel.code}</label>
                <input id="user-code-current" name="current_code" type="password" inputMode="numeric"
                  autoComplete="off" maxLength={8} className={ui.input} />
              </div>
              <div className="mt-2">
                <label htmlFor="user-code-pin" className={ui.label}>{a.userCodeOrPinLabel}</label>
                <input id="user-code-pin" name="current_pin" type="password" inputMode="numeric" autoComplete="off"
                  maxLength={32} className={ui.input} />
              </div>
              <p id="user-code-current-help" className={ui.help}>{a.userCodeEitherHelp} {a.userCodeProofHelp}</p>
            </fieldset>
          )}
          {(view.userCodeProof === "code" || view.userCodeProof === "pin") && (
            <div>
              <label htmlFor="user-code-current" className={ui.label}>{a.userCodeProofLabel[view.userCodeProof]}</label>
              <input id="user-code-current" name={view.userCodeProof === "code" ? "current_code" : "current_pin"}
                type="password" inputMode="numeric" autoComplete="off" required
                maxLength={view.userCodeProof === "code" ? 8 : 32} aria-describedby="user-code-current-help" className={ui.input} />
              <p id="user-code-current-help" className={ui.help}>{a.userCodeProofHelp}</p>
            </div>
          )}
          <div>
            <label htmlFor="user-code" className={ui.label}>{view.hasUserCode ? a.userCodeNewLabel : a.userCodeLabel}</label>
            <input id="user-code" name="user_code" type="password" inputMode="numeric" autoComplete="off" required
              maxLength={8} aria-describedby="user-code-help" className={ui.input} />
            <p id="user-code-help" className={ui.help}>{a.userCodeHelp}</p>
          </div>
          <button type="submit" className={ui.secondary}>{view.hasUserCode ? a.userCodeChange : a.userCodeSet}</button>
          {view.hasUserCode && (
            <button type="submit" name="remove" value="1" formNoValidate className={ui.secondary}>{a.userCodeRemove}</button>
          )}
        </AccountForm>
      </section>

      <section aria-labelledby="sign-ins-title" className={ui.stack}>
        <h2 id="sign-ins-title" className="font-semibold">{a.signInsTitle}</h2>
        {view.signIns.length === 0 ? <p className={ui.text}>{a.noSignIns}</p> : (
          <table className={`${ui.text} w-full text-left`} aria-labelledby="sign-ins-title">
            <thead>
              <tr><th scope="col">{a.time}</th><th scope="col">{a.app}</th><th scope="col">{a.levelColumn}</th></tr>
            </thead>
            <tbody>
              {view.signIns.map((s, i) => (
                <tr key={i} className="border-t border-line align-top">
                  <td className="pr-2 whitespace-nowrap">{time(s.at)}</td>
                  <td className="pr-2 break-words">{s.app}<ClientMark t={t} mark={s.mark} className="mt-1" /></td>
                  <td>{s.level}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p className={`text-sm ${ui.muted}`}>{a.utc}</p>
      </section>

      <AccountForm action="sign-out" {...form}>
        <button type="submit" className={ui.primary}>{a.signOut}</button>
      </AccountForm>
    </div>
  );
}

export type Notice = { kind: "done" | "error"; text: string };

/** The result of the last action: a status for a success, an alert for a failure (dictionary text only). */
export function NoticeLine({ ui, notice }: { ui: DisplayUi; notice?: Notice }) {
  if (!notice) return null;
  return notice.kind === "error"
    ? <p role="alert" className={ui.alert}>{notice.text}</p>
    : <p role="status" className="rounded-md border border-green-300 bg-green-50 p-3 text-green-900">{notice.text}</p>;
}
