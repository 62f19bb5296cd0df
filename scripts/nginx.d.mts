import type { ChildProcess } from "node:child_process";

/** nginx in front of instances of this service (scripts/nginx.mjs). */
export declare function findNginx(): string | undefined;
export declare function startNginx(options: {
  bin: string;
  port: number;
  upstreams: number[];
  keepalive?: number;
  accessLog?: boolean;
  prefix?: string;
  command?: (bin: string, args: string[]) => [string, string[]];
}): Promise<{ url: string; dir: string; child: ChildProcess; version: string; stop(): Promise<void> }>;
