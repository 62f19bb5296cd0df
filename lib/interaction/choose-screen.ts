import { findWaitingRequest } from "../out-of-band/find-waiting-request";
import { maskMsisdn } from "../messaging/mask-msisdn";
import { findSubscriber } from "../subscribers/find-subscriber";
import { findSubscriberMsisdn } from "../subscribers/find-subscriber-msisdn";
import { sharedAttributes, type SharedAttribute } from "./describe-consent";
import type { PendingRequest } from "./pending-request";
import { listAccounts, type Account } from "./list-accounts";
import { MAX_CODE_ATTEMPTS } from "./one-time-code";

export type Screen =
  | { kind: "select"; accounts: Account[] }
  | { kind: "msisdn"; maskedMsisdn?: string }
  | { kind: "code"; maskedMsisdn?: string; burnt: boolean; canChangeNumber: boolean; phoneOffered: boolean }
  | { kind: "phone"; checkCode: string; bindingMessage?: string }
  | { kind: "consent"; maskedMsisdn?: string; shared: SharedAttribute[] }
  | { kind: "continue" };

/**
 * Which screen `/interaction/{id}` shows, following the authorization endpoint's decision
 * (`pending.next`, the same rules as /authorize): consent for an authenticated request; for sign-in,
 * the code step once a code was issued, the account choice for `prompt=select_account` or when this
 * browser holds sessions of several subscribers (unless "Use another number" was chosen:
 * `wantsNumber`), else the number step. Anything else goes on to /authorize/resume. The code step
 * offers "approve on your phone" for every number, and becomes the waiting screen while a request is
 * pending on the handset. At most two queries.
 */
export async function chooseScreen({ pending, browserId, wantsNumber }: {
  pending: PendingRequest; browserId: string; wantsNumber: boolean;
}): Promise<Screen> {
  const { request, params, next } = pending;
  if (next === "consent" && request.status === "authenticated") {
    // One read (as before: it gave the number): the subscriber's number and what the scopes would release.
    const subscriber = request.subscriberId ? await findSubscriber({ id: request.subscriberId }) : null;
    if (!subscriber) return { kind: "consent", shared: [] };
    return {
      kind: "consent", maskedMsisdn: maskMsisdn(subscriber.msisdn), shared: sharedAttributes(subscriber, params.scopes),
    };
  }
  if ((next !== "login" && next !== "select_account") || request.status !== "pending") return { kind: "continue" };
  const hinted = Boolean(params.hintedSubscriberId || params.hintedMsisdn);
  if (request.otpHash) {
    // "Approve on your phone": a live request waiting on the handset makes the code step the waiting
    // screen. The offer itself is shown for every number (start-phone-approval.ts), so nothing here
    // depends on whether the number has a handset.
    const waiting = await findWaitingRequest({ authorizationRequestId: request.id });
    if (waiting) return { kind: "phone", ...waiting };
    // The typed number is not shown back: an unknown number must look exactly like a known one.
    return {
      kind: "code", burnt: request.otpAttempts >= MAX_CODE_ATTEMPTS, canChangeNumber: !hinted,
      maskedMsisdn: params.hintedMsisdn ? maskMsisdn(params.hintedMsisdn) : undefined, phoneOffered: true,
    };
  }
  if (!hinted && !request.subscriberId && !wantsNumber && (next === "select_account" || params.prompt.includes("select_account"))) {
    const accounts = await listAccounts({ browserId });
    if (accounts.length > 0) return { kind: "select", accounts };
  }
  if (params.hintedMsisdn) return { kind: "msisdn", maskedMsisdn: maskMsisdn(params.hintedMsisdn) };
  // A subscriber named by id only (id_token_hint), or the account picked on the selection screen.
  return { kind: "msisdn", maskedMsisdn: await maskedNumberOf(params.hintedSubscriberId ?? request.subscriberId) };
}

async function maskedNumberOf(subscriberId: string | null | undefined): Promise<string | undefined> {
  if (!subscriberId) return undefined;
  const msisdn = await findSubscriberMsisdn({ subscriberId });
  return msisdn !== null ? maskMsisdn(msisdn) : undefined;
}
