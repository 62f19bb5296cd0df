import { metrics } from "./registry";

/**
 * The recording calls of the service's flows: in-memory counter increments only (never I/O), nothing at all with
 * METRICS=off. Label values come from small fixed sets (docs/observability.md "Prometheus metrics").
 */

/** The sign-in levels of `ois_sign_ins_total`: the acr values 2 and 3, and network-based authentication. */
export type SignInLevel = "2" | "3" | "nba";

/** A subscriber sign-in ended: `success`, `failure` (wrong code or PIN) or `locked` (PIN lockout). */
export function recordSignIn(level: string, outcome: "success" | "failure" | "locked"): void {
  metrics()?.signIns.labels(level === "3" ? "3" : level === "nba" ? "nba" : "2", outcome).inc();
}

/** A one-time code went out through the messaging channel `channel` (inbox, log, ...). */
export function recordCodeSent(channel: string): void {
  metrics()?.codes.labels(channel).inc();
}

/** A lockout started: a subscriber's PIN, or a console member's sign-in (lib/console/verify-staff-sign-in.ts). */
export function recordLockout(kind: "pin" | "staff"): void {
  metrics()?.lockouts.labels(kind).inc();
}

/** An abuse limit (lib/security/limits.ts, its `name`) refused a request. */
export function recordThrottle(limit: string): void {
  metrics()?.throttles.labels(limit).inc();
}

/** A token response went out; `grant`: authorization_code, refreshed, client_credentials, ciba, jwt_bearer. */
export function recordTokensIssued(grant: string): void {
  metrics()?.tokens.labels(grant).inc();
}

/** One back-channel delivery attempt (lib/outbox) ended. */
export function recordNotification(kind: string, outcome: "delivered" | "retry" | "failed"): void {
  metrics()?.notifications.labels(kind, outcome).inc();
}
