// Node.js (V8) flags of the production server, wherever it is started: `npm start`, the test servers
// and the benchmark. A young generation of 16–32 MB per semi-space instead of V8's default (up to 16):
// half as many scavenges under load (~13 → ~7 per second at 1,500 full flows/s), each pausing every
// request in flight. Measured side by side at concurrency 8 (8 paired rounds): p99 per full flow
// 11.4 vs 13.0 ms, lower in every round, 5.8 % more flows/s; the cost is up to ~48 MB more memory.
// V8 reads them at start only (v8.setFlagsFromString later has no effect on the heap's layout).
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=32", "--min-semi-space-size=16"];
