import { FormAlert } from "./form-alert";
import { ScreenForm } from "./screen-form";
import { StartAgainLink } from "./start-again-link";
import type { StepProps } from "./step-props";
import { ClientMark } from "./client-mark";

/**
 * Sign-in, first step: the mobile number (typed, or the one a hint named, shown masked). Over a
 * code-sending limit the form is replaced by the time to try again and a link to start again.
 * A refused number comes back in the field as typed (issue 17: kept on the request for one showing,
 * never in the URL; React escapes it), the field marked invalid, described by the message and focused. The help
 * text gives an example of the operator's country in both accepted forms. "Approve on your phone
 * instead" is offered here too, before any text message (the same form, `via=phone`; the Enter key
 * keeps the first button, Continue).
 */
export function MsisdnStep(props: StepProps & {
  maskedMsisdn?: string; example?: { national: string; international: string } | null; typedMsisdn?: string;
  /** False for a client that always needs the text-message code (the account page). */
  phoneOffered?: boolean;
}) {
  const { id, csrf, t, ui, clientName, error, errorCode, retryAt, maskedMsisdn, example, typedMsisdn } = props;
  const phoneOffered = props.phoneOffered !== false && errorCode !== "phone_limited";
  // A refused number is this field's error: linked to it (announced with it) and marked invalid.
  const fieldError = errorCode === "msisdn_invalid" && !!error;
  const help = example ? `${t.signIn.msisdnHelp} ${t.signInRecovery.example(example.national, example.international)}`
    : t.signIn.msisdnHelp;
  return (
    <div className={ui.stack}>
      <h1 className={ui.heading}>{t.signIn.title}</h1>
      <p className={`${ui.text} ${ui.muted}`}>{t.signIn.forClient(clientName)}</p>
      <ClientMark t={t} mark={props.mark} />
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
                defaultValue={typedMsisdn}
              />
              <p id="msisdn-help" className={ui.help}>{help}</p>
            </div>
          )}
          <button type="submit" id="continue" className={ui.primary}>{t.signIn.continue}</button>
          {phoneOffered && (
            <button type="submit" id="phone-first" name="via" value="phone" className={ui.secondary}>{t.phone.offer}</button>
          )}
        </ScreenForm>
      )}
      <ScreenForm id={id} step="cancel" csrf={csrf}>
        <button type="submit" id="cancel" className={ui.secondary}>{t.signIn.cancel}</button>
      </ScreenForm>
    </div>
  );
}
