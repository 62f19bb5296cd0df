// The load client's HTTP layer: node:http with a keep-alive Agent holding a fixed number of sockets
// (one per worker), no redirects followed, bodies read as strings. Deliberately thinner than fetch:
// the client's own CPU cost is part of what every figure measures (run.mjs reports it per point).
import http from "node:http";

/**
 * A keep-alive HTTP client bound to one origin (`http://host:port`); `localAddress` is the address its sockets
 * connect from (Number Verification: a loopback address the server maps to a subscriber's data connection).
 */
export function createHttpClient(origin, { sockets, localAddress }) {
  const { hostname, port } = new URL(origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets, scheduling: "fifo" });
  function request(method, path, { headers = {}, body } = {}) {
    return new Promise((resolve, reject) => {
      const h = body === undefined ? headers : { ...headers, "content-length": Buffer.byteLength(body) };
      const req = http.request({ agent, host: hostname, port, method, path, headers: h, ...(localAddress ? { localAddress } : {}) }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const raw = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
          resolve({ status: res.statusCode, headers: res.headers, rawHeaders: res.rawHeaders, raw, text: () => raw.toString("utf8") });
        });
        res.on("error", reject);
      });
      req.on("error", reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  }
  return { request, close: () => agent.destroy() };
}

/** `Basic base64(id:secret)`, both parts form-encoded (RFC 6749 §2.3.1). */
export function basicAuth(id, secret) {
  const enc = (s) => encodeURIComponent(s).replace(/%20/g, "+");
  return `Basic ${Buffer.from(`${enc(id)}:${enc(secret)}`).toString("base64")}`;
}

/** Merges Set-Cookie headers into a `name=value; ...` cookie jar string. */
export function mergeCookies(jar, setCookie) {
  const map = new Map(jar ? jar.split("; ").map((c) => [c.slice(0, c.indexOf("=")), c]) : []);
  for (const line of setCookie ?? []) {
    const pair = line.split(";")[0];
    const name = pair.slice(0, pair.indexOf("="));
    if (/expires=Thu, 01 Jan 1970/i.test(line) || pair.endsWith("=")) map.delete(name);
    else map.set(name, pair);
  }
  return [...map.values()].join("; ");
}
