import { formatClock } from "@/lib/i18n/format-retry";
import { MAX_CODE_ATTEMPTS } from "@/lib/interaction/one-time-code";
import { PIN_FAILURES_BEFORE_LOCKOUT } from "@/lib/security/limits";
import { FormAlert } from "./form-alert";
import { ResendButton } from "./resend-button";
import { ScreenForm } from "./screen-form";
import { StartAgainLink } from "./start-again-link";
import type { StepProps } from "./step-props";
import { ClientMark } from "./client-mark";

const CODE_ERRORS = new Set(["code_invalid", "code_missing"]);
const PIN_ERRORS = new Set(["pin_invalid", "pin_missing"]);
const PHONE_ERRORS = new Set(["phone_expired", "phone_mismatch"]);

/**
 * Sign-in, second step: the one-time code from the text message, plus the PIN at level 3; or
 * "Approve on your phone instead" (PhoneStep), offered for every number. What cannot work until a
 * lockout or limit ends is not shown: during a PIN lockout no code, PIN or phone form; over the
 * approval-request limits no phone form; over the resend limit no "Request a new code" (the current code stays valid); a
 * link to start again when nothing is left to submit.
 *
 * Issue 17: the screen names the masked number the code went to (the hint's, or the typed one stored
 * with the code, known or not) and the time the code expires; "Request a new code" is
 * disabled until RESEND_DELAY_SECONDS after the send, with that time written. An error is linked to
 * its field (`aria-invalid`, `aria-describedby`) and the first field in error has the focus; the tries
 * left before the code dies (from the request row) and before the PIN locks (`?left=`) are said.
 * When "approve on your phone" was chosen before any text message (`codeSent` false), no code form:
 * "Send me a code" instead.
 */
export function CodeStep(props: StepProps & {
  maskedMsisdn?: string; needsPin: boolean; burnt: boolean; canChangeNumber: boolean; phoneOffered: boolean;
  codeSent?: boolean; expired?: boolean; expiresAt?: Date; resendAt?: Date; codeTriesLeft?: number;
}) {
  const { id, csrf, t, ui, clientName, error, errorCode = "", retryAt, needsPin, canChangeNumber, pinTriesLeft } = props;
  const codeSent = props.codeSent ?? true;
  const locked = errorCode === "pin_locked";
  const burnt = props.burnt || locked;
  const phoneOffered = props.phoneOffered && !locked && errorCode !== "phone_limited";
  const canResend = !locked && errorCode !== "send_limited";
  const masked = props.maskedMsisdn;
  // An expired code cannot work: no code form, the message says so and "Request a new code" is offered at once.
  const expired = !burnt && codeSent && props.expired === true;
  const showForm = !burnt && codeSent && !expired;
  // A wrong PIN after the right code keeps the code (issue 17): say so, and how many PINs lock.
  const codeKept = needsPin && errorCode === "pin_invalid";
  const codeTriesLeft = props.codeTriesLeft ?? MAX_CODE_ATTEMPTS;
  const showCodeTries = showForm && codeTriesLeft < MAX_CODE_ATTEMPTS && codeTriesLeft > 0;
  const showPinTries = showForm && codeKept && pinTriesLeft !== undefined;
  const codeError = !!error && CODE_ERRORS.has(errorCode);
  const pinError = !!error && needsPin && PIN_ERRORS.has(errorCode);
  const ids = (...list: (string | false | undefined)[]) => list.filter(Boolean).join(" ") || undefined;
  return (
    <div className={ui.stack}>
      <h1 className={ui.heading}>{t.code.title}</h1>
      <p className={`${ui.text} ${ui.muted}`}>{t.signIn.forClient(clientName)}</p>
      <ClientMark t={t} mark={props.mark} />
      {codeSent ? (
        <p className={ui.text} id="code-sent">{masked ? t.code.sentTo(masked) : t.code.sent}</p>
      ) : (
        <p className={ui.text} id="code-sent">{masked ? t.signInRecovery.notSentTo(masked) : t.signInRecovery.notSent}</p>
      )}
      {codeSent && !burnt && props.expiresAt && (
        <p className={ui.text} id="code-expiry">{t.signInRecovery.expiresAt(formatClock({ t, at: props.expiresAt }))}</p>
      )}
      <FormAlert ui={ui} text={error ?? (burnt ? t.code.burnt : expired ? t.errors.code_expired : undefined)} t={t} retryAt={retryAt} />
      {codeKept && !burnt && <p id="code-kept" className={ui.text}>{t.pinRetry.codeKept(PIN_FAILURES_BEFORE_LOCKOUT)}</p>}
      {showCodeTries && <p id="code-tries" className={ui.text}>{t.signInRecovery.codeTriesLeft(codeTriesLeft)}</p>}
      {showPinTries && <p id="pin-tries" className={ui.text}>{t.signInRecovery.pinTriesLeft(pinTriesLeft)}</p>}
      {burnt && !canResend && <StartAgainLink id={id} t={t} ui={ui} />}
      {showForm && (
        <ScreenForm id={id} step="code" csrf={csrf} className={ui.stack}>
          <div>
            <label htmlFor="code" className={ui.label}>{t.code.codeLabel}</label>
            <input
              id="code" name="code" type="text" inputMode="numeric" autoComplete="one-time-code" required
              maxLength={12} className={ui.input} autoFocus={!pinError}
              aria-invalid={codeError ? true : undefined}
              aria-describedby={ids(codeError && "form-error", showCodeTries && "code-tries", codeKept && "code-kept",
                props.expiresAt && "code-expiry")}
            />
          </div>
          {needsPin && (
            <div>
              <label htmlFor="pin" className={ui.label}>{t.code.pinLabel}</label>
              <input
                id="pin" name="pin" type="password" inputMode="numeric" autoComplete="off" required maxLength={32}
                aria-invalid={pinError ? true : undefined} autoFocus={pinError}
                aria-describedby={ids(pinError && "form-error", "pin-help", codeKept && "code-kept", showPinTries && "pin-tries")}
                className={ui.input}
              />
              <p id="pin-help" className={ui.help}>{t.code.pinHelp}</p>
            </div>
          )}
          <button type="submit" id="continue" className={ui.primary}>{t.signIn.continue}</button>
        </ScreenForm>
      )}
      {!codeSent && canResend && (
        <ScreenForm id={id} step="resend" csrf={csrf}>
          <button type="submit" id="resend" className={ui.primary}>{t.signInRecovery.sendCode}</button>
        </ScreenForm>
      )}
      {phoneOffered && (
        <ScreenForm id={id} step="phone" csrf={csrf}>
          <button type="submit" id="phone" className={ui.secondary}
            aria-describedby={error && PHONE_ERRORS.has(errorCode) ? "form-error" : undefined}>{t.phone.offer}</button>
        </ScreenForm>
      )}
      <div className={ui.row}>
        {codeSent && canResend && (
          <ScreenForm id={id} step="resend" csrf={csrf}>
            <ResendButton label={t.code.resend} className={ui.secondary} textClassName={ui.help}
              describedBy={burnt || expired ? "form-error" : undefined}
              waitMs={props.resendAt ? Math.max(0, props.resendAt.getTime() - Date.now()) : 0}
              waitText={props.resendAt ? t.signInRecovery.resendAt(formatClock({ t, at: props.resendAt, seconds: true })) : ""} />
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
