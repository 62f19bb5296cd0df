import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** The nginx binary (PATH, then Debian's /usr/sbin/nginx), or undefined when not installed. */
export function findNginx(): string | undefined {
  const fromPath = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" }).stdout.trim();
  if (fromPath) return fromPath;
  return existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : undefined;
}

export interface RunningProxy {
  url: string;
  /** Upstream address(es) of every request proxied so far, in order ("A, B" when A failed and B answered). */
  upstreams(): string[];
  stop(): Promise<void>;
}

/**
 * nginx as the load balancer in front of the instances: round robin (no keepalive to upstreams, so
 * consecutive requests of one browser land on different instances), 127.0.0.1 only, everything under
 * a temporary prefix (`-p`), no root needed. A refused connection is retried on the next instance
 * (what a load balancer does when an instance dies); a request already sent is not (POST is not
 * idempotent). Buffering off so Server-Sent Events and held /authorize responses stream through.
 */
export async function startNginx({ bin, port, upstreams }: { bin: string; port: number; upstreams: number[] }):
  Promise<RunningProxy> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "nginx-"));
  for (const d of ["logs", "tmp"]) mkdirSync(path.join(dir, d));
  const root = process.getuid?.() === 0;
  const conf = `
${root ? "user root root;" : ""}
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 1024; }
http {
  log_format upstream '$upstream_addr|$status|$request_method|$uri';
  access_log ${dir}/logs/access.log upstream;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  upstream service {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=30s;`).join("\n")}
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
  const child: ChildProcess = spawn(bin, ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "logs", "error.log")],
    { stdio: ["ignore", "inherit", "inherit"] });
  process.once("exit", () => child.kill("SIGKILL"));
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
  return {
    url,
    upstreams: () => {
      const file = path.join(dir, "logs", "access.log");
      return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => l.split("|")[0]!) : [];
    },
    stop: () =>
      new Promise<void>((resolve) => {
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
