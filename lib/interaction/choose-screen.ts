import { takeTypedMsisdn } from "../authorization-request/keep-typed-msisdn";
import { UNSENT_CODE_AT } from "../authorization-request/store-unsent-sign-in-code";
import { config } from "../config";
import { findWaitingRequest } from "../out-of-band/find-waiting-request";
import { maskMsisdn } from "../messaging/mask-msisdn";
import { findSubscriber } from "../subscribers/find-subscriber";
import { findSubscriberMsisdn } from "../subscribers/find-subscriber-msisdn";
import { sharedAttributes, type SharedAttribute } from "./describe-consent";
import type { PendingRequest } from "./pending-request";
import { listAccounts, type Account } from "./list-accounts";
import { msisdnExample } from "./msisdn-example";
import { isOneTimeCodeExpired, MAX_CODE_ATTEMPTS, RESEND_DELAY_SECONDS } from "./one-time-code";

export type Screen =
  | { kind: "select"; accounts: Account[] }
  | {
    kind: "msisdn"; maskedMsisdn?: string; example?: { national: string; international: string } | null;
    /** "Approve on your phone instead": not for a client that always needs the code (params.freshCodeSignIn). */
    phoneOffered: boolean;
    /** A refused number as typed, shown back once in the field (keep-typed-msisdn.ts). */
    typed?: string;
  }
  | {
    kind: "code"; maskedMsisdn?: string; burnt: boolean; canChangeNumber: boolean; phoneOffered: boolean;
    /** False when "approve on your phone" was chosen before any text message: no code went out. */
    codeSent: boolean;
    /** A sent code past OTP_TTL: no code form, a new code at once. */
    expired: boolean;
    /** When the code stops working, and when "Request a new code" is offered (undefined: now). */
    expiresAt?: Date; resendAt?: Date;
    /** Wrong codes still allowed (MAX_CODE_ATTEMPTS minus the attempts stored on the request). */
    codeTriesLeft: number;
  }
  | { kind: "phone"; checkCode: string; bindingMessage?: string }
  | { kind: "consent"; maskedMsisdn?: string; shared: SharedAttribute[] }
  | { kind: "continue" };

/**
 * Which screen `/interaction/{id}` shows, following the authorization endpoint's decision
 * (`pending.next`, the same rules as /authorize): consent for an authenticated request; for sign-in,
 * the code step once a code was issued, the account choice for `prompt=select_account` or when this
 * browser holds sessions of several subscribers (unless "Use another number" was chosen:
 * `wantsNumber`), else the number step. Anything else goes on to /authorize/resume. The code step
 * offers "approve on your phone" for every number (except to a client that always needs the code,
 * `params.freshCodeSignIn`), and becomes the waiting screen while a request is pending on the handset. At most two
 * queries.
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
  // A client that always needs the text-message code (the account page) is never approved on the handset.
  const phoneOffered = !params.freshCodeSignIn;
  if (request.otpHash) {
    // "Approve on your phone": a live request waiting on the handset makes the code step the waiting
    // screen. The offer itself is shown for every number (start-phone-approval.ts), so nothing here
    // depends on whether the number has a handset.
    const waiting = await findWaitingRequest({ authorizationRequestId: request.id });
    if (waiting) return { kind: "phone", ...waiting };
    // The masked number is the one stored with the code (`sentTo`: a typed number, known or not), so
    // it says nothing about who is a subscriber; the times and tries come from the request row alone.
    const sentAt = request.otpSentAt;
    const codeSent = sentAt !== null && sentAt.getTime() !== UNSENT_CODE_AT.getTime();
    const burnt = request.otpAttempts >= MAX_CODE_ATTEMPTS;
    const live = codeSent && !burnt && !isOneTimeCodeExpired(sentAt!);
    const resendAt = live ? new Date(sentAt!.getTime() + RESEND_DELAY_SECONDS * 1000) : undefined;
    return {
      kind: "code", burnt, canChangeNumber: !hinted, codeSent, expired: codeSent && !burnt && !live,
      maskedMsisdn: params.hintedMsisdn ? maskMsisdn(params.hintedMsisdn) : request.sentTo ?? undefined, phoneOffered,
      expiresAt: live ? new Date(sentAt!.getTime() + config().OTP_TTL * 1000) : undefined,
      resendAt: resendAt && resendAt.getTime() > Date.now() ? resendAt : undefined,
      codeTriesLeft: Math.max(0, MAX_CODE_ATTEMPTS - request.otpAttempts),
    };
  }
  if (!hinted && !request.subscriberId && !wantsNumber && (next === "select_account" || params.prompt.includes("select_account"))) {
    const accounts = await listAccounts({ browserId });
    if (accounts.length > 0) return { kind: "select", accounts };
  }
  if (params.hintedMsisdn) return { kind: "msisdn", maskedMsisdn: maskMsisdn(params.hintedMsisdn), phoneOffered };
  // A subscriber named by id only (id_token_hint), or the account picked on the selection screen.
  const maskedMsisdn = await maskedNumberOf(params.hintedSubscriberId ?? request.subscriberId);
  if (maskedMsisdn) return { kind: "msisdn", maskedMsisdn, phoneOffered };
  // The help text's example number, in the two forms the field accepts (msisdn-example.ts), and a
  // refused number back in the field, once.
  const typed = await takeTypedMsisdn(request);
  return { kind: "msisdn", example: msisdnExample(config().DEFAULT_COUNTRY), typed: typed ?? undefined, phoneOffered };
}

async function maskedNumberOf(subscriberId: string | null | undefined): Promise<string | undefined> {
  if (!subscriberId) return undefined;
  const msisdn = await findSubscriberMsisdn({ subscriberId });
  return msisdn !== null ? maskMsisdn(msisdn) : undefined;
}
