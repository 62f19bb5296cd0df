// The comparison server: node-oidc-provider 9 configured as closely as its API allows to our service
// (bench/README.md "How node-oidc-provider is configured"). Started by bench/run.mjs in its own
// process: `node bench/oidc-provider-server.mjs <port> <clientSecret>`; prints "ready" when listening.
//
// - In-memory adapter: by default an O(1) one (BENCH_PEER_ADAPTER=fast, below: a Map per model and a Set of ids per
//   grant id, the shape of the library's Redis adapter example, expiry honoured); with BENCH_PEER_ADAPTER=default
//   the library's own MemoryAdapter (an LRU of 1000 entries that walks a grant's tokens on every save). Either way
//   nothing is durable.
// - Confidential clients, client_secret_basic, RS256 id_tokens (one 2048-bit RSA key, like ours).
// - Pairwise subjects (subjectTypes ['pairwise'], HMAC-SHA256 pairwiseIdentifier like our PCR).
// - The same scope names as ours: mc_identity_phonenumber maps to phone_number(+_verified).
// - Consent remembered: the one interaction (below) saves a Grant with the scopes; later
//   authorization requests find it through the default loadExistingGrant (session.grantIdFor).
// - Refresh tokens rotate on every use (rotateRefreshToken: true); PKCE optional for confidential
//   clients (pkce.required: () => false), as ours.
import { createHmac, generateKeyPairSync, randomBytes } from "node:crypto";
import http from "node:http";
import { Provider } from "oidc-provider";

const port = Number(process.argv[2]);
const clientSecret = process.argv[3];
const issuer = `http://127.0.0.1:${port}`;
const REDIRECT_URI = "https://rp.bench.test/cb";
const MSISDN = "447700900777";
const subjectSecret = randomBytes(32);

const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: "jwk" }), kid: "bench-rs256", use: "sig", alg: "RS256" };
// One key per further algorithm (the alg scenarios flowEs256, flowPs256, flowEdDsa), as ours keeps one per algorithm.
const ecJwk = { ...generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" }),
  kid: "bench-es256", use: "sig", alg: "ES256" };
const psJwk = { ...generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }),
  kid: "bench-ps256", use: "sig", alg: "PS256" };
