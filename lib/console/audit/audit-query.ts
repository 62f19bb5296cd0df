import type { AuditFilter } from "../../audit/list-audit-events";

/** The audit page's filter as the GET form sends it (every value as typed; empty when absent). */
export interface AuditQuery {
  from: string;
  to: string;
  type: string;
  client: string;
  outcome: string;
  subscriber: string;
  before: string;
}

export const AUDIT_OUTCOMES = ["success", "failure", "denied", "locked", "throttled"] as const;

/** A `datetime-local` value (or a full ISO 8601 time) read as UTC; undefined when empty, null when malformed. */
function utc(value: string): Date | undefined | null {
  if (!value) return undefined;
  const d = new Date(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value) ? `${value}Z` : value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** The paging cursor of the event after which the next page starts: `<epoch ms>.<id>`. */
export function auditCursor(e: { at: Date; id: string }): string {
  return `${e.at.getTime()}.${e.id}`;
}

/**
 * The listAuditEvents filter of a query, or null when a time is malformed. Unknown outcomes and over-long values
 * are dropped; the pseudonym filter matches the log's pseudonyms only (nothing here turns a number into one).
 */
export function auditFilterOf(q: AuditQuery, limit: number): AuditFilter | null {
  const since = utc(q.from);
  const until = utc(q.to);
  if (since === null || until === null) return null;
  const cursor = /^(\d{1,15})\.([0-9A-Za-z-]{1,64})$/.exec(q.before);
  const short = (v: string, max = 100) => (v && v.length <= max ? v : undefined);
  return {
    since, until, limit,
    type: short(q.type),
    clientId: short(q.client, 255),
    outcome: (AUDIT_OUTCOMES as readonly string[]).includes(q.outcome) ? q.outcome : undefined,
    subscriberRef: short(q.subscriber),
    before: cursor ? { at: new Date(Number(cursor[1])), id: cursor[2]! } : undefined,
  };
}
