import http from "node:http";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { LeanRequest } from "@/server/lean-request";

/**
 * The lean server's request signal is made only when a handler asks for it. A client that left
 * before that (a browser reloading the prompt=mobile waiting page) must still read as gone, or its
 * long poll holds on and can win the handset's answer for a connection that no longer exists.
 */
describe("LeanRequest.signal", () => {
  it("is already aborted when the client left before the handler first asked for it", async () => {
    let seen: boolean | undefined;
    const done = new Promise<void>((resolve) => {
      const server = http.createServer((req, res) => {
        const lean = new LeanRequest(req.method!, `http://127.0.0.1${req.url}`, req, res, null);
        // The handler reaches the signal only after some work (database reads in the real handlers).
        setTimeout(() => {
          seen = lean.signal.aborted;
          res.end();
          server.close(() => resolve());
        }, 300);
      });
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as net.AddressInfo;
        const socket = net.connect(port, "127.0.0.1", () => {
          socket.write("GET /authorize/wait/x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
          setTimeout(() => socket.destroy(), 50); // the client goes away while the handler works
        });
      });
    });
    await done;
    expect(seen).toBe(true);
  });
});
