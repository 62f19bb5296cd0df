import http from "node:http";

/**
 * One HTTP request sent from a chosen local address (`localAddress`, e.g. 127.0.0.x: every 127.0.0.0/8 address
 * reaches a server on 127.0.0.1, and the server sees a distinct client) and, when given, source port; never follows
 * redirects; a fetch-like Response. No test-runner imports: Playwright fixtures use it too.
 */
export function requestFrom(url: string | URL, { method = "GET", headers, body, from, port }: {
  method?: string; headers?: Record<string, string>; body?: string; from: string; port?: number;
}): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(url), { method, headers, agent: false, localAddress: from,
      ...(port ? { localPort: port } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const out = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) out.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        const status = res.statusCode ?? 500;
        resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: out }));
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
