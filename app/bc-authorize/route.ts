import { jsonEndpoint } from "@/lib/http/respond";
import { handleBackchannelAuthentication } from "@/lib/ciba/handle-backchannel-authentication";

// POST {backchannel_authentication_endpoint} - OpenID Connect CIBA Core 1.0 §7 (other methods: 405 from Next.js)
export const POST = jsonEndpoint("bc-authorize", handleBackchannelAuthentication);
export const dynamic = "force-dynamic";
