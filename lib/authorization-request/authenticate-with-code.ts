import { db } from "../db";
import { auditEventRow, type AuditInput } from "../audit/record-audit-event";
import { browserIdHash } from "../sessions/browser-cookie";
import { createSession } from "../sessions/create-session";
import { renewBrowserId } from "../sessions/renew-browser-id";
import type { AuthorizationRequest } from "./authorization-request-row";

/**
 * A correct code (and, at level 3, PIN) signs the request in, in one transaction: the code is consumed
 * by a conditional update (only while the same code is on the row, the row is still `pending` and
 * still bound to the cookie the browser sent, so a code signs in once even under concurrent posts),
 * the browser gets a fresh id (its live sessions and open requests move to it: session fixation,
 * lib/sessions/renew-browser-id.ts), an operator session is opened under it at `acr` with `amr`, the
 * request becomes `authenticated` with it (`pinVerified` at level 3) and the sign-in is audited.
 * Returns the new cookie's Set-Cookie value; undefined, with nothing written, when the code was
 * already consumed or replaced.
 */
export async function authenticateWithCode({ request, browserId, subscriberId, acr, amr, audit }: {
  request: Pick<AuthorizationRequest, "id" | "otpHash" | "browserIdHash">; browserId: string; subscriberId: string;
  acr: "2" | "3"; amr: string[]; audit: AuditInput;
}): Promise<string | undefined> {
  return db.$transaction(async (tx) => {
    const claimed = await tx.authorizationRequest.updateMany({
      where: { id: request.id, status: "pending", otpHash: request.otpHash, browserIdHash: request.browserIdHash },
      data: { otpHash: null },
    });
    if (claimed.count === 0) return undefined;
    const renewed = await renewBrowserId({ browserId, tx });
    const session = await createSession({ browserId: renewed.browserId, subscriberId, acr, amr, tx });
    await tx.authorizationRequest.update({
      where: { id: request.id },
      data: {
        status: "authenticated", sessionId: session.id, subscriberId, pinVerified: acr === "3",
        browserIdHash: browserIdHash(renewed.browserId),
      },
    });
    await tx.auditEvent.create({ data: auditEventRow(audit), select: { id: true } });
    return renewed.setCookie;
  });
}
