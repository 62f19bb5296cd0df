/**
 * The production server (`npm start`, the tests, the benchmark): one node:http server that answers
 * the protocol endpoints itself (server/routes.ts: the same route modules, without Next.js's
 * request pipeline), renders the `display=wap` sign-in screens without script (server/wap-screen.tsx)
 * and hands every other request (the other screens, the device pages, the playground, static assets)
 * to Next.js's request handler in the same process. Built by `npm run build`
 * (esbuild, scripts/build-server.mjs) into <NEXT_DIST_DIR>/server.mjs beside the Next.js build; run
 * from the project directory as `node .next/server.mjs`.
 *
 * Environment: WORKERS (processes sharing the port, server/cluster.ts), PORT, HOST (default 127.0.0.1),
 * NEXT_DIST_DIR (the Next.js build directory, as next.config.js reads it), LEAN_SERVER=off to send every request
 * through Next.js (comparison).
 */
import cluster from "node:cluster";
import http from "node:http";
import path from "node:path";
import { readFileSync } from "node:fs";
import { headersFor, type HeaderRule } from "./config-headers";
import { discardBody, LeanRequest, readBody } from "./lean-request";
import { HOT_PATHS, hotRoute } from "./routes";
import { wapScreen } from "./wap-screen";
import { writeResponse } from "./write-response";

const SCREEN_PATH = /^\/interaction\/([A-Za-z0-9_-]+)$/;
import { MAX_BODY_BYTES } from "../lib/http/params";
import { MAX_URL_BYTES } from "../lib/http/security-headers";
import { config } from "../lib/config";
import { logger } from "../lib/log";
import { PEER_PORT_HEADER } from "../lib/network/peer-headers";
import { addressMatcher } from "../lib/http/address-ranges";
import { forwardedClientAddress } from "../lib/http/client-ip";
import { headRefusal, headRefused } from "../lib/http/head-requests";
import { countRequest } from "../lib/metrics/count-request";
import { traceRequest } from "../lib/tracing/trace-request";
import { answerClusterMetricsRequests } from "../lib/metrics/cluster-metrics";
import { runPrimary } from "./cluster";

(process.env as Record<string, string>).NODE_ENV = "production";
// Started from the project directory (as `next start` is): next.config.js, .env files and the build live there.
const root = process.cwd();

/**
 * WORKERS (lib/config.ts, default one per core): with more than one, this process is the cluster primary
 * (server/cluster.ts) and forks the workers, each running main() on the shared port; with 1, it runs main() itself.
 */
async function start() {
  // .env files, as `next start` loads them (CommonJS module: the function may sit on `default`).
  const nextEnv = (await import("@next/env")) as unknown as { loadEnvConfig?: EnvLoader; default?: { loadEnvConfig: EnvLoader } };
  (nextEnv.loadEnvConfig ?? nextEnv.default!.loadEnvConfig)(root, false);
  const workers = config().WORKERS;
  if (workers > 1 && cluster.isPrimary) {
    runPrimary(workers, { host: process.env.HOST || "127.0.0.1", port: config().PORT });
    return;
  }
  await main();
}

