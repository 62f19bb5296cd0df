import type { DisplayUi } from "@/components/display/display-ui";
import { formatRetry } from "@/lib/i18n/format-retry";
import type { Messages } from "@/lib/i18n/get-messages";

/**
 * The message of the last failed step (a dictionary text, never the submitted input), followed by
 * the exact time to try again when a lockout or limit caused it and the server knows its end.
 */
export function FormAlert({ ui, text, t, retryAt }: { ui: DisplayUi; text: string | undefined; t?: Messages; retryAt?: Date }) {
  if (!text) return null;
  const retry = t && retryAt ? formatRetry({ t, retryAt }) : undefined;
  return <p role="alert" id="form-error" className={ui.alert}>{text}{retry && <> <span id="retry-at">{retry}</span></>}</p>;
}
