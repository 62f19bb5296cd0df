import { randomUUID } from "node:crypto";
import { auditEventRow } from "../audit/record-audit-event";
import { getClient } from "../clients/get-client";
import { db } from "../db";
import { parseScope } from "../oauth/scopes";
import { pairwiseSubject } from "../subjects/pairwise-subject";
import type { StepInput, StepResult } from "./step-result";

/**
 * POST /interaction/{id}/consent with `decision=allow|deny`. Deny makes the request `denied`
 * (access_denied). Allow makes it `consented` and, in the same transaction, remembers the consent
 * per subscriber and client (scope set = union of old and new, so a request for more scopes asks
 * again) - except for transaction authorisations (`mc_authz`), approved one at a time - and records
 * the pairwise subject (PCR) so later `PCR:` hints and id_token_hints resolve
 * (lifecycle in lib/oauth/authorize/types.ts).
 */
export async function recordConsent({ request, params, form, ip }: StepInput): Promise<StepResult> {
  const subscriberId = request.subscriberId;
  if (request.status !== "authenticated" || !subscriberId) return { to: "interaction" };
  const decision = form.get("decision");
  if (decision !== "allow" && decision !== "deny") return { to: "interaction" };
  const where = { id: request.id, status: "authenticated" };
  if (decision === "deny") {
    await db.$transaction([
      db.authorizationRequest.updateMany({ where, data: { status: "denied" } }),
      db.auditEvent.create({ data: auditEventRow({ type: "consent_denied", outcome: "denied", subscriberId,
        clientId: params.clientId, ip, detail: { scope: params.scopes.join(" ") } }), select: { id: true } }),
    ]);
    return { to: "resume" };
  }
  const client = await getClient({ clientId: params.clientId });
  if (!client) return { to: "resume" };
  const remember = !params.scopes.includes("mc_authz");
  const key = { subscriberId, clientId: params.clientId };
  const existing = remember
    ? await db.grant.findUnique({ where: { subscriberId_clientId: key }, select: { scope: true } })
    : null;
  const scope = [...new Set([...parseScope(existing?.scope ?? ""), ...params.scopes])].join(" ");
  const sector = { subscriberId, sectorIdentifier: client.sectorIdentifier };
  const sub = pairwiseSubject(sector);
  await db.$transaction([
    ...(remember
      ? [db.grant.upsert({ where: { subscriberId_clientId: key }, create: { id: randomUUID(), ...key, scope }, update: { scope } })]
      : []),
    db.pairwiseSubject.upsert({ where: { sub }, create: { sub, ...sector }, update: {} }),
    db.authorizationRequest.updateMany({ where, data: { status: "consented" } }),
    db.auditEvent.create({ data: auditEventRow({ type: "consent_given", outcome: "success", subscriberId,
      clientId: params.clientId, ip, detail: { scope: params.scopes.join(" "), remembered: remember } }), select: { id: true } }),
  ]);
  return { to: "resume" };
}
