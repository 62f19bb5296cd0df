import type { Prisma } from "@prisma/client";
import { db } from "../db";

export interface AuditFilter {
  type?: string;
  /** Pseudonymised subscriber reference (see pseudonymiseSubscriber). */
  subscriberRef?: string;
  clientId?: string;
  outcome?: string;
  /** Events at or after this instant. */
  since?: Date;
  /** Events before this instant. */
  until?: Date;
  /** Paging: only events older than this one (the last event of the previous page), newest first. */
  before?: { at: Date; id: string };
  limit?: number;
}

export interface AuditEventView {
  id: string;
  at: Date;
  type: string;
  outcome: string;
  subscriberRef: string | null;
  clientId: string | null;
  ip: string | null;
  detail: Record<string, unknown> | null;
  /** The console staff member who acted (Staff.id), or null. */
  staffId: string | null;
}

/**
 * Audit events matching every given filter, newest first (ties by id), at most `limit` (100 by default,
 * 10000 at most); each of type, subscriber and client has an index with `at`.
 */
export async function listAuditEvents(filter: AuditFilter): Promise<AuditEventView[]> {
  const at: Prisma.DateTimeFilter = {
    ...(filter.since ? { gte: filter.since } : {}),
    ...(filter.until ? { lt: filter.until } : {}),
  };
  const where: Prisma.AuditEventWhereInput = {
    ...(filter.type ? { type: filter.type } : {}),
    ...(filter.subscriberRef ? { subscriberRef: filter.subscriberRef } : {}),
    ...(filter.clientId ? { clientId: filter.clientId } : {}),
    ...(filter.outcome ? { outcome: filter.outcome } : {}),
    ...(Object.keys(at).length > 0 ? { at } : {}),
    ...(filter.before
      ? { OR: [{ at: { lt: filter.before.at } }, { at: filter.before.at, id: { lt: filter.before.id } }] }
      : {}),
  };
  const take = Math.min(Math.max(filter.limit ?? 100, 1), 10_000);
  const rows = await db.auditEvent.findMany({ where, orderBy: [{ at: "desc" }, { id: "desc" }], take });
  return rows.map((r) => ({ ...r, detail: readDetail(r.detail) }));
}

function readDetail(json: string | null): Record<string, unknown> | null {
  try {
    const value: unknown = json ? JSON.parse(json) : null;
    return value && typeof value === "object" ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
