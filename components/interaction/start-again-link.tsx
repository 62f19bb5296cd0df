import type { DisplayUi } from "@/components/display/display-ui";
import type { Messages } from "@/lib/i18n/get-messages";
import { servicePath } from "@/lib/interaction/screen-headers";

/**
 * Shown instead of a form that cannot work until a lockout or limit ends: the screen afresh,
 * without the message (its form comes back; a POST before the time is refused again).
 */
export function StartAgainLink({ id, t, ui }: { id: string; t: Messages; ui: DisplayUi }) {
  return (
    <p className={ui.text}>
      <a id="start-again" className={ui.link} href={servicePath(`/interaction/${id}`)}>{t.retry.startOver}</a>
    </p>
  );
}
