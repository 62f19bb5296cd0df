import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientDocumentError, ClientUrlRefusedError, fetchClientDocument } from "./fetch-client-document";

/** The POST mode (back-channel logout of dynamically registered clients) against a local server. */
interface Seen {
  method: string | undefined; path: string; contentType: string | undefined; cacheControl: string | undefined;
  body: string;
}
const seen: Seen[] = [];
let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => { body += c.toString(); });
    req.on("end", () => {
      const path = req.url ?? "";
      seen.push({ method: req.method, path, contentType: req.headers["content-type"],
        cacheControl: req.headers["cache-control"], body });
      if (path === "/ok") return res.writeHead(200).end("ok");
      if (path === "/no-content") return res.writeHead(204).end();
      if (path === "/refuse") return res.writeHead(400).end();
      if (path === "/broken") return res.writeHead(503).end();
      if (path === "/redirect") return res.writeHead(307, { location: "/ok" }).end();
      if (path === "/big") return res.writeHead(200).end("x".repeat(40 * 1024));
      if (path === "/slow") return setTimeout(() => res.end("late"), 2_000);
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const post = (url: string, limits: Parameters<typeof fetchClientDocument>[1] = {}) => fetchClientDocument(url,
  { method: "POST", body: "logout_token=a.b.c", contentType: "application/x-www-form-urlencoded", allowLoopback: true,
    ...limits });
const failure = async (p: Promise<unknown>) => {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ClientDocumentError);
  return err as ClientDocumentError;
};

describe("fetchClientDocument, POST mode", () => {
  it("POSTs the body with its content type and Cache-Control: no-store, and answers the 2xx status", async () => {
    await expect(post(`${base}/ok`)).resolves.toMatchObject({ status: 200, body: "ok" });
    expect(seen.at(-1)).toEqual({ method: "POST", path: "/ok", contentType: "application/x-www-form-urlencoded",
      cacheControl: "no-store", body: "logout_token=a.b.c" });
    await expect(post(`${base}/no-content`)).resolves.toMatchObject({ status: 204, body: "" });
  });

  it("a non-2xx answer is a failure carrying the status; a redirect is not followed", async () => {
    expect((await failure(post(`${base}/refuse`))).status).toBe(400);
    expect((await failure(post(`${base}/broken`))).status).toBe(503);
    const before = seen.filter((s) => s.path === "/ok").length;
    const redirect = await failure(post(`${base}/redirect`));
    expect(redirect).toMatchObject({ status: 307, message: expect.stringMatching(/redirects are not followed/) });
    expect(seen.filter((s) => s.path === "/ok")).toHaveLength(before);
  });

  it("bounds the answer and the time", async () => {
    const big = await failure(post(`${base}/big`, { maxBytes: 16 * 1024 }));
    expect(big).toMatchObject({ status: 200, message: expect.stringMatching(/larger than 16 KiB/) });
    await expect(post(`${base}/slow`, { timeoutMs: 300 })).rejects.toThrow(/did not answer in time/);
  });

  it("the same address rules as a GET: nothing is sent to a refused URL", async () => {
    const count = seen.length;
    const port = (server.address() as AddressInfo).port;
    for (const url of [`${base}/ok`, `https://127.0.0.1:${port}/ok`, `https://localhost:${port}/ok`]) {
      await expect(post(url, { allowLoopback: false })).rejects.toBeInstanceOf(ClientUrlRefusedError);
    }
    for (const url of ["https://10.0.0.1/bc", "https://169.254.169.254/latest/meta-data", "https://[fd00::1]/bc",
      "https://[::ffff:10.0.0.1]/bc", "https://user:pw@rp.example.test/bc"]) {
      await expect(post(url)).rejects.toBeInstanceOf(ClientUrlRefusedError);
    }
    await expect(post("https://10.0.0.1/bc")).rejects.toThrow(/private, loopback or reserved/);
    expect(seen).toHaveLength(count);
  });
});
