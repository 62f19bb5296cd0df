import { servicePath } from "@/lib/interaction/screen-headers";
import { FormAlert } from "./form-alert";
import { ScreenForm } from "./screen-form";
import type { StepProps } from "./step-props";

/**
 * Sign-in by approval on the subscriber's handset (issue 5, "approve on your phone"): shows the
 * check code the subscriber types on the phone (number matching) and the relying party's binding
 * message, and waits. No script needed: a meta refresh (hoisted into
 * the head by React) goes to GET /interaction/{id}/phone, which holds until the handset answers
 * (or a bound passes) and then moves on; the link does the same by hand.
 */
export function PhoneStep(props: StepProps & { checkCode: string; bindingMessage?: string; needsPin: boolean }) {
  const { id, csrf, t, ui, clientName, error, checkCode, bindingMessage, needsPin } = props;
  const check = servicePath(`/interaction/${id}/phone`);
  return (
    <div className={ui.stack}>
      <meta httpEquiv="refresh" content={`1;url=${check}`} />
      <h1 className={ui.heading}>{t.phone.title}</h1>
      <p className={`${ui.text} ${ui.muted}`}>{t.signIn.forClient(clientName)}</p>
      <FormAlert ui={ui} text={error} />
      <p className={ui.text}>{t.phone.sent}{needsPin ? ` ${t.phone.pinNote}` : ""}</p>
      <div>
        <p className={ui.text}>{t.phone.check}</p>
        <p id="check-code" className={`${ui.heading} tracking-widest`}>{checkCode}</p>
      </div>
      {bindingMessage && <p id="binding-message" className={ui.text}>{bindingMessage}</p>}
      <p role="status" className={`${ui.text} ${ui.muted}`}>{t.phone.waiting}</p>
      <p><a id="phone-check" className={ui.link} href={check}>{t.phone.refresh}</a></p>
      <ScreenForm id={id} step="use-code" csrf={csrf}>
        <button type="submit" id="use-code" className={ui.secondary}>{t.phone.useCode}</button>
      </ScreenForm>
      <ScreenForm id={id} step="cancel" csrf={csrf}>
        <button type="submit" id="cancel" className={ui.secondary}>{t.signIn.cancel}</button>
      </ScreenForm>
    </div>
  );
}
