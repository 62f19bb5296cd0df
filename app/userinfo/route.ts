import { jsonEndpoint } from "@/lib/http/respond";
import { handleUserinfo } from "@/lib/oauth/resource/handle-userinfo";

// GET|POST {userinfo_endpoint} - OIDC Core §5.3
export const GET = jsonEndpoint("userinfo", handleUserinfo);
export const POST = GET;
export const dynamic = "force-dynamic";
