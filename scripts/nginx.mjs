// nginx as the load balancer in front of instances of this service, for the two-instance tests (test/scale/nginx.ts)
// and the benchmark's PostgreSQL points (bench/lib/nginx.mjs): one worker process, round robin, 127.0.0.1 only,
// everything under a temporary prefix (`-p`), no root needed. A refused connection is retried on the next instance
// (what a load balancer does when an instance dies); a request already sent is not (POST is not idempotent).
// Buffering off so Server-Sent Events and held /authorize responses stream through.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** The nginx binary (PATH, then Debian's /usr/sbin/nginx), or undefined when not installed. */
export function findNginx() {
  const fromPath = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" }).stdout.trim();
  if (fromPath) return fromPath;
  return existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : undefined;
}

/**
 * Starts nginx on 127.0.0.1:port proxying to the upstream ports and waits until it answers.
 * `keepalive`: idle connections kept to the upstreams (0: a new connection per request, so consecutive requests of
 * one client land on different instances, as the tests want). `accessLog`: log each request's upstream address
 * (`upstream|status|method|uri` lines in `<dir>/logs/access.log`). `command(bin, args)` may wrap the command line
 * (the benchmark pins it with taskset).
 */
export async function startNginx({ bin, port, upstreams, keepalive = 0, accessLog = false, prefix = "nginx-",
  command = (b, a) => [b, a] }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const d of ["logs", "tmp"]) mkdirSync(path.join(dir, d));
  const asRoot = process.getuid?.() === 0;
  const conf = `
${asRoot ? "user root root;" : ""}
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 1024; }
http {
${accessLog ? `  log_format upstream '$upstream_addr|$status|$request_method|$uri';
  access_log ${dir}/logs/access.log upstream;` : "  access_log off;"}
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
${keepalive ? "  keepalive_requests 1000000;" : ""}
  upstream service {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=30s;`).join("\n")}
${keepalive ? `    keepalive ${keepalive};\n    keepalive_requests 1000000;` : ""}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://service;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_buffering off;
      proxy_read_timeout 120s;
      proxy_next_upstream error timeout;
    }
  }
}
`;
  writeFileSync(path.join(dir, "nginx.conf"), conf);
  const errorLog = path.join(dir, "logs", "error.log");
  const child = spawn(...command(bin, ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", errorLog]),
    { stdio: ["ignore", "inherit", "inherit"] });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${readFileSync(errorLog, "utf8")}`);
    try {
      await fetch(`${url}/api/health`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error("nginx did not start listening");
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const version = (spawnSync(bin, ["-v"], { encoding: "utf8" }).stderr ?? "").trim().replace(/^nginx version: /, "");
  return {
    url, dir, child, version,
    stop: () => new Promise((resolve) => {
      const done = () => {
        rmSync(dir, { recursive: true, force: true });
        resolve();
      };
      if (child.exitCode !== null) return done();
      child.once("exit", done);
      child.kill("SIGQUIT");
      setTimeout(() => child.kill("SIGKILL"), 5000).unref();
    }),
  };
}
