// The physical bound: RS256 signatures per second on one core, with jose's SignJWT and a KeyObject
// (2048-bit RSA, an id_token-sized payload), as our service signs id_tokens. Run pinned to the server
// core by run.mjs: `node bench/rs256-bound.mjs <milliseconds>`; prints one JSON line.
import { createSign, generateKeyPairSync, randomBytes } from "node:crypto";
import { SignJWT } from "jose";

const durationMs = Number(process.argv[2] ?? 2000);
const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const payload = {
  iss: "http://127.0.0.1:3000", sub: randomBytes(32).toString("base64url"), aud: "client-0123456789",
  nonce: "n-0123456789", acr: "3", amr: ["otp", "sms", "pin"], auth_time: 1_700_000_000,
  at_hash: randomBytes(16).toString("base64url"),
};

async function rate(fn, ms) {
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    await fn();
    n++;
  }
  return n / ((performance.now() - start) / 1000);
}

const sign = () => new SignJWT(payload).setProtectedHeader({ alg: "RS256", kid: "k1", typ: "JWT" })
  .setIssuedAt().setExpirationTime("1h").sign(privateKey);
await rate(sign, Math.min(300, durationMs / 4)); // warm-up
const jose = await rate(sign, durationMs);
const input = Buffer.alloc(600, 1);
const raw = await rate(() => createSign("RSA-SHA256").update(input).sign(privateKey), Math.min(1000, durationMs / 2));
console.log(JSON.stringify({ joseSignsPerSecond: jose, nodeCryptoSignsPerSecond: raw, durationMs }));
