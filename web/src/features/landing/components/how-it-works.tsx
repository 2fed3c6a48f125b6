import { ArrowRight } from 'lucide-react';
import { LinkButton } from '../../../shared/ui/button';
import { SectionHeading } from '../../../shared/ui/section-heading';

const steps = [
  { title: 'Create your account', body: 'Sign up in a minute and start on the free plan.' },
  {
    title: 'Download the desktop app',
    body: 'Install the Meshwork app on Windows or Linux, and it downloads the models your plan includes.',
  },
  { title: 'Create a network', body: 'Start a private network on your host machine and pick the model it serves.' },
  { title: 'Connect your devices', body: 'Join other computers as clients. They share the work, and your team gets answers locally.' },
];

export function HowItWorks() {
  return (
    <section aria-labelledby="how-it-works-title" className="py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="how-it-works-title" eyebrow="How it Works" title="From sign-up to private AI in four steps" />
        <ol className="mt-14 grid gap-8 md:grid-cols-4">
          {steps.map((step, index) => (
            <li key={step.title} className="relative">
              <span className="flex size-10 items-center justify-center rounded-full border-2 border-brand-500 text-sm font-bold text-brand-700 dark:text-brand-300">
                {index + 1}
              </span>
              <h3 className="mt-4 font-semibold text-slate-900 dark:text-white">{step.title}</h3>
              <p className="mt-2 text-sm leading-6 text-slate-600 dark:text-slate-400">{step.body}</p>
            </li>
          ))}
        </ol>
        <div className="mt-12 text-center">
          <LinkButton to="/register" size="lg">
            Get Started Now <ArrowRight className="size-4" aria-hidden />
          </LinkButton>
        </div>
      </div>
    </section>
  );
}
