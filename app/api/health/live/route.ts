import { json, jsonEndpoint } from "@/lib/http/respond";

// GET /api/health/live - liveness: the process answers (no database, no I/O): 200 {"status":"ok"}.
// docs/observability.md "Health".
export const GET = jsonEndpoint("healthLive", async () => json({ status: "ok" }, { noStore: true }));
export const dynamic = "force-dynamic";
