// What one iteration of each scenario does against a target (ours, theirs or the null server).
// Every response is checked the way a relying party would check it; any deviation is an error.
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { clientAssertion } from "./client-key.mjs";

/** GET {authorization_endpoint} with the signed-in browser's cookie; returns the code. */
async function authorize(http, t, { client, scope, state, nonce }) {
  const q = `response_type=code&client_id=${encodeURIComponent(client.id)}&redirect_uri=${encodeURIComponent(t.redirectUri)}`
    + `&scope=${encodeURIComponent(scope)}&acr_values=3&state=${state}&nonce=${nonce}`;
  const res = await http.request("GET", `${t.paths.authorize}?${q}`, { headers: { cookie: t.cookie } });
  const location = res.headers.location ?? "";
  const code = /[?&]code=([^&]+)/.exec(location)?.[1];
  if ((res.status !== 302 && res.status !== 303) || !code || !location.startsWith(t.redirectUri)
    || !location.includes(`state=${state}`)) {
    throw new Error(`authorize: ${res.status} ${location.slice(0, 200) || res.text().slice(0, 200)}`);
  }
  return decodeURIComponent(code);
}

/**
 * authorize() for untimed set-up: where the target lost the session or the grant (oidc-provider's
 * in-memory LRU evicts them under load), sign in again through its interaction and retry once.
 */
