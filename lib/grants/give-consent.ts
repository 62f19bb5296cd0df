import { randomUUID } from "node:crypto";
import { db } from "../db";
import { auditEventRow, type AuditInput } from "../audit/record-audit-event";
import { parseScope } from "../oauth/scopes";
import { pairwiseSubject } from "../subjects/pairwise-subject";

/**
 * The subscriber allowed a client `scopes`. With `remember`, the consent is kept per subscriber and
 * client: the scope set becomes the union of the stored one (read first) and the new one, so a request
 * for more scopes asks again. Then, in one transaction: the grant (with `remember`), the pairwise
 * subject (PCR) so later `PCR:` hints and id_token_hints resolve, the request `consented` if still
 * `authenticated`, and the audit event.
 */
export async function giveConsent({ requestId, subscriberId, clientId, sectorIdentifier, scopes, remember, audit }: {
  requestId: string; subscriberId: string; clientId: string; sectorIdentifier: string; scopes: string[];
  remember: boolean; audit: AuditInput;
}): Promise<void> {
  const key = { subscriberId, clientId };
  const existing = remember
    ? await db.grant.findUnique({ where: { subscriberId_clientId: key }, select: { scope: true } })
    : null;
  const scope = [...new Set([...parseScope(existing?.scope ?? ""), ...scopes])].join(" ");
  const sector = { subscriberId, sectorIdentifier };
  const sub = pairwiseSubject(sector);
  await db.$transaction([
    ...(remember
      ? [db.grant.upsert({ where: { subscriberId_clientId: key }, create: { id: randomUUID(), ...key, scope }, update: { scope } })]
      : []),
    db.pairwiseSubject.upsert({ where: { sub }, create: { sub, ...sector }, update: {} }),
    db.authorizationRequest.updateMany({ where: { id: requestId, status: "authenticated" }, data: { status: "consented" } }),
    db.auditEvent.create({ data: auditEventRow(audit), select: { id: true } }),
  ]);
}
