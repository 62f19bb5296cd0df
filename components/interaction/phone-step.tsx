import { servicePath } from "@/lib/interaction/screen-headers";
import { FormAlert } from "./form-alert";
import { PhoneWaiter } from "./phone-waiter";
import { ScreenForm } from "./screen-form";
import type { StepProps } from "./step-props";
import { ClientMark, UnverifiedNote } from "./client-mark";

/**
 * Sign-in by approval on the subscriber's handset (issue 5, "approve on your phone"): shows the
 * check code the subscriber types on the phone (number matching) and the relying party's binding
 * message, and waits. No meta refresh (issue 17, axe meta-refresh): with JavaScript the polite live
 * region (PhoneWaiter) holds GET /interaction/{id}/phone until the handset answers and the page moves
 * on by itself; without it, "Check now" is that same held request (it returns as soon as the phone
 * answers, or after a bound back to this screen).
 */
export function PhoneStep(props: StepProps & { checkCode: string; bindingMessage?: string; needsPin: boolean }) {
  const { id, csrf, t, ui, clientName, error, retryAt, checkCode, bindingMessage, needsPin } = props;
  const check = servicePath(`/interaction/${id}/phone`);
  return (
    <div className={ui.stack}>
      <h1 className={ui.heading}>{t.phone.title}</h1>
      <p className={`${ui.text} ${ui.muted}`}>{t.signIn.forClient(clientName)}</p>
      <ClientMark t={t} mark={props.mark} />
      <FormAlert ui={ui} text={error} t={t} retryAt={retryAt} />
      <p className={ui.text}>{t.phone.sent}{needsPin ? ` ${t.phone.pinNote}` : ""}</p>
      <div>
        <p className={ui.text}>{t.phone.check}</p>
        <p id="check-code" className={`${ui.heading} tracking-widest`}>{checkCode}</p>
      </div>
      {bindingMessage && (props.mark ? (
        <div className={`${ui.text} unverified rounded border border-dashed border-slate-500 p-2`}>
          <UnverifiedNote t={t} />
          <p id="binding-message" className="break-words">&ldquo;{bindingMessage}&rdquo;</p>
        </div>
      ) : <p id="binding-message" className={ui.text}>{bindingMessage}</p>)}
      <PhoneWaiter check={check} className={`${ui.text} ${ui.muted}`} noScript={t.a11y.waitingNoScript}
        script={t.a11y.waitingScript} answered={t.a11y.answered} />
      {/* An error is linked to the control that acts on it (issue 17), and focused. */}
      <p><a id="phone-check" className={ui.link} href={check} aria-describedby={error ? "form-error" : undefined}
        autoFocus={!!error}>{t.a11y.checkNow}</a></p>
      <ScreenForm id={id} step="use-code" csrf={csrf}>
        <button type="submit" id="use-code" className={ui.secondary}>{t.phone.useCode}</button>
      </ScreenForm>
      <ScreenForm id={id} step="cancel" csrf={csrf}>
        <button type="submit" id="cancel" className={ui.secondary}>{t.signIn.cancel}</button>
      </ScreenForm>
    </div>
  );
}
