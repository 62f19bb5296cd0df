import { recordAuditEvent } from "../audit/record-audit-event";
import { addressSubject } from "../http/address-subject";
import { ClientAuthThrottled } from "../oauth/errors";
import { hitRateLimit, refundRateLimit } from "./hit-rate-limit";
import { clientAuthFailuresPerClient, clientAuthFailuresPerIp } from "./limits";
import { recordThrottle } from "../metrics/record";

/**
 * Client authentication failure throttling at /token, /revoke, /introspect (and wherever a client
 * authenticates). Only failures are counted, in the database (fixed windows), per (client_id,
 * address) and per address (an IPv6 /64), never per client_id alone: client_ids are public (every
 * authorization URL carries one), and failures from elsewhere must not throttle the relying party.
 * A throttle does not refuse a right secret: lib/http/client-auth.ts still accepts one that verifies
 * without an scrypt, and refuses only what it would have to spend an scrypt on.
 */
const throttledUntil = new Map<string, number>();

const subjects = (clientId: string | undefined, ip: string) => {
  const address = addressSubject(ip);
  return [...(clientId ? [[clientAuthFailuresPerClient(), `${clientId}\n${address}`] as const] : []),
    [clientAuthFailuresPerIp(), address] as const];
};

/**
 * The throttle this process already knows applies to a client_id from an address (its memory of verdicts, no I/O), or
 * null.
 */
export function knownClientAuthThrottle({ clientId, ip, now = Date.now() }: {
  clientId?: string; ip: string; now?: number;
}): ClientAuthThrottled | null {
  for (const [limit, subject] of subjects(clientId, ip)) {
    const until = throttledUntil.get(`${limit.name}:${subject}`);
    if (until === undefined) continue;
    if (until > now) {
      recordThrottle(limit.name);
      return new ClientAuthThrottled(Math.ceil((until - now) / 1000));
    }
    throttledUntil.delete(`${limit.name}:${subject}`);
  }
  return null;
}

/** A reserved client authentication attempt: settle it once its secret is checked. */
export interface ClientAuthAttempt {
  /** The secret was right: the reservation is given back, so a client's own successes never count. */
  succeeded(): Promise<void>;
  /**
   * The secret was wrong: the reservation stays counted as the failure. The failure that reaches a limit starts the
   * throttle (remembered here, audited once); it still gets its own invalid_client.
   */
  failed(): Promise<void>;
}

/**
 * Reserves one client authentication attempt BEFORE its secret is checked (an scrypt): one atomic increment per key
 * (hitRateLimit), per (client_id, address) then per address, so however many arrive at once, on however many
 * instances, at most the limit are ever checked. Refused by a limit: every reservation it made is given back (the
 * counts stay the failures plus the checks in flight) and the throttle is returned instead, for the caller to refuse
 * unless the secret verifies without an scrypt. A refusal is not remembered in memory: checks in flight (possibly the
 * client's own right secret) may be all that fills the window.
 */
export async function reserveClientAuthAttempt({ clientId, ip, now = Date.now() }: {
  clientId?: string; ip: string; now?: number;
}): Promise<{ throttle: ClientAuthThrottled } | { attempt: ClientAuthAttempt }> {
  const list = subjects(clientId, ip).map(([limit, subject]) => ({ limit, subject, now }));
  const reserved: { key: (typeof list)[number]; count: number; windowEndsIn: number }[] = [];
  const giveBack = () => Promise.all(reserved.map(({ key }) => refundRateLimit(key)));
  for (const key of list) {
    const v = await hitRateLimit(key); // a refusal is counted in ois_throttles_total by hitRateLimit
    reserved.push({ key, count: v.count, windowEndsIn: v.windowEndsIn });
    if (!v.allowed) {
      await giveBack();
      return { throttle: new ClientAuthThrottled(v.retryAfter) };
    }
  }
  return {
    attempt: {
      succeeded: async () => { await giveBack(); },
      failed: async () => {
        for (const { key: { limit, subject }, count, windowEndsIn } of reserved) {
          if (count < limit.limit) continue;
          remember(`${limit.name}:${subject}`, windowEndsIn, now);
          if (count === limit.limit) {
            await recordAuditEvent({ type: "client_auth_throttled", outcome: "throttled", clientId, ip,
              detail: { limit: limit.name, failures: limit.limit, retry_after: windowEndsIn } });
          }
        }
      },
    },
  };
}

/**
 * Counts one failed client authentication that spent no scrypt and so reserved nothing (an unknown client_id without
 * a secret, a public client presenting one, a bad assertion): one upsert per key, together, and the same
 * bookkeeping as a failed reserved attempt. Returns the error to throw instead: the throttle (429) once a limit is
 * exceeded, else null.
 */
export async function recordClientAuthFailure({ clientId, ip, now = Date.now() }: {
  clientId?: string; ip: string; now?: number;
}): Promise<ClientAuthThrottled | null> {
  const list = subjects(clientId, ip);
  const verdicts = await Promise.all(list.map(([limit, subject]) => hitRateLimit({ limit, subject, now })));
  let error: ClientAuthThrottled | null = null;
  for (const [i, v] of verdicts.entries()) {
    const [limit, subject] = list[i]!;
    if (v.count < limit.limit) continue;
    const throttle = remember(`${limit.name}:${subject}`, v.windowEndsIn, now);
    if (!v.allowed) error = throttle; // counted in ois_throttles_total by hitRateLimit
    if (v.count === limit.limit) {
      await recordAuditEvent({ type: "client_auth_throttled", outcome: "throttled", clientId, ip,
        detail: { limit: limit.name, failures: limit.limit, retry_after: v.windowEndsIn } });
    }
  }
  return error;
}

function remember(key: string, retryAfter: number, now: number): ClientAuthThrottled {
  throttledUntil.set(key, now + retryAfter * 1000);
  if (throttledUntil.size > 10_000) throttledUntil.delete(throttledUntil.keys().next().value!);
  return new ClientAuthThrottled(retryAfter);
}
