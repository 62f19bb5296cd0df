import type { Subscriber } from "@prisma/client";
import { db } from "../db";
import { auditEventRow } from "../audit/record-audit-event";
import { browserIdHash } from "../sessions/browser-cookie";
import { createSession } from "../sessions/create-session";
import { renewBrowserId } from "../sessions/renew-browser-id";
import { amrForAcr } from "./amr-for-acr";
import type { StepInput, StepResult } from "./step-result";

/**
 * The subscriber proved the level the request asks for: in one transaction the browser gets a fresh
 * id (its live sessions and this request move to it: session fixation, lib/sessions/renew-browser-id.ts),
 * an operator session is opened under it, the request becomes `authenticated` and the code is consumed
 * (the update only matches while the same code is on the row and the row is still bound to the cookie
 * the browser sent, so a code signs in once even under concurrent posts) and the sign-in is audited.
 * At level 3 the PIN failure state was already cleared by the PIN check itself, conditionally on the
 * subscriber not being locked at that moment (lib/security/check-pin.ts). The new cookie goes out
 * with the 303.
 */
export async function completeSignIn({ request, params, browserId, subscriber, ip }: StepInput & {
  subscriber: Subscriber;
}): Promise<StepResult> {
  const setCookie = await db.$transaction(async (tx) => {
    const claimed = await tx.authorizationRequest.updateMany({
      where: { id: request.id, status: "pending", otpHash: request.otpHash, browserIdHash: request.browserIdHash },
      data: { otpHash: null },
    });
    if (claimed.count === 0) return undefined;
    const renewed = await renewBrowserId({ browserId, tx });
    const session = await createSession({
      browserId: renewed.browserId, subscriberId: subscriber.id, acr: params.acr, amr: amrForAcr(params.acr), tx,
    });
    await tx.authorizationRequest.update({
      where: { id: request.id },
      data: {
        status: "authenticated", sessionId: session.id, subscriberId: subscriber.id, pinVerified: params.acr === "3",
        browserIdHash: browserIdHash(renewed.browserId),
      },
    });
    await tx.auditEvent.create({
      data: auditEventRow({ type: "sign_in", outcome: "success", subscriberId: subscriber.id, clientId: params.clientId,
        ip, detail: { acr: params.acr, method: "code" } }),
      select: { id: true },
    });
    return renewed.setCookie;
  });
  return { to: "resume", setCookie };
}
