import type { Prisma } from "@prisma/client";
import { db } from "../db";
import { uuidV7 } from "../crypto";
import { pseudonymiseSubscriber } from "./pseudonymise-subscriber";

/** What the audit log records (docs/security.md, "Audit log"). */
export type AuditType =
  | "sign_in" | "pin_lockout" | "code_send_limited"
  | "consent_given" | "consent_denied" | "consent_withdrawn"
  | "token_issued" | "token_revoked" | "client_auth_throttled"
  | "approval_requested" | "approval_answered"
  | "backchannel_requested"
  | "device_removed"
  | "sim_swap" // a SIM change ended the subscriber's sessions, tokens and handsets (lib/sim-swap)
  | "user_code_changed" // the subscriber set or removed their CIBA user code (lib/ciba/set-user-code.ts)
  | "staff_sign_in" | "staff_sign_out" // the web console (lib/console)
  | `console_${string}` // a console staff member's action (lib/console/console-post.ts), with staffId
  | `admin_${string}`;

export type AuditOutcome = "success" | "failure" | "locked" | "throttled" | "denied";

export interface AuditInput {
  type: AuditType;
  outcome: AuditOutcome;
  /** The real subscriber id; only its pseudonym is stored. */
  subscriberId?: string | null;
  clientId?: string | null;
  ip?: string | null;
  /** Small facts (reason, acr, scope, channel...). Never a secret, code, PIN, token or MSISDN. */
  detail?: Record<string, string | number | boolean | null>;
  at?: Date;
  /** The console staff member who acted (Staff.id). */
  staffId?: string | null;
}

/**
 * The row for one audit event, for callers that insert it inside their own transaction (token
 * issuance) or with their own statement (a raw-SQL hot path).
 */
export function auditEventRow(input: AuditInput): Prisma.AuditEventCreateManyInput {
  const at = input.at ?? new Date();
  return {
    id: uuidV7(at.getTime()), // time-ordered: the primary-key index grows at its end
    at,
    type: input.type,
    outcome: input.outcome,
    subscriberRef: input.subscriberId ? pseudonymiseSubscriber(input.subscriberId) : null,
    clientId: input.clientId ?? null,
    ip: input.ip ?? null,
    detail: input.detail ? JSON.stringify(input.detail) : null,
    ...(input.staffId ? { staffId: input.staffId } : {}), // absent otherwise: the hot path's INSERT stays as it was
  };
}

/**
 * Appends one event to the audit log (one INSERT, with `tx` inside the caller's transaction).
 * The log is append-only: there is no update or delete path in the code, and database triggers
 * refuse UPDATE and DELETE on the table (migration 20261123110000_security).
 */
export async function recordAuditEvent(input: AuditInput, tx: Prisma.TransactionClient = db): Promise<void> {
  await tx.auditEvent.create({ data: auditEventRow(input), select: { id: true } });
}
