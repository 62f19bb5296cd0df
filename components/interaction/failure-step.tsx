import type { DisplayUi } from "@/components/display/display-ui";
import type { Messages } from "@/lib/i18n/get-messages";

/** The plain error screen: no redirect, nothing from the request reflected. */
export function FailureStep({ t, ui, text }: { t: Messages; ui: DisplayUi; text: string }) {
  return (
    <div className={ui.stack}>
      <h1 className={ui.heading}>{t.failure.title}</h1>
      <p role="alert" className={ui.text}>{text}</p>
    </div>
  );
}
