import type http from "node:http";

/**
 * Request metrics of server/main.ts (every request, the lean path and Next.js alike): placeholder of the
 * foundation commit; the metrics stream (issue 22) fills it in.
 */
export function countRequest(_req: http.IncomingMessage, _res: http.ServerResponse): void {}
