import { runPipeline } from "./pipeline";

/**
 * GET /authorize/resume/{id}: where the screens send the browser after each step. The pipeline's
 * `resume` steps (pipeline.ts) decide what is next with the same rules as /authorize (another
 * screen, the error redirect, or the code). Unknown ids, another browser's request and finished
 * requests get the error page (loadBoundRequest); an expired or denied one is answered to the client
 * with `access_denied`.
 */
export function handleResume(req: Request, { id }: { id: string }): Promise<Response> {
  return runPipeline("resume", req, id);
}
