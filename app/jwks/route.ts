import { getKeys } from "@/lib/keys/key-store";
import { jsonEndpoint } from "@/lib/http/respond";

// GET {jwks_uri} - RFC 7517: public keys: signing (next, active, still-valid retired) and the
// `enc` key relying parties use to build ENCR_MSISDN login hints
export const GET = jsonEndpoint("jwks", async () => {
  const keys = (await getKeys()).map((k) => k.publicJwk);
  return new Response(JSON.stringify({ keys }), {
    headers: { "Content-Type": "application/jwk-set+json", "Cache-Control": "public, max-age=60",
      "Access-Control-Allow-Origin": "*" },
  });
});
export const dynamic = "force-dynamic";
