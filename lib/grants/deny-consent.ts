import { db } from "../db";
import { auditEventRow, type AuditInput } from "../audit/record-audit-event";

/**
 * The subscriber denied consent: in one transaction the request, if still `authenticated`, becomes
 * `denied` (the client gets access_denied) and the refusal is audited.
 */
export async function denyConsent({ requestId, audit }: { requestId: string; audit: AuditInput }): Promise<void> {
  await db.$transaction([
    db.authorizationRequest.updateMany({ where: { id: requestId, status: "authenticated" }, data: { status: "denied" } }),
    db.auditEvent.create({ data: auditEventRow(audit), select: { id: true } }),
  ]);
}
