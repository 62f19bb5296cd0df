import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { freePort } from "@/test/support/server";
import { broadcast, onBroadcast } from "./broadcast";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("cluster broadcast (lib/cluster/broadcast.ts)", () => {
  it("is a no-op outside a cluster worker", () => {
    let heard = 0;
    const off = onBroadcast("t", () => heard++);
    expect(() => broadcast("t", { x: 1 })).not.toThrow();
    off();
    expect(heard).toBe(0);
  });

  it("reaches the other workers through the primary, with its data, and never the sender", async () => {
    const port = await freePort();
    const child = spawn(path.join(root, "node_modules", ".bin", "tsx"), ["lib/cluster/broadcast-cluster.fixture.ts"], {
      cwd: root, env: { ...process.env, PORT: String(port), LOG_LEVEL: "warn" }, stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout!.setEncoding("utf8");
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (c: string) => {
        out += c;
        if (out.includes("worker 2 stopped broadcasting")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`fixture exited ${code}: ${out}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM"); // the primary forwards it and exits once both workers have
    expect(await exited).toBe(0);
    expect(out).toContain('worker 1 heard fixture-topic {"from":2}');
    expect(out).not.toContain("worker 2 heard fixture-topic");
    expect(out).not.toContain("other-topic");
  }, 60_000);
});