async function main() {
  answerClusterMetricsRequests(); // a cluster worker: its part of GET /metrics (lib/metrics/cluster-metrics.ts)
  const port = config().PORT;
  const host = process.env.HOST || "127.0.0.1";
  const nextModule = (await import("next")) as unknown as { default: (o: object) => NextApp };
  const app = nextModule.default({ dev: false, dir: root, hostname: host, port });
  await app.prepare();
  const nextHandler = app.getRequestHandler();

  // next.config.js headers() per hot path, as this build recorded them (the Next.js path serves the
  // build's copy, not the current next.config.js), resolved once; null: that path goes to Next.js.
  const manifest = JSON.parse(readFileSync(path.join(root, process.env.NEXT_DIST_DIR || ".next", "routes-manifest.json"),
    "utf8")) as { headers?: HeaderRule[] };
  const rules = manifest.headers ?? [];
  const lean = process.env.LEAN_SERVER !== "off";
  const fixed = new Map<string, Array<[string, string]>>();
  for (const p of HOT_PATHS) {
    const h = lean ? headersFor(rules, p) : null;
    if (h) fixed.set(p, h);
    else if (lean) logger.warn({ path: p }, "next.config.js headers() not understood: path served by Next.js");
  }
  const bodyCap = 2 * MAX_BODY_BYTES;
  const LINGER_BYTES = 1024 * 1024;
  const LINGER_MS = 500;

  // The client's address (lib/http/client-ip.ts): the socket's peer, or from a TRUSTED_PROXY peer the
  // address its X-Forwarded-For names; handed to both paths as the only X-Forwarded-For entry. Network-based
  // authentication (lib/network/identify-connection.ts): the client's source port, never from a client (the
  // socket's, or from a TRUSTED_PROXY peer the header only the proxy sets), and the enrichment header only from
  // NETWORK_ENRICHMENT_PROXIES peers: removed from every other request, on both paths.
  const c = config();
  const isProxy = addressMatcher(c.TRUSTED_PROXY);
  const portHeader = c.NETWORK_PORT_HEADER;
  const enrichmentHeader = c.NETWORK_ENRICHMENT_HEADER;
  const isEnricher = addressMatcher(c.NETWORK_ENRICHMENT_PROXIES);
  const networkHeaders = (req: http.IncomingMessage) => {
    const peer = req.socket.remoteAddress;
    const viaProxy = isProxy(peer);
    setHeader(req, "x-forwarded-for", viaProxy ? forwardedClientAddress(peer, req.headers["x-forwarded-for"], isProxy) : peer);
    let port: string | undefined;
    if (!viaProxy) port = req.socket.remotePort === undefined ? undefined : String(req.socket.remotePort);
    else if (portHeader) port = lastValue(req.headers[portHeader]);
    setHeader(req, PEER_PORT_HEADER, port);
    if (enrichmentHeader && req.headers[enrichmentHeader] !== undefined && !isEnricher(peer)) {
      setHeader(req, enrichmentHeader, undefined);
    }
  };

  const server = http.createServer((req, res) => {
    countRequest(req, res); // metrics (lib/metrics), every request
    traceRequest(req, res, () => route(req, res)); // one span per request when OTEL_* turns tracing on (lib/tracing)
  });

  function route(req: http.IncomingMessage, res: http.ServerResponse) {
    // A client-sent X-Forwarded-For would otherwise choose its own per-IP rate-limit bucket, audit address
    // and data session (network-based authentication).
    networkHeaders(req);
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const pathname = q < 0 ? url : url.slice(0, q);
    const method = req.method ?? "GET";
    // HEAD to a GET with effects (lib/http/head-requests.ts): 405, the GET is not run on either path.
    const allow = method === "HEAD" ? headRefusal(pathname) : null;
    if (allow) {
      void writeResponse(res, headRefused(allow), headersFor(rules, pathname) ?? [], false);
      return;
    }
    const headers = fixed.get(pathname);
    const handler = headers && hotRoute(pathname, method);
    if (!handler || !url.startsWith("/")) {
      // An over-long URL goes to Next.js, whose proxy.ts answers 414 as on every other page.
      const screen = method === "GET" && screenHeaders && url.length <= MAX_URL_BYTES ? SCREEN_PATH.exec(pathname) : null;
      if (screen) void serveScreen(req, res, screen[1]!, q < 0 ? "" : url.slice(q + 1));
      else void nextHandler(req, res);
      return;
    }
    void serveHot(req, res, handler, headers, method, url);
  }

  async function serveHot(req: http.IncomingMessage, res: http.ServerResponse,
    handler: (r: Request) => Promise<Response>, headers: Array<[string, string]>, method: string, url: string) {
    try {
      // A declared length over the limit is refused by the handler from the header alone (413,
      // lib/http/params.ts); an over-long body is read only up to the cap. What the client is still
      // sending is then discarded for a bounded while (as nginx's lingering close): closing with
      // unread data makes the kernel reset the connection, and a client still writing its body would
      // see the reset instead of the 413. Beyond LINGER_BYTES or LINGER_MS the connection is closed.
      const declared = Number(req.headers["content-length"] ?? 0);
      const refused = method === "POST" && !(declared <= MAX_BODY_BYTES);
      const body = method === "POST" && !refused ? await readBody(req, bodyCap) : null;
      if (refused || (body && body.length > bodyCap)) {
        const drained = declared <= LINGER_BYTES && await discardBody(req, LINGER_BYTES, LINGER_MS);
        if (!drained) res.shouldKeepAlive = false;
      }
      const request = new LeanRequest(method, `${origin}${url}`, req, res, body) as unknown as Request;
      await writeResponse(res, await handler(request), headers, false);
    } catch (err) {
      // The route modules turn every error into a response; this is the adapter itself failing.
      logger.error({ err }, "lean server: request failed");
      if (!res.headersSent) {
        res.statusCode = 500;
        for (const [k, v] of headers) res.setHeader(k, v);
        res.setHeader("content-type", "application/json; charset=utf-8");
        res.setHeader("cache-control", "no-store");
        res.end(JSON.stringify({ error: "server_error", error_description: "The server could not complete the request." }));
      } else res.destroy();
    }
  }

  // GET /interaction/{id} with display=wap: the script-free screen (server/wap-screen.tsx); any other
  // display, and anything wapScreen cannot answer, is Next.js's page. Headers: next.config.js's for
  // the screens, then the page policy (CSP, HSTS) as proxy.ts sets it on the Next.js path.
  const screenHeaders = lean ? headersFor(rules, "/interaction/x") : null;
  async function serveScreen(req: http.IncomingMessage, res: http.ServerResponse, id: string, query: string) {
    const page = await wapScreen({ id, cookie: req.headers.cookie ?? null, query: new URLSearchParams(query),
      acceptLanguage: req.headers["accept-language"] ?? null });
    if (!page) return nextHandler(req, res);
    for (const [k, v] of screenHeaders!) res.setHeader(k, v);
    for (const [k, v] of Object.entries(page.headers)) res.setHeader(k, v);
    res.setHeader("content-length", Buffer.byteLength(page.html));
    res.end(page.html);
  }

  // Request URLs get the issuer's origin: the handlers read only the path and query from them.
  const origin = new URL(config().ISSUER).origin;
  server.keepAliveTimeout = 5000;
  // A port that cannot be bound (EADDRINUSE, EACCES) ends the process with the reason: Next.js's own
  // uncaughtException handler would otherwise log it and leave a process that never listens (a cluster worker:
  // the primary then restarts it, and gives up after repeated failures, server/cluster.ts).
  server.once("error", (err) => {
    if (server.listening) return;
    logger.fatal({ err, port, host }, "server cannot listen");
    process.exit(1);
  });
  server.listen(port, host, () => {
    const detail = { url: `http://${host}:${port}`, lean: lean ? HOT_PATHS.filter((p) => fixed.has(p)) : [] };
    // In a cluster the primary says it once for all the workers (server/cluster.ts).
    if (cluster.isWorker) logger.debug({ ...detail, worker: process.env.OIS_WORKER, pid: process.pid }, "worker listening");
    else logger.info(detail, "operator identity service listening");
  });
  // Once: a cluster worker gets Ctrl-C's SIGINT from the terminal and again from the primary.
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close(() => process.exit(0));
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

type EnvLoader = (dir: string, dev: boolean) => unknown;

interface NextApp {
  prepare(): Promise<void>;
  getRequestHandler(): (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;
}

start().catch((err) => {
  logger.fatal({ err }, "server failed to start");
  process.exit(1);
});

/** Sets (or with `value` undefined removes) a request header in the parsed and raw header lists alike. */
function setHeader(req: http.IncomingMessage, name: string, value: string | undefined): void {
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    if (raw[i]!.toLowerCase() === name) raw.splice(i, 2);
  }
  if (value === undefined) { delete req.headers[name]; return; }
  raw.push(name, value);
  req.headers[name] = value;
}

/** A header's value a proxy set: the last one when it was sent several times (the proxy's own is appended last). */
function lastValue(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[value.length - 1] : value;
  return v?.split(",").pop()?.trim() || undefined;
}
