import { jsonEndpoint } from "@/lib/http/respond";
import { handlePremiumInfo } from "@/lib/oauth/resource/handle-premium-info";

// GET|POST {premiuminfo_endpoint} - the interface's premium info, RFC 6750 bearer token
export const GET = jsonEndpoint("premiuminfo", handlePremiumInfo);
export const POST = GET;
export const dynamic = "force-dynamic";
