import type { Subscriber } from "@prisma/client";
import { attributesOf } from "./subscriber-attributes";

/** What the operator may see of a subscriber: everything except the PIN hash. */
export interface SubscriberRecord {
  id: string;
  msisdn: string;
  status: string;
  hasPin: boolean;
  failedPinAttempts: number;
  lockoutCount: number;
  lockedUntil: Date | null;
  attributes: Record<string, string | boolean>;
  createdAt: Date;
  updatedAt: Date;
}

/** Maps a subscriber row to its operator view. */
export function toSubscriberRecord(row: Subscriber): SubscriberRecord {
  return {
    id: row.id, msisdn: row.msisdn, status: row.status, hasPin: row.pinHash !== null,
    failedPinAttempts: row.failedPinAttempts, lockoutCount: row.lockoutCount, lockedUntil: row.lockedUntil,
    attributes: attributesOf(row), createdAt: row.createdAt, updatedAt: row.updatedAt,
  };
}
