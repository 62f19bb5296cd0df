import { authenticateWithCode } from "../authorization-request/authenticate-with-code";
import type { Subscriber } from "../subscribers/subscriber-row";
import { amrForAcr } from "./amr-for-acr";
import type { StepInput, StepResult } from "./step-result";
import { recordSignIn } from "../metrics/record";

/**
 * The subscriber proved the level the request asks for: in one transaction
 * (lib/authorization-request/authenticate-with-code.ts) the code is consumed, the browser gets a fresh
 * id (session fixation), an operator session is opened under it, the request becomes `authenticated`
 * and the sign-in is audited; a code signs in once even under concurrent posts. At level 3 the PIN
 * failure state was already cleared by the PIN check itself, conditionally on the subscriber not being
 * locked at that moment (lib/security/check-pin.ts). The new cookie goes out with the 303.
 */
export async function completeSignIn({ request, params, browserId, subscriber, ip }: StepInput & {
  subscriber: Subscriber;
}): Promise<StepResult> {
  const setCookie = await authenticateWithCode({
    request, browserId, subscriberId: subscriber.id, acr: params.acr, amr: amrForAcr(params.acr),
    audit: { type: "sign_in", outcome: "success", subscriberId: subscriber.id, clientId: params.clientId, ip,
      detail: { acr: params.acr, method: "code" } },
  });
  recordSignIn(params.acr, "success");
  return { to: "resume", setCookie };
}
