// nginx in front of two instances of our service (the PostgreSQL points), the configuration of test/scale/nginx.ts
// copied (bench is plain .mjs): round robin, 127.0.0.1 only, everything under a temporary prefix (`-p`), no root
// needed, a refused connection retried on the next instance, buffering off. One difference, for the benchmark:
// `keepalive 32` to the upstreams (the tests leave it out so that consecutive requests land on different instances;
// under load a new upstream connection per request would measure nginx's connects, not the service). Round robin
// still alternates the instances per request.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pinned, track } from "./processes.mjs";

/** The nginx binary (PATH, then Debian's /usr/sbin/nginx), or undefined when not installed. */
export function findNginx() {
  const fromPath = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" }).stdout.trim();
  if (fromPath) return fromPath;
  return existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : undefined;
}

/** Starts nginx (one worker process, pinned to `cores` when given) on 127.0.0.1:port, proxying to the upstream ports. */
export async function startNginx({ bin, port, upstreams, cores = null, keepalive = 32 }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-nginx-"));
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
  access_log off;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  keepalive_requests 1000000;
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
  const child = track(spawn(...pinned(cores, bin, ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "logs", "error.log")]),
    { stdio: ["ignore", "inherit", "inherit"] }));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${readFileSync(path.join(dir, "logs", "error.log"), "utf8")}`);
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
    url, pid: child.pid, version, keepalive,
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
