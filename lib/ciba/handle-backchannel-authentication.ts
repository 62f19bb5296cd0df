import { authenticateClient } from "../http/client-auth";
import { bodyParams } from "../http/params";
import { InvalidRequest } from "../oauth/errors";

/** POST /bc-authorize (CIBA Core §7): FOUNDATION PLACEHOLDER, replaced by the endpoint stream before merge. */
export async function handleBackchannelAuthentication(req: Request): Promise<Response> {
  const params = await bodyParams(req);
  await authenticateClient({ headers: req.headers, params, endpoint: "backchannelAuthentication" });
  throw new InvalidRequest("not built yet");
}
