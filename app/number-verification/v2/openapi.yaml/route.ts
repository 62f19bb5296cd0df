import { openApiDocumentHandler } from "@/lib/network-apis/openapi-document";

// GET /number-verification/v2/openapi.yaml: the API's published OpenAPI definition (docs/network-apis.md)
export const GET = openApiDocumentHandler("number-verification");
export const dynamic = "force-dynamic";
