import { PIN_FAILURES_BEFORE_LOCKOUT } from "@/lib/security/limits";
import { FormAlert } from "./form-alert";
import { ScreenForm } from "./screen-form";
import { StartAgainLink } from "./start-again-link";
import type { StepProps } from "./step-props";

/**
 * Sign-in, second step: the one-time code from the text message, plus the PIN at level 3; or
 * "Approve on your phone instead" (PhoneStep), offered for every number. What cannot work until a
 * lockout or limit ends is not shown: during a PIN lockout no code, PIN or phone form; over the
 * approval-request limits no phone form; over the resend limit no "Request a new code" (the current code stays valid); a
 * link to start again when nothing is left to submit.
 */
export function CodeStep(props: StepProps & {
  maskedMsisdn?: string; needsPin: boolean; burnt: boolean; canChangeNumber: boolean; phoneOffered: boolean;
}) {
  const { id, csrf, t, ui, clientName, error, errorCode, retryAt, maskedMsisdn, needsPin, canChangeNumber } = props;
  const locked = errorCode === "pin_locked";
  const burnt = props.burnt || locked;
  const phoneOffered = props.phoneOffered && !locked && errorCode !== "phone_limited";
  const canResend = !locked && errorCode !== "send_limited";
  // A wrong PIN after the right code keeps the code (issue 17): say so, and how many PINs lock.
  const codeKept = needsPin && errorCode === "pin_invalid";
  const describedBy = [error ? "form-error" : "", codeKept ? "code-kept" : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className={ui.stack}>
      <h1 className={ui.heading}>{t.code.title}</h1>
      <p className={`${ui.text} ${ui.muted}`}>{t.signIn.forClient(clientName)}</p>
      <p className={ui.text}>{maskedMsisdn ? t.code.sentTo(maskedMsisdn) : t.code.sent}</p>
      <FormAlert ui={ui} text={error ?? (burnt ? t.code.burnt : undefined)} t={t} retryAt={retryAt} />
      {codeKept && !burnt && <p id="code-kept" className={ui.text}>{t.pinRetry.codeKept(PIN_FAILURES_BEFORE_LOCKOUT)}</p>}
      {burnt && !canResend && <StartAgainLink id={id} t={t} ui={ui} />}
      {!burnt && (
        <ScreenForm id={id} step="code" csrf={csrf} className={ui.stack}>
          <div>
            <label htmlFor="code" className={ui.label}>{t.code.codeLabel}</label>
            <input
              id="code" name="code" type="text" inputMode="numeric" autoComplete="one-time-code" required
              maxLength={12} className={ui.input} autoFocus aria-describedby={describedBy}
            />
          </div>
          {needsPin && (
            <div>
              <label htmlFor="pin" className={ui.label}>{t.code.pinLabel}</label>
              <input
                id="pin" name="pin" type="password" inputMode="numeric" autoComplete="off" required maxLength={32}
                aria-describedby={codeKept ? "pin-help code-kept" : "pin-help"} className={ui.input}
              />
              <p id="pin-help" className={ui.help}>{t.code.pinHelp}</p>
            </div>
          )}
          <button type="submit" id="continue" className={ui.primary}>{t.signIn.continue}</button>
        </ScreenForm>
      )}
      {phoneOffered && (
        <ScreenForm id={id} step="phone" csrf={csrf}>
          <button type="submit" id="phone" className={ui.secondary}>{t.phone.offer}</button>
        </ScreenForm>
      )}
      <div className={ui.row}>
        {canResend && (
          <ScreenForm id={id} step="resend" csrf={csrf}>
            <button type="submit" id="resend" className={ui.secondary}>{t.code.resend}</button>
          </ScreenForm>
        )}
        {canChangeNumber && (
          <ScreenForm id={id} step="restart" csrf={csrf}>
            <button type="submit" id="restart" className={ui.secondary}>{t.code.otherNumber}</button>
          </ScreenForm>
        )}
      </div>
      <ScreenForm id={id} step="cancel" csrf={csrf}>
        <button type="submit" id="cancel" className={ui.secondary}>{t.signIn.cancel}</button>
      </ScreenForm>
    </div>
  );
}
