import { ArrowRight, Check, Network, PiggyBank, ShieldCheck, WifiOff, type LucideIcon } from 'lucide-react';
import { LinkButton } from '../../../shared/ui/button';

const sections: { title: string; lead: string; points: string[]; icon: LucideIcon }[] = [
  {
    title: 'Enhanced Security & Privacy',
    lead: 'Your data never leaves your local network. Models run on your machines, so prompts and documents stay under your control.',
    points: [
      'No prompts or answers sent to a cloud provider',
      'Access tied to your account and plan',
      'Fits data-residency and confidentiality rules',
    ],
    icon: ShieldCheck,
  },
  {
    title: 'Cost-Effective Solution',
    lead: 'Use the computers you already own instead of renting GPUs or paying per token. Infrastructure and operating costs go down.',
    points: ['No per-request API bills', 'Put idle office hardware to work', 'Predictable plan pricing'],
    icon: PiggyBank,
  },
  {
    title: 'Complete Offline Functionality',
    lead: 'Once the models are on your devices, the network keeps working with no internet connection at all.',
    points: ['Runs in air-gapped and remote sites', 'No outage when the internet goes down', 'Models download once, then run locally'],
    icon: WifiOff,
  },
  {
    title: 'Simple Scalability',
    lead: 'More AI power is one more device away. Connect client machines to a network and they share the work.',
    points: [
      'Add or remove devices at any time',
      'Run larger models across several machines',
      'Grow from one network to many as you upgrade',
    ],
    icon: Network,
  },
];

/** /features: the four claims of spec section 1, in detail. */
export function FeaturesPage() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
      <header className="mx-auto max-w-3xl text-center">
        <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase dark:text-brand-400">Features</p>
        <h1 className="mt-2 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl dark:text-white">
          Everything you need to run AI privately
        </h1>
        <p className="mt-5 text-lg text-slate-600 dark:text-slate-400">
          Meshwork turns the devices on your network into one AI platform: secure, affordable, offline-capable and easy to grow.
        </p>
      </header>

      <div className="mt-16 grid gap-8 md:grid-cols-2">
        {sections.map(({ title, lead, points, icon: Icon }) => (
          <section
            key={title}
            aria-label={title}
            className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm dark:border-slate-800 dark:bg-slate-900"
          >
            <span className="flex size-12 items-center justify-center rounded-xl bg-brand-50 text-brand-700 dark:bg-brand-900/60 dark:text-brand-300">
              <Icon className="size-6" aria-hidden />
            </span>
            <h2 className="mt-5 text-xl font-semibold text-slate-900 dark:text-white">{title}</h2>
            <p className="mt-3 text-slate-600 dark:text-slate-400">{lead}</p>
            <ul className="mt-5 space-y-2.5">
              {points.map((point) => (
                <li key={point} className="flex gap-2.5 text-sm text-slate-700 dark:text-slate-300">
                  <Check className="mt-0.5 size-4 shrink-0 text-emerald-500" aria-hidden />
                  {point}
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>

      <div className="mt-16 rounded-3xl bg-slate-50 px-6 py-12 text-center dark:bg-slate-900/60">
        <h2 className="text-2xl font-bold text-slate-900 dark:text-white">See it on your own network</h2>
        <p className="mt-3 text-slate-600 dark:text-slate-400">Start free: no credit card required.</p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <LinkButton to="/register" size="lg">
            Start Free Trial <ArrowRight className="size-4" aria-hidden />
          </LinkButton>
          <LinkButton to="/pricing" size="lg" variant="secondary">
            View Pricing
          </LinkButton>
        </div>
      </div>
    </div>
  );
}
