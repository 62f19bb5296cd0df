// nginx in front of two instances of our service (the PostgreSQL points): scripts/nginx.mjs, the two-instance tests'
// configuration, with one difference for the benchmark: `keepalive 32` to the upstreams (the tests leave it out so
// that consecutive requests land on different instances; under load a new upstream connection per request would
// measure nginx's connects, not the service). Round robin still alternates the instances per request.
import { findNginx, startNginx as start } from "../../scripts/nginx.mjs";
import { pinned, track } from "./processes.mjs";

export { findNginx };

/** Starts nginx (one worker process, pinned to `cores` when given) on 127.0.0.1:port, proxying to the upstream ports. */
export async function startNginx({ bin, port, upstreams, cores = null, keepalive = 32 }) {
  const proxy = await start({ bin, port, upstreams, keepalive, prefix: "bench-nginx-",
    command: (b, args) => pinned(cores, b, args) });
  track(proxy.child);
  return { url: proxy.url, pid: proxy.child.pid, version: proxy.version, keepalive, stop: proxy.stop };
}
