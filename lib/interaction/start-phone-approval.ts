import { randomInt } from "node:crypto";
import { config } from "../config";
import { db } from "../db";
import { randomToken } from "../crypto";
import { hasActiveDevice } from "../devices/has-active-device";
import { publishDeviceEvent } from "../devices/device-events-bus";
import type { StepInput, StepResult } from "./step-result";

/**
 * POST /interaction/{id}/phone ("Approve on your phone instead"): the alternative to the one-time
 * code (issue 5). Pushes the pending request to the subscriber's enrolled handset as a
 * DeviceRequest, the same one `prompt=mobile` uses, then the waiting screen. Offered only once a
 * code was issued to an active subscriber (`subscriberId` set), so it never names anyone new.
 *
 * The binding message shown on both screens is the relying party's (mc_authz) or, without one, a
 * fresh 4-digit reference, so the subscriber can tell this sign-in from another one. The handset
 * request lives at most OTP_TTL (the code's own lifetime) and never beyond the stored request; an
 * answered or expired one is replaced, a live one is kept (a double submit sends one request).
 */
export async function startPhoneApproval({ request, params }: StepInput): Promise<StepResult> {
  const subscriberId = request.subscriberId;
  if (request.status !== "pending" || !request.otpSentAt || !subscriberId) return { to: "interaction" };
  if (!(await hasActiveDevice({ subscriberId }))) return { to: "interaction", error: "phone_unavailable" };
  const now = new Date();
  const expiresAt = new Date(Math.min(now.getTime() + config().OTP_TTL * 1000, request.expiresAt.getTime()));
  const bindingMessage = params.bindingMessage || String(randomInt(1000, 10_000));
  const created = await db.$transaction(async (tx) => {
    const live = await tx.deviceRequest.findFirst({
      where: { authorizationRequestId: request.id, status: "pending", expiresAt: { gt: now } }, select: { id: true },
    });
    if (live) return null;
    await tx.deviceRequest.deleteMany({ where: { authorizationRequestId: request.id } });
    return tx.deviceRequest.create({
      data: { id: randomToken(16), authorizationRequestId: request.id, subscriberId, clientName: params.clientName,
        context: params.context ?? null, bindingMessage, scope: params.scopes.join(" "), acr: params.acr, expiresAt },
      select: { id: true },
    });
  });
  // The handset may be connected to another instance (lib/devices/device-events-bus.ts).
  if (created) publishDeviceEvent({ kind: "created", subscriberId, requestId: created.id });
  return { to: "interaction" };
}
