import { db } from "../db";
import { pseudonymiseSubscriber } from "./pseudonymise-subscriber";

export interface SignInRecord {
  at: Date;
  clientId: string | null;
  /** The level reached (acr "2" or "3"), as the sign-in recorded it. */
  acr: string | null;
  /** How: `code` (text message), `device` (approved on the handset). */
  method: string | null;
}

/**
 * A subscriber's recent successful sign-ins, newest first, from the audit log (`sign_in` events,
 * found by the subscriber's pseudonym: the log holds no subscriber id).
 */
export async function listSubscriberSignIns({ subscriberId, limit = 10 }: { subscriberId: string; limit?: number }):
  Promise<SignInRecord[]> {
  const rows = await db.auditEvent.findMany({
    where: { subscriberRef: pseudonymiseSubscriber(subscriberId), type: "sign_in", outcome: "success" },
    orderBy: [{ at: "desc" }, { id: "desc" }], take: limit, select: { at: true, clientId: true, detail: true },
  });
  return rows.map((r) => {
    const detail = readDetail(r.detail);
    return { at: r.at, clientId: r.clientId, acr: text(detail.acr), method: text(detail.method) };
  });
}

function readDetail(json: string | null): Record<string, unknown> {
  try {
    const value: unknown = json ? JSON.parse(json) : null;
    return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const text = (v: unknown) => (typeof v === "string" ? v : null);
