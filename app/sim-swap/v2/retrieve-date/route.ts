import { handleSimSwapRetrieveDate } from "@/lib/network-apis/sim-swap/retrieve-date";

// POST /sim-swap/v2/retrieve-date (CAMARA, docs/network-apis.md; other methods: 405 from Next.js)
export const POST = handleSimSwapRetrieveDate;
export const dynamic = "force-dynamic";
