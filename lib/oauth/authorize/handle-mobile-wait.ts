import { runPipeline } from "./pipeline";

/**
 * GET /authorize/wait/{id}: where a `prompt=mobile` request waits for the handset (the waiting page
 * reloads itself here): the pipeline's `wait` steps (pipeline.ts). Bound to the browser that made
 * the request, like /authorize/resume/{id}.
 */
export function handleMobileWait(req: Request, { id }: { id: string }): Promise<Response> {
  return runPipeline("wait", req, id);
}
