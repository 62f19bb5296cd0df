import { recordAuditEvent } from "../audit/record-audit-event";
import { addressSubject } from "../http/address-subject";
import { ClientAuthThrottled } from "../oauth/errors";
import { hitRateLimit, peekRateLimit } from "./hit-rate-limit";
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
 * The throttle that applies to a client_id from an address, or null: first this process's memory
 * of verdicts (no I/O), then one indexed read per key.
 */
export async function findClientAuthThrottle({ clientId, ip, now = Date.now() }: {
  clientId?: string; ip: string; now?: number;
}): Promise<ClientAuthThrottled | null> {
  const list = subjects(clientId, ip);
  for (const [limit, subject] of list) {
    const until = throttledUntil.get(`${limit.name}:${subject}`);
    if (until === undefined) continue;
    if (until > now) {
      recordThrottle(limit.name);
      return new ClientAuthThrottled(Math.ceil((until - now) / 1000));
    }
    throttledUntil.delete(`${limit.name}:${subject}`);
  }
  for (const [limit, subject] of list) {
    const verdict = await peekRateLimit({ limit, subject, now });
    if (!verdict.allowed) {
      recordThrottle(limit.name);
      return remember(`${limit.name}:${subject}`, verdict.retryAfter, now);
    }
  }
  return null;
}

/**
 * Counts one failed client authentication (one upsert per key, together). The failure that
 * reaches a limit starts the throttle (remembered here, audited once); it still gets its own
 * invalid_client. Returns the error to throw instead: the throttle (429) once a limit is exceeded,
 * else null.
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
