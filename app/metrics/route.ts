import { machineMetricsText } from "@/lib/metrics/cluster-metrics";
import { metrics } from "@/lib/metrics/registry";
import { mayScrape } from "@/lib/metrics/scrape-access";

/**
 * GET /metrics: the Prometheus exposition of this machine, every worker's metrics merged (lib/metrics,
 * docs/observability.md "Prometheus metrics"), only from METRICS_ALLOWED_NETWORKS or with the bearer METRICS_TOKEN. Anyone else, and everyone with METRICS=off,
 * gets the same 404 as an unknown path: the endpoint does not say it exists.
 */
export async function GET(req: Request): Promise<Response> {
  const m = metrics();
  if (!m || !mayScrape(req.headers)) return notFound();
  return new Response(await machineMetricsText(m), {
    headers: { "content-type": m.registry.contentType, "cache-control": "no-store" },
  });
}

function notFound(): Response {
  return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8",
    "cache-control": "no-store" } });
}

export const dynamic = "force-dynamic";
