import { AdminError } from "../admin/admin-error";
import { uuidV7 } from "../crypto";
import { db } from "../db";
import { isUniqueViolation } from "../store/is-unique-violation";
import { applySimSwap, NO_EFFECTS, type SimSwapEffects } from "./apply-sim-swap";
import {
  FUTURE_SKEW_MS, simSwapMsisdn, simSwapReference, simSwapTime, type SimSwapEventRecord, type SimSwapSource,
} from "./sim-swap-event";

export interface RecordedSimSwap {
  event: SimSwapEventRecord;
  /** False when the same (source, reference) was recorded before: nothing changed. */
  created: boolean;
  /** Whether the number is a subscriber's (the effects apply to them). */
  subscriber: boolean;
  effects: SimSwapEffects;
}

/**
 * Records one SIM change (one INSERT; the unique (source, reference) makes a repeated import a no-op) and, when
 * it is new and the number is a subscriber's, applies its effects (applySimSwap). `at` defaults to now; a future
 * time, a malformed number or reference are refused (AdminError).
 */
export async function recordSimSwap({ msisdn: input, at, source, reference = null, now = new Date() }: {
  msisdn: string; at?: Date | string; source: SimSwapSource; reference?: string | null; now?: Date;
}): Promise<RecordedSimSwap> {
  const msisdn = simSwapMsisdn(input);
  if (!msisdn) {
    throw new AdminError(
      "malformed MSISDN: expected 7-15 digits with country code, first digit not 0 (e.g. 447700900123)");
  }
  const swappedAt = at === undefined ? now : at instanceof Date ? at : simSwapTime(at, now);
  if (typeof swappedAt === "string") throw new AdminError(swappedAt);
  if (swappedAt.getTime() > now.getTime() + FUTURE_SKEW_MS) throw new AdminError("swapped_at is in the future");
  const ref = simSwapReference(reference);
  if (typeof ref === "object") throw new AdminError(ref.error);
  const inserted = await insertSimSwapEvent({ msisdn, swappedAt, source, reference: ref ?? null });
  const subscriber = await db.subscriber.findUnique({ where: { msisdn }, select: { id: true } });
  if (!inserted.created || !subscriber) return { ...inserted, subscriber: subscriber !== null, effects: NO_EFFECTS };
  const effects = await applySimSwap({ subscriberId: subscriber.id, msisdn, swappedAt, source, now });
  return { ...inserted, subscriber: true, effects };
}

/** One INSERT; a duplicate (source, reference) reads the existing row instead (created: false). */
export async function insertSimSwapEvent({ msisdn, swappedAt, source, reference }: {
  msisdn: string; swappedAt: Date; source: SimSwapSource; reference: string | null;
}): Promise<{ event: SimSwapEventRecord; created: boolean }> {
  try {
    const row = await db.simSwapEvent.create({ data: { id: uuidV7(), msisdn, swappedAt, source, reference } });
    return { event: { ...row, source }, created: true };
  } catch (err) {
    if (reference !== null && isUniqueViolation(err)) {
      const row = await db.simSwapEvent.findUnique({ where: { source_reference: { source, reference } } });
      if (row) return { event: { ...row, source: row.source as SimSwapSource }, created: false };
    }
    throw err;
  }
}
