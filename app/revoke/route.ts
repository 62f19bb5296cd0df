import { jsonEndpoint } from "@/lib/http/respond";
import { handleRevocation } from "@/lib/oauth/token/handle-revocation";

// POST {revocation_endpoint} - RFC 7009 §2.1
export const POST = jsonEndpoint("revoke", handleRevocation);
export const dynamic = "force-dynamic";
