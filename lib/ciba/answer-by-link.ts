import { db } from "../db";
import { safeEqual } from "../crypto";
import { recordAuditEvent } from "../audit/record-audit-event";
import { checkFormToken, formToken } from "../http/form-token";
import { amrForAcr } from "../interaction/amr-for-acr";
import { checkDevicePin, lockedSincePinCheck } from "../out-of-band/check-device-pin";
import { kickBackchannelDelivery } from "./backchannel-delivery";
import { settleBackchannelRequest } from "./settle-backchannel-request";
import { SMS_CODE_ATTEMPTS, smsCodeHash, smsLinkHash } from "./sms-link";
import { recordSignIn } from "../metrics/record";
import { clientProvenance, type ClientProvenance } from "../clients/client-provenance";

/**
 * The text-message link of a subscriber with no enrolled handset (lib/ciba/sms-link.ts, docs/ciba.md):
 * GET /handset/approve/<token> asks the code of the text message; the right code shows the same approval card as
 * the handset (app, scopes, binding message, PIN at level 3); Approve or Reject settles the request.
 * - Opening the link never answers anything: only the two POSTs change state.
 * - Each code try is reserved before it is compared, by one conditional UPDATE (still pending, unexpired, fewer than
 *   SMS_CODE_ATTEMPTS tries so far), so fifty parallel guesses still get SMS_CODE_ATTEMPTS tries in all; the
 *   comparison is constant-time on the keyed hashes (smsCodeHash, an HMAC under the service's key).
 * - Between the code and the answer the browser holds a proof (`LinkProof`): an HMAC under the service's key
 *   (lib/http/form-token.ts, its own label) of the request id and an expiry, in a short-lived HttpOnly SameSite=Strict
 *   cookie scoped to this link's path. Nothing is stored, the proof is useless for any other request, and it never
 *   appears in the page.
 * - The answer is settleBackchannelRequest, the one place a request ends: approved with acr and the code flow's amr
 *   for a text-message code (`otp sms` [+ `pin`], lib/interaction/amr-for-acr.ts), or denied. No Grant is
 *   remembered: as on the handset, the approval covers this one request.
 */

/** How long the proof of the right code lasts (and never past the request's expiry). */
export const LINK_PROOF_SECONDS = 600;
const PROOF_LABEL = "ciba-link-code";

/** What the link's page shows. */
export type LinkState = "unknown" | "expired" | "approved" | "denied" | "answered" | "no_tries";
export type LinkView =
  | { state: LinkState }
  | { state: "code"; triesLeft: number }
  | { state: "card"; clientName: string; mark: ClientProvenance | null; scope: string; acr: string;
    bindingMessage: string | null; expiresAt: Date };

export type LinkCodeResult =
  | { result: "ok"; proof: string; maxAge: number }
  | { result: "code_missing" }
  | { result: "code_invalid"; triesLeft: number }
  | { result: LinkState };

export type LinkAnswerResult = "approved" | "rejected" | "code_again" | "pin_missing" | "pin_invalid" | "locked" | LinkState;

/** The link's random part: mintSmsLink's randomToken(24), 32 base64url characters. */
export function isLinkToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{32}$/.test(token);
}

type Row = NonNullable<Awaited<ReturnType<typeof findByToken>>>;

async function findByToken(token: string) {
  if (!isLinkToken(token)) return null;
  return db.backchannelRequest.findUnique({ where: { linkHash: smsLinkHash(token) },
    select: { id: true, clientId: true, subscriberId: true, scope: true, acr: true, bindingMessage: true, channel: true,
      codeHash: true, codeAttempts: true, status: true, expiresAt: true } });
}

/** The state of a request that cannot be answered any more (or null while it can). */
function closedState(row: Row | null, now: Date): LinkState | null {
  if (!row || row.channel !== "sms" || !row.codeHash) return "unknown";
  if (row.status === "approved" || row.status === "redeemed") return "approved";
  if (row.status === "denied") return "denied";
  if (row.status === "expired" || row.expiresAt <= now) return "expired";
  if (row.status !== "pending") return "answered";
  return null;
}

function proofValid(row: Row, proof: string | null | undefined, now: Date): boolean {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(proof ?? "");
  if (!match) return false;
  const exp = Number(match[1]);
  return exp * 1000 > now.getTime() && checkFormToken(PROOF_LABEL, `${row.id}\n${exp}`, match[2]);
}

/** GET: what the page of the link shows (never changes anything). `proof` is the cookie, if any. */
export async function viewLinkRequest({ token, proof, now = new Date() }: {
  token: string; proof?: string | null; now?: Date;
}): Promise<LinkView> {
  const row = await findByToken(token);
  const closed = closedState(row, now);
  if (closed || !row) return { state: closed ?? "unknown" };
  if (proofValid(row, proof, now)) {
    const client = await db.client.findUnique({ where: { id: row.clientId },
      select: { id: true, name: true, registeredBy: true, sectorIdentifier: true } });
    const mark = client ? clientProvenance(client) : null;
    return { state: "card", clientName: client?.name ?? row.clientId, mark, scope: row.scope, acr: row.acr,
      bindingMessage: row.bindingMessage, expiresAt: row.expiresAt };
  }
  if (row.codeAttempts >= SMS_CODE_ATTEMPTS) return { state: "no_tries" };
  return { state: "code", triesLeft: SMS_CODE_ATTEMPTS - row.codeAttempts };
}

