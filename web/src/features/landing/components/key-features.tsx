import { Network, PiggyBank, ShieldCheck, WifiOff, type LucideIcon } from 'lucide-react';
import { IconCard } from '../../../shared/ui/icon-card';
import { SectionHeading } from '../../../shared/ui/section-heading';

const features: { title: string; body: string; icon: LucideIcon }[] = [
  {
    title: 'Your data stays local',
    body: 'Prompts, documents and answers never leave your local network. Nothing is sent to a cloud AI provider.',
    icon: ShieldCheck,
  },
  {
    title: 'Lower costs',
    body: 'Put hardware you already own to work instead of renting GPUs or paying per token: lower infrastructure and operating costs.',
    icon: PiggyBank,
  },
  {
    title: 'Works offline',
    body: 'Once your models are downloaded, the whole network runs without an internet connection.',
    icon: WifiOff,
  },
  {
    title: 'More power with every device',
    body: 'Each computer you connect adds memory and compute. Need more AI power? Add another device.',
    icon: Network,
  },
];

export function KeyFeatures() {
  return (
    <section aria-labelledby="key-features-title" className="bg-slate-50 py-20 dark:bg-slate-900/40">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="key-features-title"
          eyebrow="Why Meshwork"
          title="Key Features & Benefits"
          lead="Private, affordable AI that runs where your business already works."
        />
        <ul className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {features.map((feature) => (
            <IconCard key={feature.title} {...feature} heading="h3" />
          ))}
        </ul>
      </div>
    </section>
  );
}
