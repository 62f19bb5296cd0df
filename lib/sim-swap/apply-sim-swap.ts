import { kickBackchannelDelivery } from "../ciba/backchannel-delivery";
import { db } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { notifyRelyingParties } from "../logout/notify-relying-parties";
import { cutSubscriberAccessIn } from "../subscribers/suspend-subscriber";

/** What a SIM swap ended (counts of rows changed), as the admin CLI prints it. */
export interface SimSwapEffects {
  sessionsEnded: number;
  accessTokensRevoked: number;
  refreshTokensRevoked: number;
  devicesRemoved: number;
  backchannelRequestsDenied: number;
  deviceRequestsExpired: number;
  enrolmentsCancelled: number;
  authorizationCodesExpired: number;
  authorizationRequestsExpired: number;
  /** Relying parties told by back-channel logout: queued (delivered by the server's worker). */
  logoutNotified: boolean;
}

export const NO_EFFECTS: SimSwapEffects = {
  sessionsEnded: 0, accessTokensRevoked: 0, refreshTokensRevoked: 0, devicesRemoved: 0, backchannelRequestsDenied: 0,
  deviceRequestsExpired: 0, enrolmentsCancelled: 0, authorizationCodesExpired: 0, authorizationRequestsExpired: 0,
  logoutNotified: false,
};

/**
 * The effects of a SIM change at `swappedAt` on the number's subscriber (docs/sim-swap.md "Effects"): whoever
 * holds the number now is not necessarily who signed in before, so everything authenticated, requested or enrolled
 * before the change stops working, in ONE transaction:
 * - sessions end; access and refresh tokens are revoked; CIBA requests pending or approved-not-redeemed are denied
 *   (cutSubscriberAccessIn, shared with suspension);
 * - enrolled handsets are revoked (the new SIM's owner must enrol again), their pending requests expire, and
 *   enrolments started before the change (their code went to the number) are cancelled;
 * - authorization codes not yet redeemed and sign-ins in progress expire now.
 * Only what predates `swappedAt` is touched, so a historical (imported) event ends only what is older than it, and
 * applying the same event twice changes nothing more. Afterwards: relying parties with a back-channel logout URI
 * are notified (when something ended) and `sim_swap` is audited with the subscriber pseudonymised.
 */
export async function applySimSwap({ subscriberId, msisdn, swappedAt, source, now = new Date() }: {
  subscriberId: string; msisdn: string; swappedAt: Date; source: string; now?: Date;
}): Promise<SimSwapEffects> {
  const before = swappedAt.getTime() < now.getTime() ? swappedAt : now;
  const created = { createdAt: { lt: before } };
  const { queued, ...effects } = await db.$transaction(async (tx) => {
    const devices = await tx.device.updateMany({ where: { subscriberId, revokedAt: null, ...created },
      data: { revokedAt: now } });
    const deviceRequests = await tx.deviceRequest.updateMany({ where: { subscriberId, status: "pending", ...created },
      data: { status: "expired" } });
    const enrolments = await tx.deviceEnrolment.deleteMany({ where: { msisdn, ...created } });
    const cut = await cutSubscriberAccessIn(tx, { subscriberId, now, before });
    const codes = await tx.authorizationCode.updateMany({
      where: { subscriberId, usedAt: null, expiresAt: { gt: now }, authTime: { lt: before } },
      data: { expiresAt: now } });
    const requests = await tx.authorizationRequest.updateMany({
      where: { subscriberId, status: { in: ["pending", "authenticated"] }, expiresAt: { gt: now }, ...created },
      data: { expiresAt: now } });
    return { ...cut, devicesRemoved: devices.count, deviceRequestsExpired: deviceRequests.count,
      enrolmentsCancelled: enrolments.count, authorizationCodesExpired: codes.count,
      authorizationRequestsExpired: requests.count };
  });
  if (queued) kickBackchannelDelivery();
  const ended = effects.sessionsEnded + effects.accessTokensRevoked + effects.refreshTokensRevoked
    + effects.devicesRemoved + effects.backchannelRequestsDenied > 0;
  if (ended) await notifyRelyingParties({ reason: "sim_swap", subscriberId }, now); // back-channel logout (lib/logout)
  await recordAuditEvent({ type: "sim_swap", outcome: "success", subscriberId, at: now, detail: {
    source, swapped_at: swappedAt.toISOString(), sessions_ended: effects.sessionsEnded,
    access_tokens_revoked: effects.accessTokensRevoked, refresh_tokens_revoked: effects.refreshTokensRevoked,
    devices_removed: effects.devicesRemoved, backchannel_requests_denied: effects.backchannelRequestsDenied,
  } });
  return { ...effects, logoutNotified: ended };
}
