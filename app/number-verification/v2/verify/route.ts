import { handleNumberVerificationVerify } from "@/lib/network-apis/number-verification/verify";

// POST /number-verification/v2/verify (CAMARA, docs/network-apis.md; other methods: 405 from Next.js)
export const POST = handleNumberVerificationVerify;
export const dynamic = "force-dynamic";
