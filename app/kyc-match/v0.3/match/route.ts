import { handleKycMatch } from "@/lib/network-apis/kyc-match/match";

// POST /kyc-match/v0.3/match (CAMARA, docs/network-apis.md; other methods: 405 from Next.js)
export const POST = handleKycMatch;
export const dynamic = "force-dynamic";
