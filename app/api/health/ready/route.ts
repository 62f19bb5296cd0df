import { json, jsonEndpoint } from "@/lib/http/respond";
import { logger } from "@/lib/log";
import { readiness } from "@/lib/health/readiness";

// GET /api/health/ready - readiness (lib/health/readiness.ts): database reachable, active signing key
// loadable, migrations applied. 200 with each check's result, or 503 naming the failing check(s).
export const GET = jsonEndpoint("healthReady", async () => {
  const r = await readiness();
  if (r.status !== "ok") logger.warn({ checks: r.checks }, "readiness check failed");
  return json(r, { status: r.status === "ok" ? 200 : 503, noStore: true });
});
export const dynamic = "force-dynamic";
