import { ArrowRight, Download, Sparkles } from 'lucide-react';
import { LinkButton } from '../../../shared/ui/button';
import { MeshIllustration } from './mesh-illustration';

export function Hero() {
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden">
      <div
        aria-hidden
        className="pointer-events-none absolute inset-0 -z-10 bg-[radial-gradient(ellipse_at_top,var(--color-brand-100),transparent_60%)] dark:bg-[radial-gradient(ellipse_at_top,rgb(14_165_233/0.18),transparent_60%)]"
      />
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 pt-16 pb-20 sm:px-6 lg:grid-cols-2 lg:px-8 lg:pt-24">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-brand-200 bg-white/70 px-3 py-1 text-sm font-medium text-brand-700 dark:border-brand-900 dark:bg-slate-900/70 dark:text-brand-300">
            <Sparkles className="size-4" aria-hidden />
            Trusted by 1000+ businesses worldwide
          </p>
          <h1 id="hero-title" className="mt-6 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl lg:text-6xl dark:text-white">
            Run powerful AI on <span className="text-brand-600 dark:text-brand-400">your own devices</span>
          </h1>
          <p className="mt-6 max-w-xl text-lg text-slate-600 dark:text-slate-400">
            Meshwork joins the computers you already own into one private AI network. Your data never leaves your local network, everything
            works offline, and every device you add gives you more AI power.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <LinkButton to="/register" size="lg">
              Start Free Trial <ArrowRight className="size-4" aria-hidden />
            </LinkButton>
            <LinkButton to="/download" size="lg" variant="secondary">
              <Download className="size-4" aria-hidden /> Download App
            </LinkButton>
          </div>
          <p className="mt-4 text-sm text-slate-500 dark:text-slate-400">No credit card required • Free trial • Desktop app for Windows</p>
        </div>
        <MeshIllustration />
      </div>
    </section>
  );
}
