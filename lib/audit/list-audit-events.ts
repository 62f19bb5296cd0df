import type { Prisma } from "@prisma/client";
import { db } from "../db";

export interface AuditFilter {
  type?: string;
  /** Pseudonymised subscriber reference (see pseudonymiseSubscriber). */
  subscriberRef?: string;
  clientId?: string;
  since?: Date;
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
}

/** Audit events matching every given filter, newest first (each filter has an index with `at`). */
export async function listAuditEvents(filter: AuditFilter): Promise<AuditEventView[]> {
  const where: Prisma.AuditEventWhereInput = {
    ...(filter.type ? { type: filter.type } : {}),
    ...(filter.subscriberRef ? { subscriberRef: filter.subscriberRef } : {}),
    ...(filter.clientId ? { clientId: filter.clientId } : {}),
    ...(filter.since ? { at: { gte: filter.since } } : {}),
  };
  const rows = await db.auditEvent.findMany({ where, orderBy: [{ at: "desc" }, { id: "asc" }], take: filter.limit ?? 100 });
  return rows.map((r) => ({ ...r, detail: r.detail ? (JSON.parse(r.detail) as Record<string, unknown>) : null }));
}
