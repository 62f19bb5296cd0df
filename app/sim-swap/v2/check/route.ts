import { handleSimSwapCheck } from "@/lib/network-apis/sim-swap/check";

// POST /sim-swap/v2/check (CAMARA, docs/network-apis.md; other methods: 405 from Next.js)
export const POST = handleSimSwapCheck;
export const dynamic = "force-dynamic";
