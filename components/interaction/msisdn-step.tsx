import { FormAlert } from "./form-alert";
import { ScreenForm } from "./screen-form";
import { StartAgainLink } from "./start-again-link";
import type { StepProps } from "./step-props";

/**
 * Sign-in, first step: the mobile number (typed, or the one a hint named, shown masked). Over a
 * code-sending limit the form is replaced by the time to try again and a link to start again.
 */
export function MsisdnStep(props: StepProps & { maskedMsisdn?: string }) {
  const { id, csrf, t, ui, clientName, error, errorCode, retryAt, maskedMsisdn } = props;
  // A refused number is this field's error: linked to it (announced with it) and marked invalid.
  const fieldError = errorCode === "msisdn_invalid" && !!error;
  return (
    <div className={ui.stack}>
      <h1 className={ui.heading}>{t.signIn.title}</h1>
      <p className={`${ui.text} ${ui.muted}`}>{t.signIn.forClient(clientName)}</p>
      <FormAlert ui={ui} text={error} t={t} retryAt={retryAt} />
      {errorCode === "send_limited" ? <StartAgainLink id={id} t={t} ui={ui} /> : (
        <ScreenForm id={id} step="msisdn" csrf={csrf} className={ui.stack}>
          {maskedMsisdn ? (
            <p className={ui.text} id="hinted-msisdn">{t.signIn.hintedNumber(maskedMsisdn)}</p>
          ) : (
            <div>
              <label htmlFor="msisdn" className={ui.label}>{t.signIn.msisdnLabel}</label>
              <input
                id="msisdn" name="msisdn" type="tel" inputMode="tel" autoComplete="tel" required maxLength={40}
                aria-describedby={fieldError ? "form-error msisdn-help" : "msisdn-help"}
                aria-invalid={fieldError ? true : undefined} className={ui.input} autoFocus
              />
              <p id="msisdn-help" className={ui.help}>{t.signIn.msisdnHelp}</p>
            </div>
          )}
          <button type="submit" id="continue" className={ui.primary}>{t.signIn.continue}</button>
        </ScreenForm>
      )}
      <ScreenForm id={id} step="cancel" csrf={csrf}>
        <button type="submit" id="cancel" className={ui.secondary}>{t.signIn.cancel}</button>
      </ScreenForm>
    </div>
  );
}
