import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { findNginx, startNginx as start } from "../../scripts/nginx.mjs";

export { findNginx };

export interface RunningProxy {
  url: string;
  /** Upstream address(es) of every request proxied so far, in order ("A, B" when A failed and B answered). */
  upstreams(): string[];
  stop(): Promise<void>;
}

/**
 * nginx as the load balancer in front of the instances (scripts/nginx.mjs): round robin with no keepalive to the
 * upstreams, so consecutive requests of one browser land on different instances; each request's upstream logged.
 */
export async function startNginx({ bin, port, upstreams }: { bin: string; port: number; upstreams: number[] }):
  Promise<RunningProxy> {
  const proxy = await start({ bin, port, upstreams, accessLog: true });
  process.once("exit", () => proxy.child.kill("SIGKILL"));
  const file = path.join(proxy.dir, "logs", "access.log");
  return {
    url: proxy.url,
    upstreams: () => existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => l.split("|")[0]!) : [],
    stop: proxy.stop,
  };
}
