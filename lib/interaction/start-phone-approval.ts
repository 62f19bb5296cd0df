import { config } from "../config";
import { createDeviceRequest } from "../out-of-band/create-device-request";
import { findWaitingRequest } from "../out-of-band/find-waiting-request";
import { handsetOfSubscriber } from "../out-of-band/handset-of-subscriber";
import type { StepInput, StepResult } from "./step-result";

/**
 * POST /interaction/{id}/phone ("Approve on your phone instead"): the alternative to the one-time
 * code (issue 5). Creates the handset request (lib/out-of-band/create-device-request.ts: limits, check
 * code, audit), then the waiting screen shows the check code the subscriber types on the phone.
 *
 * Offered on every code step, whatever the number: a number without a subscriber or without a
 * handset gets the same waiting screen (its request is stored but no handset lists it, and it
 * expires like an unanswered one), so the screens do not tell who has a handset. The handset
 * request lives at most OTP_TTL and never beyond the stored request; a live one is kept (a double
 * submit sends one request), an answered or expired one is replaced.
 */
export async function startPhoneApproval({ request, params, ip, userAgent }: StepInput): Promise<StepResult> {
  // Never for a client that always needs the text-message code (params.freshCodeSignIn, the account page).
  if (request.status !== "pending" || !request.otpSentAt || params.freshCodeSignIn) return { to: "interaction" };
  const now = new Date();
  if (await findWaitingRequest({ authorizationRequestId: request.id, now: now.getTime() })) return { to: "interaction" };
  // `subscriberId` is set on the stored request only for an active subscriber the code went to.
  const handset = await handsetOfSubscriber({ subscriberId: request.subscriberId });
  const created = await createDeviceRequest({
    authorizationRequestId: request.id,
    // The digits of an unknown number are not kept: its requests are counted per sign-in.
    numberKey: handset.msisdn !== null ? `msisdn:${handset.msisdn}` : `request:${request.id}`,
    subscriberId: handset.deliverable ? request.subscriberId : null,
    client: { id: params.clientId, name: params.clientName },
    text: { context: params.context, bindingMessage: params.bindingMessage, verified: params.clientAuthenticated === true },
    scope: params.scopes.join(" "), acr: params.acr,
    expiresAt: new Date(Math.min(now.getTime() + config().OTP_TTL * 1000, request.expiresAt.getTime())),
    ip: ip ?? "unknown", userAgent: userAgent ?? null, flow: "phone",
    replace: true,
  });
  if (!created.ok) return { to: "interaction", error: "phone_limited", retryAfter: created.retryAfter };
  return { to: "interaction" };
}
