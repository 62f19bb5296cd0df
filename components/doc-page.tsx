/** A plain document page (policy, terms, documentation): server-rendered, no client script needed. */
export function DocPage({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="mx-auto max-w-2xl p-6">
      <h1 className="mb-4 text-2xl font-semibold">{title}</h1>
      <div className="space-y-3 leading-relaxed">{children}</div>
      <p className="mt-8 text-sm"><a className="underline" href="/">Operator Identity</a></p>
    </main>
  );
}
