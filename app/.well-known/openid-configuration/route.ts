import { config } from "@/lib/config";
import { providerMetadata } from "@/lib/oauth/discovery";
import { jsonEndpoint } from "@/lib/http/respond";

let body: string | undefined;

// GET {issuer}/.well-known/openid-configuration - OIDC Discovery 1.0 §4
export const GET = jsonEndpoint("discovery", async () => {
  body ??= JSON.stringify(providerMetadata(config().ISSUER));
  return new Response(body, {
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300",
      "Access-Control-Allow-Origin": "*" },
  });
});
export const dynamic = "force-dynamic";
