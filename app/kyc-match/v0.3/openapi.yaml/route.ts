import { openApiDocumentHandler } from "@/lib/network-apis/openapi-document";

// GET /kyc-match/v0.3/openapi.yaml: the API's published OpenAPI definition (docs/network-apis.md)
export const GET = openApiDocumentHandler("kyc-match");
export const dynamic = "force-dynamic";
