import { recordAuditEvent } from "../audit/record-audit-event";
import { ClientAuthThrottled } from "../oauth/errors";
import { hitRateLimit, peekRateLimit } from "./hit-rate-limit";
import { clientAuthFailuresPerClient, clientAuthFailuresPerIp } from "./limits";

/**
 * Client authentication failure throttling at /token, /revoke, /introspect (and wherever a client
 * authenticates). Only failures are counted, in the database (per client_id and per IP, fixed
 * windows), so a successful authentication costs no statement: the gate before it is an in-memory
 * copy of verdicts this process already read from the database, plus one indexed read before an
 * scrypt (which happens only when the secret is not in the verified-secret cache).
 */
const throttledUntil = new Map<string, number>();

const subjects = (clientId: string | undefined, ip: string) =>
  [...(clientId ? [[clientAuthFailuresPerClient(), clientId] as const] : []), [clientAuthFailuresPerIp(), ip] as const];

/** Throws ClientAuthThrottled while this process knows the client or IP to be throttled (no I/O). */
export function assertNotThrottledLocally({ clientId, ip, now = Date.now() }: { clientId?: string; ip: string; now?: number }) {
  for (const [limit, subject] of subjects(clientId, ip)) {
    const until = throttledUntil.get(`${limit.name}:${subject}`);
    if (until === undefined) continue;
    if (until > now) throw new ClientAuthThrottled(Math.ceil((until - now) / 1000));
    throttledUntil.delete(`${limit.name}:${subject}`);
  }
}

/** Asks the database (one read per key) before an expensive secret check; throws when throttled. */
export async function assertNotThrottled({ clientId, ip, now = Date.now() }: { clientId?: string; ip: string; now?: number }) {
  assertNotThrottledLocally({ clientId, ip, now });
  for (const [limit, subject] of subjects(clientId, ip)) {
    const verdict = await peekRateLimit({ limit, subject, now });
    if (!verdict.allowed) throw remember(`${limit.name}:${subject}`, verdict.retryAfter, now);
  }
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
    if (!v.allowed) error = throttle;
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
