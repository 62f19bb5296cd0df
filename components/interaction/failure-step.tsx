import type { DisplayUi } from "@/components/display/display-ui";
import type { Messages } from "@/lib/i18n/get-messages";
import type { FailureContext } from "@/lib/interaction/failure-context";

/**
 * The plain error screen: no redirect, nothing from the request reflected. The browser that started
 * the request is told why (expired, cancelled, finished) and, for an expired or cancelled one, given
 * the way back to the app (lib/interaction/failure-context.ts); any other browser gets one text.
 */
export function FailureStep({ t, ui, reason = "unusable", backHref }: {
  t: Messages; ui: DisplayUi; reason?: FailureContext["reason"]; backHref?: string;
}) {
  const text = reason === "unusable" ? t.failure.unusable : t.deadEnd[reason];
  return (
    <div className={ui.stack}>
      <h1 className={ui.heading}>{t.failure.title}</h1>
      <p role="alert" className={ui.text}>{text}</p>
      {backHref && (
        <a id="back-to-app" className={`${ui.primary} block text-center no-underline`} href={backHref}>{t.deadEnd.back}</a>
      )}
    </div>
  );
}
