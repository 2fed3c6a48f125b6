import { Download } from 'lucide-react';
import { LinkButton } from '../../../shared/ui/button';

export function ClosingCta() {
  return (
    <section aria-labelledby="closing-cta-title" className="px-4 pb-20 sm:px-6 lg:px-8">
      <div className="mx-auto max-w-5xl overflow-hidden rounded-3xl bg-brand-900 px-6 py-14 text-center shadow-xl sm:px-12">
        <h2 id="closing-cta-title" className="text-3xl font-bold tracking-tight text-white sm:text-4xl">
          Ready to run AI on your own terms?
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-brand-100">
          Join 1000+ businesses keeping their data in-house. Try it free: no credit card required.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <LinkButton to="/register" size="lg" className="bg-white! text-brand-900! hover:bg-brand-50!">
            Create Free Account
          </LinkButton>
          <LinkButton to="/download" size="lg" variant="ghost" className="text-white! ring-1 ring-white/40 hover:bg-white/10!">
            <Download className="size-4" aria-hidden /> Download App
          </LinkButton>
        </div>
      </div>
    </section>
  );
}