/** POST of the code: reserves one try, then compares; the right code gives the proof the answer step needs. */
export async function checkLinkCode({ token, code, now = new Date() }: {
  token: string; code: string; now?: Date;
}): Promise<LinkCodeResult> {
  const row = await findByToken(token);
  const closed = closedState(row, now);
  if (closed || !row) return { result: closed ?? "unknown" };
  const typed = code.replace(/\s/g, "").slice(0, 16);
  if (!typed) return { result: "code_missing" };
  const reserved = await db.backchannelRequest.updateMany({
    where: { id: row.id, status: "pending", expiresAt: { gt: now }, codeAttempts: { lt: SMS_CODE_ATTEMPTS } },
    data: { codeAttempts: { increment: 1 } },
  });
  if (reserved.count !== 1) {
    const again = await findByToken(token);
    return { result: closedState(again, now) ?? "no_tries" };
  }
  if (!safeEqual(smsCodeHash({ requestId: row.id, code: typed }), row.codeHash!)) {
    const after = await db.backchannelRequest.findUnique({ where: { id: row.id }, select: { codeAttempts: true } });
    const triesLeft = Math.max(0, SMS_CODE_ATTEMPTS - (after?.codeAttempts ?? SMS_CODE_ATTEMPTS));
    await recordAuditEvent({ type: "sign_in", outcome: "failure", subscriberId: row.subscriberId, clientId: row.clientId,
      detail: { method: "sms_link", reason: triesLeft === 0 ? "code_attempts_exhausted" : "code_invalid", flow: "ciba" } });
    recordSignIn("2", "failure");
    return triesLeft === 0 ? { result: "no_tries" } : { result: "code_invalid", triesLeft };
  }
  const maxAge = Math.max(1, Math.min(LINK_PROOF_SECONDS, Math.floor((row.expiresAt.getTime() - now.getTime()) / 1000)));
  const exp = Math.floor(now.getTime() / 1000) + maxAge;
  return { result: "ok", proof: `${exp}.${formToken(PROOF_LABEL, `${row.id}\n${exp}`)}`, maxAge };
}

/** Thrown inside the answer's transaction when a PIN lockout began after the PIN was checked. */
const LOCKED = new Error("subscriber locked");

/** POST of the answer (after the right code): approve (PIN at level 3) or reject, through settleBackchannelRequest. */
export async function answerByLink({ token, proof, decision, pin, now = new Date() }: {
  token: string; proof: string | null | undefined; decision: "approve" | "reject"; pin?: string; now?: Date;
}): Promise<LinkAnswerResult> {
  const row = await findByToken(token);
  const closed = closedState(row, now);
  if (closed || !row) return closed ?? "unknown";
  if (!proofValid(row, proof, now)) return "code_again";
  const approve = decision === "approve";
  const acr = row.acr === "3" ? "3" : "2";
  if (approve && acr === "3") {
    const pinResult = await checkDevicePin({ subscriberId: row.subscriberId, pin: pin ?? "" });
    if (pinResult === "gone") return "unknown";
    if (pinResult) return pinResult;
  }
  const won = await db.$transaction(async (tx) => {
    if (approve && acr === "3" && await lockedSincePinCheck(tx, row.subscriberId, now)) throw LOCKED;
    // A text-message request has no handset row (createDeviceRequest writes none on that channel): nothing else ends.
    return settleBackchannelRequest(tx, { requestId: row.id, at: now,
      settlement: approve ? { outcome: "approved", acr, amr: amrForAcr(acr) } : { outcome: "denied" } });
  }).catch((err: unknown) => {
    if (err === LOCKED) return "locked" as const;
    throw err;
  });
  if (won === "locked") return "locked";
  if (!won) return closedState(await findByToken(token), now) ?? "answered";
  kickBackchannelDelivery();
  const audit = recordAuditEvent({ type: "approval_answered", outcome: approve ? "success" : "denied",
    subscriberId: row.subscriberId, clientId: row.clientId,
    detail: { reason: approve ? "approved" : "rejected", acr, flow: "ciba", channel: "sms" } });
  if (!approve) {
    await audit;
    return "rejected";
  }
  await Promise.all([audit, recordAuditEvent({ type: "sign_in", outcome: "success", subscriberId: row.subscriberId,
    clientId: row.clientId, detail: { method: "sms_link", acr, flow: "ciba" } })]);
  recordSignIn(acr, "success");
  return "approved";
}
