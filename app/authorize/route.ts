import { handleAuthorize } from "@/lib/oauth/authorize/handle-authorize";

// GET | POST {authorization_endpoint} - OIDC Core §3.1.2.1 (POST form-encoded, §3.1.2.1)
export const GET = (req: Request) => handleAuthorize(req);
export const POST = (req: Request) => handleAuthorize(req);
export const dynamic = "force-dynamic";
