// The comparison server: node-oidc-provider 9 configured as closely as its API allows to our service
// (bench/README.md "How node-oidc-provider is configured"). Started by bench/run.mjs in its own
// process: `node bench/oidc-provider-server.mjs <port> <clientSecret>`; prints "ready" when listening.
//
// - In-memory adapter (the library's default MemoryAdapter, an LRU of 1000 entries): nothing is durable.
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

const client = (id, grantTypes) => ({
  client_id: id, client_secret: clientSecret, redirect_uris: [REDIRECT_URI],
  grant_types: grantTypes, response_types: ["code"], token_endpoint_auth_method: "client_secret_basic",
  id_token_signed_response_alg: "RS256", subject_type: "pairwise",
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
  ],
  jwks: { keys: [jwk] },
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
