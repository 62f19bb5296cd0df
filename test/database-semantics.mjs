// The database project: the test files that run on both databases (SQLite in the first pass, PostgreSQL in the
// second). A file belongs here when what it proves depends on the database's own semantics; everything else
// runs once, on SQLite. Read by scripts/test.mjs; test/architecture/database-semantics.test.ts checks that each
// entry exists. docs/testing.md says when to add a file.
export const databaseSemanticsFiles = [
  // Statement counts and the hot-path store's hand-written SQL (different SQL per database).
  "lib/store/hot-store.test.ts",
  "test/integration/authorize/queries-per-request.test.ts",
  "test/integration/token/queries-per-request.test.ts",
  "test/integration/dpop/dpop-queries.test.ts",
  "test/integration/network/network-statements.test.ts",
  "test/integration/server/full-flow.test.ts",
  // Races decided by a conditional update, an atomic counter or a unique constraint (one-use values, limits).
  "lib/security/hit-rate-limit.test.ts",
  "lib/keys/rotate-keys.test.ts",
  "test/integration/account/account-user-code-race.test.ts",
  "test/integration/authorize/authorize-sessions.test.ts",
  "test/integration/ciba/bc-authorize-limits.test.ts",
  "test/integration/ciba/bc-authorize-signed.test.ts",
  "test/integration/ciba/ciba-poll.test.ts",
  "test/integration/ciba/ciba-review-limits.test.ts",
  "test/integration/ciba/handset-answer.test.ts",
  "test/integration/ciba/user-code-race.test.ts",
  "test/integration/client-auth/assertion-rules.test.ts",
  "test/integration/client-auth/client-auth-throttle-race.test.ts",
  "test/integration/clients/client-keys-foundation.test.ts",
  "test/integration/console/keys.test.ts",
  "test/integration/console/sign-in-hardening.test.ts",
  "test/integration/console/staff-last-admin.test.ts",
  "test/integration/devices/device.test.ts",
  "test/integration/dpop/dpop.test.ts",
  "test/integration/grants/jwt-bearer.test.ts",
  "test/integration/jar-par/jar-par.test.ts",
  "test/integration/network-apis/kyc-match-limit.test.ts",
  "test/integration/network-apis/number-verification.test.ts",
  "test/integration/network-apis/sim-swap-import.test.ts",
  "test/integration/registration/registration-lookalike-race.test.ts",
  "test/integration/registration/registration.test.ts",
  "test/integration/security/security-attempt-races.test.ts",
  "test/integration/token/revoke.test.ts",
  "test/integration/token/token-refresh.test.ts",
  "test/integration/token/token.test.ts",
  // Triggers, bounded batch deletes and the migration check.
  "test/integration/devices/device-maintenance.test.ts",
  "test/integration/health/health.test.ts",
  "test/integration/security/audit-log.test.ts",
];
