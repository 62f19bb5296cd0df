import { verifySecret } from "../crypto";
import { InvalidUserCode, MissingUserCode } from "../oauth/errors";
import { config } from "../config";
import { hitRateLimit, refundRateLimit } from "../security/hit-rate-limit";
import type { Limit } from "../security/limits";
import { BackchannelSlowDown } from "./bc-authorize/slow-down";

/**
 * `user_code` tries one client may make for one subscriber: 10 per 15 minutes (a fixed window,
 * lib/security/hit-rate-limit.ts). Every try is counted BEFORE the code is checked (one atomic upsert), so fifty
 * parallel guesses cost at most ten scrypt checks; beyond it the code is not checked (no oracle) and the client gets
 * 429 `slow_down` with Retry-After. Right tries count too, which costs a legitimate client nothing: the approval
 * limit per client and number (approval-limits.ts, 3 per 15 minutes by default) is tighter. Keyed per client and
 * subscriber, so one relying party guessing cannot lock the subscriber out of the others.
 */
export const USER_CODE_TRIES: Limit = { name: "ciba-user-code", limit: 10, windowSeconds: 15 * 60 };

/**
 * Wrong `user_code`s for one subscriber from dynamically registered clients, whichever (registering many clients
 * must not multiply the ten tries): USER_CODE_FAILURES_DYNAMIC_PER_SUBSCRIBER per day. Beyond it a dynamic client's
 * user_code is not checked (429 `slow_down`, audited with `limit: "ciba-user-code-dyn"`); operator clients are not
 * affected. Each try is reserved as a failure BEFORE the code is checked (one atomic increment, hitRateLimit), so
 * however many arrive at once, on however many instances, at most the cap are ever checked; a right code gives its
 * reservation back, and so does a try refused by the cap, so the count is the wrong codes plus the tries in flight and
 * a right code never spends the budget.
 */
export const userCodeFailuresFromDynamicClients = (): Limit =>
  ({ name: "ciba-user-code-dyn", limit: config().USER_CODE_FAILURES_DYNAMIC_PER_SUBSCRIBER, windowSeconds: 24 * 60 * 60 });

/** A 429 whose audit record names the limit that refused. */
export class UserCodeSlowDown extends BackchannelSlowDown {
  constructor(retryAfter: number, readonly limitName: string) {
    super(retryAfter, "too many user_code tries; retry later");
  }
}

/**
 * CIBA Core §7.1 `user_code` (docs/ciba.md): a subscriber who set a user code (Subscriber.userCodeHash, scrypt like
 * the PIN) can be asked for only with it: absent → `missing_user_code`, wrong → `invalid_user_code`. A subscriber
 * without one: the parameter is ignored. Returns "checked" (no code needed, or the right one).
 *
 * A self-registered client (`dynamic`) is not told which numbers have a user code: an absent or wrong one returns
 * "withheld" instead of an error, and the caller answers the request like one for a number nobody has (accepted with
 * an auth_req_id, shown on no handset, expired). Such a try still counts: against the client's tries for the
 * subscriber and, kept as a failure, against the dynamic clients' daily cap (an absent code too, without an scrypt).
 */
export async function checkUserCode({ clientId, dynamic = false, subscriberId, userCodeHash, userCode }: {
  clientId: string; dynamic?: boolean; subscriberId: string; userCodeHash: string | null; userCode: string | undefined;
}): Promise<"checked" | "withheld"> {
  if (!userCodeHash) return "checked";
  if (userCode === undefined && !dynamic) throw new MissingUserCode("this subscriber requires a user_code");
  const verdict = await hitRateLimit({ limit: USER_CODE_TRIES, subject: `${clientId}\n${subscriberId}` });
  if (!verdict.allowed) throw new UserCodeSlowDown(verdict.retryAfter, USER_CODE_TRIES.name);
  // The dynamic clients' daily budget (the reservation and its refund in the same window).
  const failures = dynamic ? { limit: userCodeFailuresFromDynamicClients(), subject: subscriberId, now: Date.now() } : null;
  if (failures) {
    const reserved = await hitRateLimit(failures);
    if (!reserved.allowed) {
      await refundRateLimit(failures);
      throw new UserCodeSlowDown(reserved.retryAfter, failures.limit.name);
    }
  }
  if (userCode !== undefined && userCode.length <= 256 && (await verifySecret(userCode, userCodeHash))) {
    if (failures) await refundRateLimit(failures);
    return "checked";
  }
  if (dynamic) return "withheld";
  throw new InvalidUserCode("the user_code is not right");
}
