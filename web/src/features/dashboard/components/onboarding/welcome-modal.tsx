import type { PlanInfo, UpgradeOption } from '@meshwork/contracts';
import { Download, Laptop, Network } from 'lucide-react';
import { useState } from 'react';
import { formatMoney, limitText } from '../../../../shared/format/billing-format';
import { Button } from '../../../../shared/ui/button';
import { Dialog } from '../../../../shared/ui/dialog';
import { welcomeStepCount } from './onboarding-steps';

const TITLES = ['Welcome to Meshwork!', 'Getting Started', 'Unlock More with an Upgrade'];

const GETTING_STARTED = [
  { icon: Download, title: 'Download the desktop app', text: 'Install Meshwork Desktop on the machine that will host your network.' },
  { icon: Network, title: 'Create a network', text: 'Pick a model allowed by your plan and start a network on your own hardware.' },
  { icon: Laptop, title: 'Connect client machines', text: 'Add devices to share the work; your data never leaves your network.' },
];

interface WelcomeModalProps {
  planInfo: PlanInfo;
  onSkip: () => void;
  onStartTour: () => void;
  onUpgrade: (option: UpgradeOption) => void;
}

function UpgradeStep({ options, onUpgrade }: { options: readonly UpgradeOption[]; onUpgrade: WelcomeModalProps['onUpgrade'] }) {
  return (
    <ul className="space-y-3">
      {options.map((option) => (
        <li key={option.slug} className="rounded-xl border border-slate-200 p-4 dark:border-slate-700">
          <div className="flex items-center justify-between gap-4">
            <p className="font-semibold text-slate-900 dark:text-white">{option.name}</p>
            <p className="text-sm text-slate-600 dark:text-slate-400">{formatMoney(option.upgrade_price)}/month</p>
          </div>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {limitText(option.max_networks, 'network')}, {limitText(option.max_clients_per_network, 'client')} per network
            {option.benefits.length > 0 && `, ${option.benefits.join(', ')}`}
          </p>
          <Button size="sm" className="mt-3" onClick={() => onUpgrade(option)}>
            Upgrade to {option.name}
          </Button>
        </li>
      ))}
    </ul>
  );
}

/** The first-visit welcome: two steps, three when an upgrade is on offer. Closing it skips the onboarding. */
export function WelcomeModal({ planInfo, onSkip, onStartTour, onUpgrade }: WelcomeModalProps) {
  const [step, setStep] = useState(0);
  const stepCount = welcomeStepCount(planInfo);
  const isLast = step === stepCount - 1;

  return (
    <Dialog title={TITLES[step]} description={`Step ${step + 1} of ${stepCount}`} onClose={onSkip}>
      {step === 0 && (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Meshwork runs large language models across your own devices. You are on the{' '}
          <strong className="text-slate-900 dark:text-white">{planInfo.plan_name}</strong> plan: a short tour shows what it includes.
        </p>
      )}
      {step === 1 && (
        <ol className="space-y-4">
          {GETTING_STARTED.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-3">
              <Icon className="mt-0.5 size-5 shrink-0 text-brand-600 dark:text-brand-400" aria-hidden />
              <div>
                <p className="font-medium text-slate-900 dark:text-white">{title}</p>
                <p className="text-sm text-slate-600 dark:text-slate-400">{text}</p>
              </div>
            </li>
          ))}
        </ol>
      )}
      {step === 2 && <UpgradeStep options={planInfo.plan_transitions.available_upgrades} onUpgrade={onUpgrade} />}
      <div className="mt-6 flex items-center justify-between gap-3">
        <Button variant="ghost" onClick={onSkip}>
          Skip Tour
        </Button>
        <div className="flex gap-3">
          {step > 0 && (
            <Button variant="secondary" onClick={() => setStep(step - 1)}>
              Back
            </Button>
          )}
          <Button onClick={isLast ? onStartTour : () => setStep(step + 1)}>{isLast ? 'Start Tour' : 'Next'}</Button>
        </div>
      </div>
    </Dialog>
  );
}
