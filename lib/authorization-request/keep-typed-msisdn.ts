import { db } from "../db";

/** How long a refused number is kept for the number step to show it back (issue 17). */
export const TYPED_MSISDN_SECONDS = 60;

/**
 * Keeps what was typed in the number field when the step refused it, so the number step shows it
 * back (never in the URL: URLs are logged and a number is personal data). At most 40 characters; one
 * conditional update, only while the request is pending. Read at most once, within
 * TYPED_MSISDN_SECONDS (takeTypedMsisdn), and cleared by the next code stored.
 */
export async function keepTypedMsisdn({ requestId, typed }: { requestId: string; typed: string }): Promise<void> {
  await db.authorizationRequest.updateMany({
    where: { id: requestId, status: "pending" },
    data: { typedMsisdn: typed.slice(0, 40), typedAt: new Date() },
  });
}

/**
 * The refused number kept on `row` if still fresh, and clears it (one conditional update on the same
 * value, so it is shown once: a reload shows an empty field). Null when none or too old.
 */
export async function takeTypedMsisdn(row: { id: string; typedMsisdn: string | null; typedAt: Date | null },
  now = Date.now()): Promise<string | null> {
  if (!row.typedMsisdn || !row.typedAt) return null;
  await db.authorizationRequest.updateMany({
    where: { id: row.id, typedAt: row.typedAt }, data: { typedMsisdn: null, typedAt: null },
  });
  return now - row.typedAt.getTime() <= TYPED_MSISDN_SECONDS * 1000 ? row.typedMsisdn : null;
}
