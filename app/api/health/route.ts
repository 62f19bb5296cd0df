import { json, jsonEndpoint } from "@/lib/http/respond";
import { logger } from "@/lib/log";
import { pingDatabase } from "@/lib/maintenance/ping-database";

// GET /api/health - 200 when the database answers, 503 otherwise
export const GET = jsonEndpoint("health", async () => {
  try {
    await pingDatabase();
    return json({ status: "ok" }, { noStore: true });
  } catch (err) {
    logger.warn({ err: (err as Error).message }, "health check: database unavailable");
    return json({ status: "unavailable" }, { status: 503, noStore: true });
  }
});
export const dynamic = "force-dynamic";
