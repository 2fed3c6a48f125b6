import { memo } from 'react';
import { LinkButton } from '../../../shared/ui/button';

/**
 * The closing call to action and the reassurance line under it. Memoized: the page renders
 * again when the session arrives, and for a visitor it changes nothing here.
 */
export const PricingCta = memo(function PricingCta({ signedIn }: { signedIn: boolean }) {
  return (
    <section aria-labelledby="pricing-cta-title" className="mt-20">
      <div className="rounded-3xl bg-brand-900 px-6 py-12 text-center shadow-xl sm:px-12">
        <h2 id="pricing-cta-title" className="text-3xl font-bold tracking-tight text-white">
          Ready to run AI on your own network?
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-brand-100">
          Join 1000+ businesses that keep their models, data and costs in-house.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          {signedIn ? (
            <LinkButton to="/dashboard" size="lg" className="bg-white! text-brand-900! hover:bg-brand-50!">
              Go to Dashboard
            </LinkButton>
          ) : (
            <>
              <LinkButton to="/register" size="lg" className="bg-white! text-brand-900! hover:bg-brand-50!">
                Start Free Trial
              </LinkButton>
              <LinkButton to="/contact" size="lg" variant="ghost" className="text-white! ring-1 ring-white/40 hover:bg-white/10!">
                Contact Sales
              </LinkButton>
            </>
          )}
        </div>
      </div>
      <p className="mt-8 text-center text-sm text-slate-500 dark:text-slate-400">
        No credit card required • Cancel anytime • 14-day free trial
      </p>
    </section>
  );
});
