import { servicePath } from "@/lib/interaction/screen-headers";
import type { DisplayUi } from "@/components/display/display-ui";
import type { Messages } from "@/lib/i18n/get-messages";
import { brandName } from "@/lib/branding/brand";

/** The screens are done (consented or denied) but the browser came back: a link on to the answer. */
export function ContinueStep({ id, t, ui }: { id: string; t: Messages; ui: DisplayUi }) {
  return (
    <div className={ui.stack}>
      <h1 className={ui.heading}>{brandName(t)}</h1>
      <p><a className={ui.link} href={servicePath(`/authorize/resume/${id}`)}>{t.failure.continue}</a></p>
    </div>
  );
}