const edJwk = { ...generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" }), kid: "bench-eddsa", use: "sig", alg: "EdDSA" };

/**
 * The O(1) in-memory adapter (the default peer): what the library's Redis adapter example does, in a Map per model.
 * upsert stores the payload with its expiry and indexes it under its grantId (a Set of ids per grant), uid and
 * userCode; find/findByUid/findByUserCode return nothing once expired; consume marks `consumed`; destroy deletes;
 * revokeByGrantId destroys every entry of the grant. Expired entries are also swept every 10 s, as Redis expires
 * keys, so the heap holds only live tokens. No operation walks a grant's tokens (the default MemoryAdapter's
 * setGrantMembers does, on every save).
 */
const GRANTABLE = new Set(["AccessToken", "AuthorizationCode", "RefreshToken", "DeviceCode", "BackchannelAuthenticationRequest"]);
const models = new Map(); // model name → Map(id → { payload, expiresAt })
const grantMembers = new Map(); // grantId → Set("Model:id")
const byUid = new Map(); // uid → id (Session)
const byUserCode = new Map(); // userCode → id (DeviceCode)
const store = (name) => {
  let m = models.get(name);
  if (!m) models.set(name, (m = new Map()));
  return m;
};
class FastAdapter {
  constructor(name) {
    this.name = name;
    this.items = store(name);
  }
  async upsert(id, payload, expiresIn) {
    this.items.set(id, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
    if (GRANTABLE.has(this.name) && payload.grantId) {
      let set = grantMembers.get(payload.grantId);
      if (!set) grantMembers.set(payload.grantId, (set = new Set()));
      set.add(`${this.name}:${id}`);
    }
    if (payload.uid) byUid.set(payload.uid, id);
    if (payload.userCode) byUserCode.set(payload.userCode, id);
  }
  async find(id) {
    const e = this.items.get(id);
    if (!e) return undefined;
    if (e.expiresAt <= Date.now()) {
      this.items.delete(id);
      return undefined;
    }
    return e.payload;
  }
  async findByUid(uid) {
    const id = byUid.get(uid);
    return id === undefined ? undefined : this.find(id);
  }
  async findByUserCode(userCode) {
    const id = byUserCode.get(userCode);
    return id === undefined ? undefined : this.find(id);
  }
  async consume(id) {
    const e = this.items.get(id);
    if (e) e.payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id) {
    const e = this.items.get(id);
    this.items.delete(id);
    if (e?.payload.grantId) grantMembers.get(e.payload.grantId)?.delete(`${this.name}:${id}`);
  }
  async revokeByGrantId(grantId) {
    const set = grantMembers.get(grantId);
    if (!set) return;
    grantMembers.delete(grantId);
    for (const key of set) {
      const i = key.indexOf(":");
      models.get(key.slice(0, i))?.delete(key.slice(i + 1));
    }
  }
}
const sweep = setInterval(() => {
  const now = Date.now();
  for (const [name, m] of models) {
    for (const [id, e] of m) {
      if (e.expiresAt > now) continue;
      m.delete(id);
      if (e.payload.grantId) grantMembers.get(e.payload.grantId)?.delete(`${name}:${id}`);
      if (e.payload.uid) byUid.delete(e.payload.uid);
      if (e.payload.userCode) byUserCode.delete(e.payload.userCode);
    }
  }
}, 10_000);
sweep.unref();
const adapterKind = process.env.BENCH_PEER_ADAPTER === "default" ? "default" : "fast";

const client = (id, grantTypes, alg = "RS256") => ({
  client_id: id, client_secret: clientSecret, redirect_uris: [REDIRECT_URI],
  grant_types: grantTypes, response_types: ["code"], token_endpoint_auth_method: "client_secret_basic",
  id_token_signed_response_alg: alg, subject_type: "pairwise",
  scope: "openid mc_identity_phonenumber mc_identity_signup offline_access",
});

const provider = new Provider(issuer, {
  clients: [
    // Full flows: no refresh token is issued (ours issues one only for offline_access, not asked there).
    client("bench", ["authorization_code"]),
    // Refresh chains: the library drops offline_access unless prompt=consent (which forces the consent
    // screen), so this client gets a refresh token with every code instead (issueRefreshToken below).
    client("bench-refresh", ["authorization_code", "refresh_token"]),
    // The key scenarios (flowKey, flowKeyDpop): private_key_jwt with the harness's ES256 key (bench/lib/client-key.mjs).
    { ...client("bench-key", ["authorization_code"]), client_secret: undefined, token_endpoint_auth_method: "private_key_jwt",
      token_endpoint_auth_signing_alg: "ES256", jwks: { keys: [JSON.parse(process.env.BENCH_CLIENT_JWK)] } },
    // The alg scenarios: the full-flow client with another id_token algorithm.
    client("bench-es256", ["authorization_code"], "ES256"),
    client("bench-ps256", ["authorization_code"], "PS256"),
    client("bench-eddsa", ["authorization_code"], "EdDSA"),
  ],
  ...(adapterKind === "fast" ? { adapter: FastAdapter } : {}),
  jwks: { keys: [jwk, ecJwk, psJwk, edJwk] },
  enabledJWA: { idTokenSigningAlgValues: ["RS256", "PS256", "ES256", "EdDSA"] },
  cookies: { keys: [randomBytes(32).toString("base64url")] },
  claims: { openid: ["sub"], mc_identity_phonenumber: ["phone_number", "phone_number_verified"] },
  scopes: ["openid", "offline_access", "mc_identity_phonenumber", "mc_identity_signup"],
  acrValues: ["2", "3"],
  subjectTypes: ["pairwise"],
  pairwiseIdentifier: async (ctx, accountId, c) =>
    createHmac("sha256", subjectSecret).update(`${c.sectorIdentifier}\0${accountId}`).digest("base64url"),
  findAccount: async (ctx, sub) => ({
    accountId: sub,
    claims: async () => ({ sub, phone_number: `+${MSISDN}`, phone_number_verified: true }),
  }),
  issueRefreshToken: async (ctx, c) => c.grantTypeAllowed("refresh_token"),
  rotateRefreshToken: true,
  pkce: { required: () => false },
  features: { devInteractions: { enabled: false }, userinfo: { enabled: true } },
  ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, RefreshToken: 30 * 86400, Grant: 30 * 86400,
    Interaction: 600, Session: 86400 },
});
provider.on("server_error", (ctx, err) => console.error("oidc-provider server_error:", err));

const callback = provider.callback();

// The interaction endpoint (interactions.url default: /interaction/:uid). The benchmark visits it
// once per client to establish the session: it signs MSISDN in at acr 3 and saves a Grant with the
// requested scopes, which is what our completed sign-in and consent leave behind.
async function interaction(req, res) {
  try {
    const details = await provider.interactionDetails(req, res);
    const accountId = details.session?.accountId ?? MSISDN;
    const grant = new provider.Grant({ accountId, clientId: details.params.client_id });
    grant.addOIDCScope(details.params.scope);
    const grantId = await grant.save();
    const result = { consent: { grantId } };
    if (details.prompt.name === "login") result.login = { accountId, acr: "3", amr: ["otp", "sms", "pin"] };
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  } catch (err) {
    res.statusCode = 500;
    res.end(String(err));
  }
}

const server = http.createServer((req, res) => {
  if (req.url.startsWith("/interaction/")) return void interaction(req, res);
  callback(req, res);
});
server.keepAliveTimeout = 65_000;
server.listen(port, "127.0.0.1", () => console.log("ready"));
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.close(() => process.exit(0)));
