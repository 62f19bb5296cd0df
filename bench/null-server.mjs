// Canned answers shaped like the real ones (a 302 with a code, a token response with an RS256-sized
// id_token, small JSON documents), computed once: measures what the load client alone can drive.
// `node bench/null-server.mjs <port>`.
import { randomBytes } from "node:crypto";
import http from "node:http";

const port = Number(process.argv[2]);
const b64 = (n) => randomBytes(n).toString("base64url");
const idToken = `${b64(60)}.${b64(330)}.${b64(256)}`;
const json = (o) => Buffer.from(JSON.stringify(o));
const tokenBody = json({ access_token: b64(32), token_type: "bearer", id_token: idToken, expires_in: 3600,
  refresh_token: b64(32), scope: "openid mc_identity_phonenumber" });
const premiumBody = json({ sub: b64(32), phone_number: "+447700900777", phone_number_verified: true });
const metadataBody = json(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`key_${i}`, `http://127.0.0.1/${b64(24)}`])));
const jwksBody = json({ keys: [{ kty: "RSA", kid: b64(16), use: "sig", alg: "RS256", e: "AQAB", n: b64(256) }] });

function send(res, status, body, headers = {}) {
  res.writeHead(status, { "content-type": "application/json", "content-length": body.length, ...headers });
  res.end(body);
}

http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    const [pathname, query = ""] = req.url.split("?");
    if (pathname === "/authorize" || pathname === "/auth") {
      const state = /(?:^|&)state=([^&]*)/.exec(query)?.[1] ?? "";
      return send(res, 302, Buffer.alloc(0), { location: `https://rp.bench.test/cb?code=${b64(32)}&state=${state}` });
    }
    if (pathname === "/token") return send(res, 200, tokenBody);
    if (pathname === "/premiuminfo" || pathname === "/me") return send(res, 200, premiumBody);
    if (pathname === "/jwks") return send(res, 200, jwksBody);
    return send(res, 200, metadataBody);
  });
}).listen(port, "127.0.0.1");
