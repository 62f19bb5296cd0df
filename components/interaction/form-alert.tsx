import type { DisplayUi } from "@/components/display/display-ui";

/** The message of the last failed step (a dictionary text, never the submitted input). */
export function FormAlert({ ui, text }: { ui: DisplayUi; text: string | undefined }) {
  if (!text) return null;
  return <p role="alert" id="form-error" className={ui.alert}>{text}</p>;
}
