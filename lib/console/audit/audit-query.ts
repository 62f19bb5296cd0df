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

/**
 * The times a filter or cursor may name: years 2000 to 9999. Outside them a JavaScript Date may still be valid
 * (from -271821 to +275760) but the database layer cannot store or compare it (a 500): such a value is malformed.
 */
const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(10_000, 0, 1) - 1;
const inRange = (ms: number) => Number.isFinite(ms) && ms >= EARLIEST && ms <= LATEST;

/**
 * A `datetime-local` value (or a full ISO 8601 time) read as UTC; undefined when empty, null when malformed or
 * outside the years 2000 to 9999.
 */
function utc(value: string): Date | undefined | null {
  if (!value) return undefined;
  const d = new Date(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value) ? `${value}Z` : value);
  return inRange(d.getTime()) ? d : null;
}

/** The paging cursor read back: undefined when empty, null when malformed or its time is out of range. */
function cursorOf(value: string): { at: Date; id: string } | undefined | null {
  if (!value) return undefined;
  const m = /^(\d{1,15})\.([0-9A-Za-z-]{1,64})$/.exec(value);
  if (!m || !inRange(Number(m[1]))) return null;
  return { at: new Date(Number(m[1])), id: m[2]! };
}

/** The paging cursor of the event after which the next page starts: `<epoch ms>.<id>`. */
export function auditCursor(e: { at: Date; id: string }): string {
  return `${e.at.getTime()}.${e.id}`;
}

/**
 * The listAuditEvents filter of a query, or null (the page says "bad filter", never a 500) when a time or the
 * cursor is malformed or out of range. Unknown outcomes and over-long values are dropped; the pseudonym filter
 * matches the log's pseudonyms only (nothing here turns a number into one).
 */
export function auditFilterOf(q: AuditQuery, limit: number): AuditFilter | null {
  const since = utc(q.from);
  const until = utc(q.to);
  const before = cursorOf(q.before);
  if (since === null || until === null || before === null) return null;
  const short = (v: string, max = 100) => (v && v.length <= max ? v : undefined);
  return {
    since, until, limit,
    type: short(q.type),
    clientId: short(q.client, 255),
    outcome: (AUDIT_OUTCOMES as readonly string[]).includes(q.outcome) ? q.outcome : undefined,
    subscriberRef: short(q.subscriber),
    before,
  };
}
