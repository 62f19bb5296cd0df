import { jsonEndpoint } from "@/lib/http/respond";
import { handleTokenRequest } from "@/lib/oauth/token/handle-token-request";

// POST {token_endpoint} - RFC 6749 §3.2 (other methods: 405 from Next.js)
export const POST = jsonEndpoint("token", handleTokenRequest);
export const dynamic = "force-dynamic";
