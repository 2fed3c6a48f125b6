/** /pricing placeholder: the plans, toggle and comparison (spec section 2, "Pricing page") are built separately. */
export function PricingPage() {
  return (
    <div className="mx-auto max-w-4xl px-4 py-16 text-center sm:px-6 lg:px-8">
      <h1 className="text-4xl font-bold tracking-tight text-slate-900 dark:text-white">Pricing</h1>
      <p className="mt-4 text-slate-600 dark:text-slate-400">Free, Pro and Enterprise plans are coming to this page shortly.</p>
    </div>
  );
}
