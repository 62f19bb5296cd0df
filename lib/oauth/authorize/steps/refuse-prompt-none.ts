import { AccountSelectionRequired, ConsentRequired, LoginRequired } from "../../errors";
import { need, type AuthorizeStep } from "../authorize-state";

/** `prompt=none` with something still missing: the OIDC Core §3.1.2.6 error at once (no screen may be shown). */
export const refusePromptNone: AuthorizeStep = (state) => {
  const next = need(state.next, "next");
  if (next.step === "issue" || !need(state.params, "params").prompt.includes("none")) return;
  if (next.step === "consent") throw new ConsentRequired("Consent is required and prompt=none forbids asking for it");
  if (next.step === "select_account") throw new AccountSelectionRequired("Account selection is required");
  throw new LoginRequired("The subscriber must sign in and prompt=none forbids it");
};
