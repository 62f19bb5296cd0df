import { answeringSession } from "../../authorization-request/answering-session";
import { holdForAnswer } from "../../out-of-band/hold-for-answer";
import { expireHandsetRequest } from "../../out-of-band/expire-handset-request";
import { AccessDenied } from "../errors";
import type { LiveSession } from "../../sessions/live-session";
import type { ClientProvenance } from "../../clients/client-provenance";
import { mobileWaitingPage } from "./mobile-waiting-page";

/**
 * How long one HTTP response is held open. Below common proxy idle timeouts (60 s) so no
 * intermediary cuts it; after it the browser is sent on to /authorize/wait/{id} and waits again.
 */
export const MOBILE_WAIT_MS = 50_000;

/** The handset request a waiting `prompt=mobile` authorization holds on. */
export interface HeldDeviceRequest {
  id: string;
  checkCode: string;
  clientName: string;
}

/**
 * Holds the consumption device's request until the handset answers, then ends like any
 * authorization (interface "Return to the redirect address"):
 * - approved: the session the handset approval wrote, for the code (the pipeline's issue step);
 * - rejected, or the check code typed on the handset did not match: `access_denied`;
 * - expired before an answer: `access_denied` as well ("expired on the handset"): the Mobile
 *   Connect interface lists no timeout code for the authorization endpoint, RFC 6749 §4.1.2.1 has
 *   none, and OIDC `interaction_required` would wrongly invite the RP to retry with a screen;
 * - still waiting when the bound (MOBILE_WAIT_MS or the expiry) passes, or the client went away:
 *   the waiting page again, which reloads itself here.
 * While it holds, the handset request counts as attended (holdForAnswer): a browser that went away
 * leaves a request the handset no longer lists nor accepts.
 */
export async function awaitMobileAnswer({ requestId, device, mark, expiresAt, signal, languages }: {
  requestId: string; device: HeldDeviceRequest; mark: ClientProvenance | null; expiresAt: Date; signal?: AbortSignal;
  languages: readonly string[];
}): Promise<Response | { session: LiveSession }> {
  const remaining = expiresAt.getTime() - Date.now();
  const outcome = remaining <= 0
    ? await expireHandsetRequest({ id: device.id })
    : await holdForAnswer({ id: device.id, maxMs: Math.min(MOBILE_WAIT_MS, remaining + 1_000), signal });
  if (outcome === "rejected") throw new AccessDenied("The subscriber rejected the request on their handset");
  if (outcome === "mismatch") {
    throw new AccessDenied("The check code typed on the handset did not match the one shown with the request");
  }
  if (outcome === "expired") throw new AccessDenied("The authorization request expired on the handset before it was answered");
  if (outcome === "waiting") {
    return mobileWaitingPage({ requestId, checkCode: device.checkCode, clientName: device.clientName, mark, expiresAt,
      languages });
  }
  const session = await answeringSession({ requestId });
  if (!session) throw new AccessDenied("The authorization request is no longer valid");
  return { session };
}
