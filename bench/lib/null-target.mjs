// The client's own ceiling: the same scenarios against bench/null-server.mjs (canned answers of the
// same shape and size, no work), pinned like the real servers. Whatever rate the load client reaches
// here is the most it can measure; a real server's figure close to it is limited by the client.
import { spawn } from "node:child_process";
import path from "node:path";
import { freePort, pinned, root, stopChild, track, waitHealthy } from "./processes.mjs";

export async function startNull({ serverCore }) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = track(spawn(...pinned(serverCore, process.execPath, [path.join(root, "bench", "null-server.mjs"), String(port)]),
    { cwd: root, stdio: ["ignore", "ignore", 2] }));
  await waitHealthy(child, `${origin}/jwks`);
  const client = { id: "null", secret: "null-secret" };
  return {
    name: "null", label: "null server (client ceiling)", pid: child.pid, origin,
    paths: { authorize: "/authorize", token: "/token", resource: "/premiuminfo",
      metadata: "/.well-known/openid-configuration", jwks: "/jwks" },
    client, refreshClient: client, keyClient: client, redirectUri: "https://rp.bench.test/cb", cookie: "op_browser=null",
    flowScope: "openid mc_identity_phonenumber", refreshScope: "openid mc_identity_phonenumber offline_access",
    stop: () => stopChild(child),
  };
}
