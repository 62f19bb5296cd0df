// node-oidc-provider 9 under test (bench/oidc-provider-server.mjs), with a session established the
// way a browser would: one authorization request per client, through its interaction endpoint.
import { clientPublicJwk } from "./client-key.mjs";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { createHttpClient, mergeCookies } from "./http-client.mjs";
import { freePort, pinned, root, stopChild, track, waitHealthy } from "./processes.mjs";

const REDIRECT_URI = "https://rp.bench.test/cb";
const SCOPE = "openid mc_identity_phonenumber";

/** Follows redirects on the provider's origin with a cookie jar until the redirect to the client. */
async function browse(http, origin, url, jar) {
  for (let hop = 0; hop < 10; hop++) {
    const res = await http.request("GET", url, { headers: jar ? { cookie: jar } : {} });
    jar = mergeCookies(jar, res.headers["set-cookie"]);
    const location = res.headers.location;
    if (res.status < 300 || res.status >= 400 || !location) {
      throw new Error(`oidc-provider answered ${res.status} at ${url}: ${res.text().slice(0, 300)}`);
    }
    if (location.startsWith(REDIRECT_URI)) return { location, jar };
    url = location.startsWith(origin) ? location.slice(origin.length) : location;
  }
  throw new Error("too many redirects while establishing the oidc-provider session");
}

const ALG_CLIENTS = { ES256: "bench-es256", PS256: "bench-ps256", EdDSA: "bench-eddsa" };

/**
 * Starts oidc-provider pinned to the server core and signs the benchmark subscriber in. `adapter`: "fast" (the peer:
 * the O(1) in-memory adapter of bench/oidc-provider-server.mjs) or "default" (the library's MemoryAdapter, the
 * second labelled server). `restart()` replaces the process by a fresh one (bench/run.mjs does it before every
 * scenario, so its in-process token store holds one scenario's tokens, as Redis would hold them outside the heap).
 */
export async function startTheirs({ serverCore, log, cpuProfDir = null, adapter = "fast" }) {
  const first = await spawnTheirs({ serverCore, log, cpuProfDir, adapter });
  const target = {
    name: adapter === "fast" ? "theirs" : "theirsDefault",
    label: adapter === "fast" ? "node-oidc-provider 9 (O(1) in-memory adapter)" : "node-oidc-provider 9 (default adapter)",
    paths: { authorize: "/auth", token: "/token", resource: "/me", metadata: "/.well-known/openid-configuration", jwks: "/jwks" },
    client: { id: "bench", secret: first.secret }, refreshClient: { id: "bench-refresh", secret: first.secret },
    keyClient: { id: "bench-key" },
    algClients: Object.fromEntries(Object.entries(ALG_CLIENTS).map(([alg, id]) => [alg, { id, secret: first.secret }])),
    redirectUri: REDIRECT_URI, flowScope: SCOPE, refreshScope: SCOPE,
    restarts: 0,
    ...first.fields,
    async signIn(clientId) {
      this.cookie = await this.signInWith([clientId]);
    },
    async restart() {
      await stopChild(this.child);
      const next = await spawnTheirs({ serverCore, log, cpuProfDir, adapter, secret: first.secret });
      Object.assign(this, next.fields);
      this.restarts++;
    },
    stop() {
      return stopChild(this.child);
    },
  };
  return target;
}

async function spawnTheirs({ serverCore, log, cpuProfDir, adapter, secret = randomBytes(32).toString("base64url") }) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  log(`starting node-oidc-provider (${adapter} adapter) on ${origin}…`);
  const prof = cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(cpuProfDir, "theirs")}`] : [];
  const child = track(spawn(...pinned(serverCore, process.execPath, [...prof, path.join(root, "bench", "oidc-provider-server.mjs"),
    String(port), secret]), { cwd: root, stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, NODE_ENV: "production", BENCH_PEER_ADAPTER: adapter, BENCH_CLIENT_JWK: JSON.stringify(clientPublicJwk) } }));
  // Its start-up warnings (runtime version, in-memory adapter) are expected; anything else is shown.
  child.stderr.on("data", (d) => {
    const text = String(d).split("\n").filter((l) => l && !/^oidc-provider WARNING|in-memory adapter|quick start/.test(l));
    if (text.length) process.stderr.write(`[oidc-provider] ${text.join("\n")}\n`);
  });
  await waitHealthy(child, `${origin}/.well-known/openid-configuration`);

  // Its in-memory adapter is an LRU of 1000 entries: under load the session or a client's Grant can be
  // evicted. signIn() (untimed set-up, see scenarios.mjs) then goes through the interaction again.
  let jar = "";
  const signIn = async (clientIds) => {
    const http = createHttpClient(origin, { sockets: 1 });
    try {
      for (const clientId of clientIds) {
        const q = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: REDIRECT_URI, scope: SCOPE,
          acr_values: "3", state: "setup", nonce: "setup" });
        ({ jar } = await browse(http, origin, `/auth?${q}`, jar));
      }
    } finally {
      http.close();
    }
    // Only the session cookies matter from now on (the interaction cookies are spent).
    return jar.split("; ").filter((c) => c.startsWith("_session")).join("; ");
  };
  const cookie = await signIn(["bench", "bench-refresh", "bench-key", ...Object.values(ALG_CLIENTS)]);
  return { secret, fields: { child, pid: child.pid, origin, cookie, signInWith: signIn } };
}
