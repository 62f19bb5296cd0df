import { config } from "../config";
import { db } from "../db";
import { createDeviceRequest } from "../devices/create-device-request";
import type { StepInput, StepResult } from "./step-result";

/**
 * POST /interaction/{id}/phone ("Approve on your phone instead"): the alternative to the one-time
 * code (issue 5). Creates the handset request (lib/devices/create-device-request.ts: limits, check
 * code, audit), then the waiting screen shows the check code the subscriber types on the phone.
 *
 * Offered on every code step, whatever the number: a number without a subscriber or without a
 * handset gets the same waiting screen (its request is stored but no handset lists it, and it
 * expires like an unanswered one), so the screens do not tell who has a handset. The handset
 * request lives at most OTP_TTL and never beyond the stored request; a live one is kept (a double
 * submit sends one request), an answered or expired one is replaced.
 */
export async function startPhoneApproval({ request, params, ip, userAgent }: StepInput): Promise<StepResult> {
  if (request.status !== "pending" || !request.otpSentAt) return { to: "interaction" };
  const now = new Date();
  const current = await db.deviceRequest.findUnique({
    where: { authorizationRequestId: request.id }, select: { status: true, expiresAt: true },
  });
  if (current?.status === "pending" && current.expiresAt > now) return { to: "interaction" };
  // `subscriberId` is set on the stored request only for an active subscriber the code went to.
  // The same lookups for every number (ids that match nothing for an unknown one).
  const subscriber = await db.subscriber.findUnique({ where: { id: request.subscriberId ?? "" }, select: { msisdn: true } });
  const device = await db.device.findFirst({
    where: { subscriberId: subscriber ? request.subscriberId! : "", revokedAt: null }, select: { id: true },
  });
  const created = await createDeviceRequest({
    authorizationRequestId: request.id,
    // The digits of an unknown number are not kept: its requests are counted per sign-in.
    numberKey: subscriber ? `msisdn:${subscriber.msisdn}` : `request:${request.id}`,
    subscriberId: device ? request.subscriberId : null,
    client: { id: params.clientId, name: params.clientName },
    text: { context: params.context, bindingMessage: params.bindingMessage, verified: params.clientAuthenticated === true },
    scope: params.scopes.join(" "), acr: params.acr,
    expiresAt: new Date(Math.min(now.getTime() + config().OTP_TTL * 1000, request.expiresAt.getTime())),
    ip: ip ?? "unknown", userAgent: userAgent ?? null, flow: "phone",
    prepare: (tx) => tx.deviceRequest.deleteMany({ where: { authorizationRequestId: request.id } }),
  });
  if (!created.ok) return { to: "interaction", error: "phone_limited", retryAfter: created.retryAfter };
  return { to: "interaction" };
}
