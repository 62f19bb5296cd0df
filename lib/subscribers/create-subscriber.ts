import { randomUUID } from "node:crypto";
import { db } from "../db";
import { hashSecret } from "../crypto";
import { AdminError } from "../admin/admin-error";
import { isUniqueViolation } from "../store/is-unique-violation";
import { normaliseMsisdnOrThrow } from "./normalise-msisdn-or-throw";
import { checkPinStrength } from "./check-pin-strength";
import { parseAttributes } from "./subscriber-attributes";
import { toSubscriberRecord, type SubscriberRecord } from "./subscriber-record";

export interface CreateSubscriberInput {
  msisdn: string;
  pin: string;
  /** `key=value` pairs named as in the premium info record (`given_name=Alice`). */
  attributes?: readonly string[];
  status?: "active" | "suspended";
}

/** Registers a subscriber (MSISDN unique, PIN scrypt-hashed); everything is validated before the write. */
export async function createSubscriber(input: CreateSubscriberInput): Promise<SubscriberRecord> {
  const msisdn = normaliseMsisdnOrThrow(input.msisdn);
  checkPinStrength({ pin: input.pin, msisdn });
  const attributes = parseAttributes(input.attributes ?? []);
  if (await db.subscriber.findUnique({ where: { msisdn }, select: { id: true } })) {
    throw new AdminError(`a subscriber with MSISDN ${msisdn} already exists`);
  }
  try {
    const row = await db.subscriber.create({
      data: { id: randomUUID(), msisdn, status: input.status ?? "active", pinHash: await hashSecret(input.pin), ...attributes },
    });
    return toSubscriberRecord(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AdminError(`a subscriber with MSISDN ${msisdn} already exists`);
    throw err;
  }
}
