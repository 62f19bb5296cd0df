/**
 * A two-worker cluster run by server/cluster.ts's primary, for lib/cluster/broadcast.test.ts: worker 2 broadcasts
 * "fixture-topic" with data until worker 1 says it heard it; each worker prints what it hears. Run with tsx.
 */
import cluster from "node:cluster";
import http from "node:http";
import { broadcast, onBroadcast } from "./broadcast";
import { runPrimary } from "../../server/cluster";

const port = Number(process.env.PORT);
if (cluster.isPrimary) {
  runPrimary(2, { host: "127.0.0.1", port });
} else {
  const me = process.env.OIS_WORKER;
  onBroadcast("fixture-topic", (data) => console.log(`worker ${me} heard fixture-topic ${JSON.stringify(data)}`));
  onBroadcast("other-topic", () => console.log(`worker ${me} heard other-topic`));
  // Worker 1 answers the test's GET (which tells whether it heard); worker 2 keeps broadcasting.
  http.createServer((_req, res) => res.end("ok")).listen(port, "127.0.0.1");
  if (me === "2") {
    const timer = setInterval(() => broadcast("fixture-topic", { from: 2 }), 100);
    onBroadcast("heard", () => { clearInterval(timer); console.log("worker 2 stopped broadcasting"); });
  } else {
    let told = false;
    onBroadcast("fixture-topic", () => { if (!told) { told = true; broadcast("heard"); } });
  }
  broadcast("nobody-listens"); // relayed and ignored
}
