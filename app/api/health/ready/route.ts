// Placeholder of the console foundation commit (issue 22): the observability streams write this endpoint.
export const GET = async (): Promise<Response> => new Response("Not Found", { status: 404 });
export const dynamic = "force-dynamic";
