// The key of the benchmark's private_key_jwt client (RFC 7523 §2.2): one ES256 key per harness run. Its public
// JWK is registered with both servers (ours through the admin CLI, theirs through BENCH_CLIENT_JWK); the load
// client signs one assertion per token request with node:crypto (its cost is the load client's).
import { generateKeyPairSync, randomBytes, sign } from "node:crypto";

const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
const { kty, crv, x, y } = publicKey.export({ format: "jwk" });

export const CLIENT_KEY_ID = "bench-client-es256";
/** The public JWK to register. */
export const clientPublicJwk = { kty, crv, x, y, kid: CLIENT_KEY_ID, alg: "ES256", use: "sig" };

const header = Buffer.from(JSON.stringify({ alg: "ES256", kid: CLIENT_KEY_ID, typ: "JWT" })).toString("base64url");

/** A client assertion for `clientId` at `audience` (the token endpoint URL): 60 s, a fresh jti. */
export function clientAssertion(clientId, audience) {
  const now = Math.floor(Date.now() / 1000);
  const payload = { iss: clientId, sub: clientId, aud: audience, jti: randomBytes(12).toString("base64url"), iat: now,
    exp: now + 60 };
  const input = `${header}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}`;
  return `${input}.${sign("sha256", Buffer.from(input), { key: privateKey, dsaEncoding: "ieee-p1363" }).toString("base64url")}`;
}
