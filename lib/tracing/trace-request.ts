import type http from "node:http";
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { ENDPOINTS, SCREEN_AREAS } from "../http/endpoints";
import { logger } from "../log";
import { startTracing } from "./start-tracing";
import { tracing } from "./tracing-state";

/**
 * One SERVER span per request of server/main.ts when tracing is on (lib/tracing/start-tracing.ts);
 * with it off, `handle` runs as it is and nothing else happens. The request is handled inside the
 * span's context, so database statements, signatures and outbound calls below it are its children.
 * Attributes: http.request.method, url.path (never the query: it carries codes, hints and state),
 * http.route (the endpoint registry's path, e.g. `/authorize/resume/[id]`, or the screen area) and
 * http.response.status_code. An incoming `traceparent` is NOT followed: every request starts a new
 * trace (docs/observability.md: callers are relying parties, browsers and handsets on the Internet;
 * a caller-chosen trace id would choose our request id in the logs, and its sampled flag our sampling).
 */
export function traceRequest(req: http.IncomingMessage, res: http.ServerResponse, handle: () => void): void {
  if (!tracing.started) startOnce();
  if (!tracing.on) return handle();
  const method = req.method ?? "GET";
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  const route = routeOf(path);
  const span = tracing.tracer!.startSpan(route ? `${method} ${route}` : method, {
    kind: SpanKind.SERVER,
    attributes: { "http.request.method": method, "url.path": path, ...(route ? { "http.route": route } : {}) },
  }, ROOT_CONTEXT);
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    span.setAttribute("http.response.status_code", res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    if (!res.writableFinished) span.setAttribute("error.type", "connection_closed");
    span.end();
  };
  res.once("finish", end);
  res.once("close", end);
  context.with(trace.setSpan(ROOT_CONTEXT, span), handle);
}

/** instrumentation.ts normally starts tracing first (a bad OTEL_* value stops the start there); never fail a request for it. */
function startOnce() {
  try {
    startTracing();
  } catch (err) {
    logger.error({ err: (err as Error).message }, "OpenTelemetry traces not started");
  }
}

const STATIC = new Map<string, string>();
const DYNAMIC: Array<[RegExp, string]> = [];
for (const { path } of Object.values(ENDPOINTS) as Array<{ path: string }>) {
  if (!path.includes("[")) STATIC.set(path, path);
  else DYNAMIC.push([new RegExp(`^${path.replace(/\[\.\.\.[^\]]+\]/g, ".+").replace(/\[[^\]]+\]/g, "[^/]+")}$`), path]);
}

/** The endpoint registry's path for a request path, else its screen area (`/interaction`...), else none. */
export function routeOf(path: string): string | undefined {
  const hit = STATIC.get(path);
  if (hit) return hit;
  for (const [re, p] of DYNAMIC) if (re.test(path)) return p;
  for (const area of SCREEN_AREAS) if (area !== "/" && (path === area || path.startsWith(`${area}/`))) return `${area}/*`;
  return undefined;
}