async function authorizeForSetup(http, t, args) {
  try {
    return await authorize(http, t, args);
  } catch (err) {
    if (!t.signIn || !/\/interaction\//.test(err.message)) throw err;
    await t.signIn(args.client.id);
    return authorize(http, t, args);
  }
}

/**
 * POST {token_endpoint}: a secret client authenticates with Basic, a key client (`t.keyClient`, no secret) with a
 * fresh private_key_jwt assertion for the token endpoint (bench/lib/client-key.mjs).
 */
function tokenRequest(http, t, client, form, headers = {}) {
  const body = client.secret ? form : `${form}&client_id=${encodeURIComponent(client.id)}&client_assertion_type=${ASSERTION_TYPE}`
    + `&client_assertion=${clientAssertion(client.id, `${t.origin}${t.paths.token}`)}`;
  return http.request("POST", t.paths.token, {
    body,
    headers: { "content-type": "application/x-www-form-urlencoded", ...(client.secret ? { authorization: client.basic } : {}),
      accept: "application/json", ...headers },
  });
}
const ASSERTION_TYPE = encodeURIComponent("urn:ietf:params:oauth:client-assertion-type:jwt-bearer");

async function tokenJson(res, step, { refresh = false } = {}) {
  if (res.status !== 200) throw new Error(`${step}: ${res.status} ${res.text().slice(0, 200)}`);
  const body = JSON.parse(res.text());
  if (!body.access_token || !body.id_token || (refresh && !body.refresh_token)) {
    throw new Error(`${step}: incomplete token response ${Object.keys(body).join(",")}`);
  }
  return body;
}

async function redeem(http, t, client, code) {
  const form = `grant_type=authorization_code&code=${encodeURIComponent(code)}&redirect_uri=${encodeURIComponent(t.redirectUri)}`;
  return tokenJson(await tokenRequest(http, t, client, form), "token");
}

async function resource(http, t, accessToken) {
  const res = await http.request("GET", t.paths.resource, { headers: { authorization: `Bearer ${accessToken}` } });
  if (res.status !== 200) throw new Error(`premiuminfo: ${res.status} ${res.text().slice(0, 200)}`);
  const body = JSON.parse(res.text());
  if (typeof body.phone_number !== "string") throw new Error(`premiuminfo: no phone_number in ${res.text().slice(0, 200)}`);
}

async function getJson(http, path, step) {
  const res = await http.request("GET", path);
  if (res.status !== 200) throw new Error(`${step}: ${res.status}`);
  return JSON.parse(res.text());
}

/** A new refresh-token chain: one full authorization with the refresh scope. */
async function newChain(http, t, tag) {
  const code = await authorizeForSetup(http, t, { client: t.refreshClient, scope: t.refreshScope, state: `c${tag}`, nonce: `c${tag}` });
  const tokens = await tokenJson(await tokenRequest(http, t, t.refreshClient,
    `grant_type=authorization_code&code=${encodeURIComponent(code)}&redirect_uri=${encodeURIComponent(t.redirectUri)}`),
  "token", { refresh: true });
  return tokens.refresh_token;
}

/**
 * A worker's DPoP key (RFC 9449): ES256 (P-256), generated per point in the untimed set-up, with the proof's
 * protected header encoded once. Proofs are signed with node:crypto (the load client's cost is reported).
 */
function dpopKey() {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const { kty, crv, x, y } = publicKey.export({ format: "jwk" });
  const header = Buffer.from(JSON.stringify({ typ: "dpop+jwt", alg: "ES256", jwk: { kty, crv, x, y } })).toString("base64url");
  return { privateKey, header, nonce: undefined };
}

/** A DPoP proof for `htm` at `path` on the target (with `ath` for an access token and the last nonce it handed out). */
function dpopProof(t, key, htm, path, accessToken) {
  const payload = { jti: randomBytes(12).toString("base64url"), htm, htu: `${t.origin}${path}`, iat: Math.floor(Date.now() / 1000) };
  if (key.nonce) payload.nonce = key.nonce;
  if (accessToken) payload.ath = createHash("sha256").update(accessToken).digest("base64url");
  const input = `${key.header}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}`;
  return `${input}.${sign("sha256", Buffer.from(input), { key: key.privateKey, dsaEncoding: "ieee-p1363" }).toString("base64url")}`;
}

/** The token request with a proof; on `use_dpop_nonce` (RFC 9449 §8) it retries once with the nonce it was given. */
async function redeemWithDpop(http, t, client, code, key) {
  const form = `grant_type=authorization_code&code=${encodeURIComponent(code)}&redirect_uri=${encodeURIComponent(t.redirectUri)}`;
  const send = () => tokenRequest(http, t, client, form, { dpop: dpopProof(t, key, "POST", t.paths.token) });
  let res = await send();
  if (res.headers["dpop-nonce"]) key.nonce = res.headers["dpop-nonce"];
  if (res.status === 400 && /use_dpop_nonce/.test(res.text())) {
    res = await send();
    if (res.headers["dpop-nonce"]) key.nonce = res.headers["dpop-nonce"];
  }
  const body = await tokenJson(res, "token");
  if (t.name !== "null" && body.token_type?.toLowerCase() !== "dpop") throw new Error(`token: token_type ${body.token_type}`);
  return body;
}

async function resourceWithDpop(http, t, accessToken, key) {
  const res = await http.request("GET", t.paths.resource, { headers: { authorization: `DPoP ${accessToken}`,
    dpop: dpopProof(t, key, "GET", t.paths.resource, accessToken) } });
  if (res.status !== 200) throw new Error(`premiuminfo: ${res.status} ${res.text().slice(0, 200)}`);
  const body = JSON.parse(res.text());
  if (typeof body.phone_number !== "string") throw new Error(`premiuminfo: no phone_number in ${res.text().slice(0, 200)}`);
}

/**
 * A full-flow scenario: authorize → token → premium info for `client(t)` (a secret client authenticates with
 * Basic, the key client with an assertion: tokenRequest), with DPoP proofs at the token endpoint and premium
 * info when `dpop` (each worker's key made in the untimed set-up).
 */
function fullFlow({ title, client, tag, dpop = false }) {
  return {
    title, unit: "flows/s", signatures: 1, steps: ["authorize", "token", "premiuminfo"],
    async setup(http, t, w) {
      if (dpop) w.dpop = dpopKey();
      if (w.index === 0) await authorizeForSetup(http, t, { client: client(t), scope: t.flowScope, state: tag, nonce: tag });
    },
    async iterate(http, t, w, times) {
      const n = `${w.tag}-${w.n++}`;
      let t0 = performance.now();
      const code = await authorize(http, t, { client: client(t), scope: t.flowScope, state: `s${n}`, nonce: `n${n}` });
      let t1 = performance.now();
      times.push(t1 - t0);
      const tokens = dpop ? await redeemWithDpop(http, t, client(t), code, w.dpop) : await redeem(http, t, client(t), code);
      t0 = performance.now();
      times.push(t0 - t1);
      if (dpop) await resourceWithDpop(http, t, tokens.access_token, w.dpop);
      else await resource(http, t, tokens.access_token);
      times.push(performance.now() - t0);
    },
  };
}

/**
 * Number Verification (issue 21, docs/number-verification.md), ours only: silent sign-in from the subscriber's data
 * connection (the client's sockets connect from `t.nv.localAddress`, which the server's NetworkRange maps to the
 * subscriber: no cookie, no screen, prompt=none implied) → a code; POST /token → a single-use Number Verification
 * token (≤ 300 s, no refresh, an id_token signed); POST /number-verification/v2/verify with the subscriber's number
 * → `{"devicePhoneNumberVerified": true}`. The token is spent by the call, so every iteration signs in again.
 */
async function silentAuthorize(http, t, state) {
  const q = `response_type=code&client_id=${encodeURIComponent(t.client.id)}&redirect_uri=${encodeURIComponent(t.redirectUri)}`
    + `&scope=${encodeURIComponent(t.nv.scope)}&state=${state}&nonce=${state}`;
  const res = await http.request("GET", `${t.paths.authorize}?${q}`);
  const location = res.headers.location ?? "";
  const code = /[?&]code=([^&]+)/.exec(location)?.[1];
  if ((res.status !== 302 && res.status !== 303) || !code || !location.startsWith(t.redirectUri)) {
    throw new Error(`silent authorize: ${res.status} ${location.slice(0, 200) || res.text().slice(0, 200)}`);
  }
  return decodeURIComponent(code);
}

async function verifyNumber(http, t, accessToken) {
  const res = await http.request("POST", t.nv.verify, { body: JSON.stringify({ phoneNumber: `+${t.msisdn}` }),
    headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json" } });
  if (res.status !== 200 || !/"devicePhoneNumberVerified":true/.test(res.text())) {
    throw new Error(`verify: ${res.status} ${res.text().slice(0, 200)}`);
  }
}

let runId = 0;

/**
 * The full flow of the client whose id_tokens are signed with `alg` (issue 23: ES256 beside RS256; PS256 and EdDSA
 * optional). Ours: a client created with the admin CLI's `--id-token-alg` (bench/lib/ours.mjs); theirs: a client
 * with `id_token_signed_response_alg` and a key of that algorithm in its JWKS. The probe runs one untimed flow and
 * checks the id_token's header: where the CLI refused the flag, or the token is signed otherwise, the scenario is
 * "not measured" with the reason.
 */
function algFlow(alg, tag) {
  const base = fullFlow({
    title: `Full flow, id_token signed with ${alg} (authorize → token → premium info)`, client: (t) => t.algClients?.[alg], tag,
  });
  return {
    ...base, alg,
    async probe(http, t) {
      const client = t.algClients?.[alg];
      if (!client) throw new Error(t.algRefused?.[alg] ?? `no ${alg} client`);
      if (!client.basic) client.basic = `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString("base64")}`;
      const code = await authorizeForSetup(http, t, { client, scope: t.flowScope, state: `p${tag}`, nonce: `p${tag}` });
      const tokens = await redeem(http, t, client, code);
      const header = JSON.parse(Buffer.from(tokens.id_token.split(".")[0], "base64url").toString());
      if (header.alg !== alg) throw new Error(`the id_token is signed with ${header.alg}, not ${alg}`);
    },
  };
}

/**
 * The scenarios. `steps` names the timed steps of one iteration; `setup` runs (untimed) before a point
 * for each worker; `iterate` does one iteration and pushes each step's milliseconds into `times`.
 */
export const SCENARIOS = {
  flow: fullFlow({ title: "Full flow (authorize → token → premium info)", client: (t) => t.client, tag: "f" }),
  flowDpop: fullFlow({
    title: "Full flow with DPoP (authorize → token with an ES256 proof → premium info with a proof)",
    client: (t) => t.client, tag: "fd", dpop: true,
  }),
  flowKey: fullFlow({
    title: "Full flow, private_key_jwt client (authorize → token with an ES256 client assertion → premium info)",
    client: (t) => t.keyClient, tag: "fk",
  }),
  flowEs256: algFlow("ES256", "fe"),
  flowPs256: algFlow("PS256", "fp"),
  flowEdDsa: algFlow("EdDSA", "fed"),
  flowKeyDpop: fullFlow({
    title: "Full flow, private_key_jwt client with DPoP (token with an assertion and a proof → premium info with a proof)",
    client: (t) => t.keyClient, tag: "fkd", dpop: true,
  }),
  numberVerification: {
    title: "Number Verification (silent sign-in from the mapped address → token → verify), ours only",
    unit: "verifications/s", signatures: 1, steps: ["authorize", "token", "verify"], iterationLabel: "verification",
    oursOnly: true,
    localAddress: (t) => t.nv?.localAddress,
    /** Whether the target can answer it (network-based authentication present): one untimed iteration. */
    async probe(http, t) {
      if (!t.nv) throw new Error("the target has no Number Verification set-up");
      const tokens = await redeem(http, t, t.client, await silentAuthorize(http, t, "nvprobe"));
      await verifyNumber(http, t, tokens.access_token);
    },
    async iterate(http, t, w, times) {
      const n = `${w.tag}-${w.n++}`;
      let t0 = performance.now();
      const code = await silentAuthorize(http, t, `v${n}`);
      let t1 = performance.now();
      times.push(t1 - t0);
      const tokens = await redeem(http, t, t.client, code);
      t0 = performance.now();
      times.push(t0 - t1);
      await verifyNumber(http, t, tokens.access_token);
      times.push(performance.now() - t0);
    },
  },
  refresh: {
    title: "Refresh-token grant (rotating, one chain per worker)", unit: "grants/s", signatures: 1, steps: ["refresh"],
    async setup(http, t, w, shared) {
      shared.chains ??= new Map();
      if (!shared.chains.get(w.index)) shared.chains.set(w.index, await newChain(http, t, `${w.tag}-${w.index}`));
    },
    async iterate(http, t, w, times, shared) {
      const t0 = performance.now();
      const current = shared.chains.get(w.index);
      shared.chains.set(w.index, null); // a failed rotation leaves no usable token: set up a new chain next point
      const res = await tokenRequest(http, t, t.refreshClient, `grant_type=refresh_token&refresh_token=${encodeURIComponent(current)}`);
      const body = await tokenJson(res, "refresh", { refresh: true });
      shared.chains.set(w.index, body.refresh_token);
      times.push(performance.now() - t0);
    },
  },
  premiuminfo: {
    title: "Premium info (theirs: userinfo) with one valid access token", unit: "req/s", signatures: 0, steps: ["premiuminfo"],
    async setup(http, t, w, shared) {
      if (!shared.accessToken) {
        const code = await authorizeForSetup(http, t, { client: t.client, scope: t.flowScope, state: "pi", nonce: "pi" });
        shared.accessToken = (await redeem(http, t, t.client, code)).access_token;
      }
    },
    async iterate(http, t, w, times, shared) {
      const t0 = performance.now();
      await resource(http, t, shared.accessToken);
      times.push(performance.now() - t0);
    },
  },
  metadata: {
    title: "Provider metadata (/.well-known/openid-configuration)", unit: "req/s", signatures: 0, steps: ["metadata"],
    async iterate(http, t, w, times) {
      const t0 = performance.now();
      const body = await getJson(http, t.paths.metadata, "metadata");
      if (!body.issuer && t.name !== "null") throw new Error("metadata: no issuer");
      times.push(performance.now() - t0);
    },
  },
  jwks: {
    title: "JWKS", unit: "req/s", signatures: 0, steps: ["jwks"],
    async iterate(http, t, w, times) {
      const t0 = performance.now();
      const body = await getJson(http, t.paths.jwks, "jwks");
      if (!Array.isArray(body.keys) || !body.keys.length) throw new Error("jwks: no keys");
      times.push(performance.now() - t0);
    },
  },
};

/** Worker state for a point: a unique tag keeps state/nonce values distinct across points and runs. */
export function newWorkers(concurrency) {
  runId++;
  return Array.from({ length: concurrency }, (_, index) => ({ index, n: 0, tag: `${runId}x${index}` }));
}
