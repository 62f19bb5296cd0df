import { db } from "@/lib/db";
import { json, jsonEndpoint } from "@/lib/http/respond";
import { logger } from "@/lib/log";

// GET /api/health - 200 when the database answers, 503 otherwise
export const GET = jsonEndpoint("health", async () => {
  try {
    await db.$queryRawUnsafe("SELECT 1");
    return json({ status: "ok" }, { noStore: true });
  } catch (err) {
    logger.warn({ err: (err as Error).message }, "health check: database unavailable");
    return json({ status: "unavailable" }, { status: 503, noStore: true });
  }
});
export const dynamic = "force-dynamic";
