import { jsonEndpoint } from "@/lib/http/respond";
import { handlePushedAuthorizationRequest } from "@/lib/oauth/par/handle-pushed-request";

// POST {pushed_authorization_request_endpoint} - RFC 9126 §2 (other methods: 405 from Next.js)
export const POST = jsonEndpoint("par", handlePushedAuthorizationRequest);
export const dynamic = "force-dynamic";
