import type { Account } from "@/lib/interaction/list-accounts";
import { FormAlert } from "./form-alert";
import { ScreenForm } from "./screen-form";
import type { StepProps } from "./step-props";
import { ClientMark } from "./client-mark";

/**
 * `prompt=select_account`: the accounts signed in in this browser, or another number. An error (an
 * account that can no longer be used) is linked to the choices it concerns and the first has the focus.
 */
export function SelectStep({ id, csrf, t, ui, clientName, mark, accounts, error, retryAt }:
  StepProps & { accounts: Account[] }) {
  const when = new Intl.DateTimeFormat(t.lang, { dateStyle: "medium", timeStyle: "short" });
  return (
    <div className={ui.stack}>
      <h1 className={ui.heading}>{t.select.title}</h1>
      <p className={`${ui.text} ${ui.muted}`}>{t.signIn.forClient(clientName)}</p>
      <ClientMark t={t} mark={mark} />
      <FormAlert ui={ui} text={error} t={t} retryAt={retryAt} />
      <ScreenForm id={id} step="select" csrf={csrf} className={ui.stack}>
        {accounts.map((a, i) => (
          <button key={a.session.id} type="submit" name="session" value={a.session.id} className={`${ui.secondary} text-left`}
            aria-describedby={error ? "form-error" : undefined} autoFocus={!!error && i === 0}>
            <span className="block font-semibold">{a.maskedMsisdn}</span>
            <span className={`block text-sm ${ui.muted}`}>{t.select.signedInAt(when.format(a.session.authTime))}</span>
          </button>
        ))}
        <button type="submit" name="session" value="new" id="use-another" className={ui.primary}
          aria-describedby={error ? "form-error" : undefined} autoFocus={!!error && accounts.length === 0}>
          {t.select.useAnother}
        </button>
      </ScreenForm>
    </div>
  );
}
