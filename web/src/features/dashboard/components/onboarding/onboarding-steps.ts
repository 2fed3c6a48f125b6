import { type PlanInfo, type Preferences, UNLIMITED } from '@meshwork/contracts';
import { limitText } from '../../../../shared/format/billing-format';

/** Shown until finished or skipped once, and again whenever Take Tour asks for it. */
export function shouldShowOnboarding(preferences: Preferences): boolean {
  return !preferences.onboarding_completed || preferences.show_onboarding;
}

/** Welcome and Getting Started, plus an upgrade step when the plan has somewhere to go. */
export function welcomeStepCount(planInfo: Pick<PlanInfo, 'plan_transitions'>): number {
  return planInfo.plan_transitions.available_upgrades.length > 0 ? 3 : 2;
}

export type TourStatus = 'available' | 'limited' | 'upgrade' | 'info';

export interface TourFeature {
  title: string;
  description: string;
  status: TourStatus;
}

/** The Plan Features Tour, worded from the user's own limits (a free plan reads "1 network"). */
export function tourFeatures(planInfo: PlanInfo): TourFeature[] {
  const { max_networks: networks, max_clients_per_network: clients } = planInfo.permissions;
  const models = planInfo.available_models.length;
  const upgrades = planInfo.plan_transitions.available_upgrades;
  const plan = planInfo.plan_name;

  const features: TourFeature[] = [
    {
      title: 'Network Creation',
      description:
        networks >= UNLIMITED
          ? `Your ${plan} plan lets you create as many networks as you need.`
          : `Your ${plan} plan lets you create ${limitText(networks, 'network')}.`,
      status: networks >= UNLIMITED ? 'available' : 'limited',
    },
    {
      title: 'Client Connections',
      description:
        clients >= UNLIMITED
          ? 'Connect as many client machines as you need to each network.'
          : `Connect up to ${limitText(clients, 'client machine')} to each network.`,
      status: clients >= UNLIMITED ? 'available' : 'limited',
    },
    {
      title: 'AI Model Access',
      description:
        models > 0
          ? `${models} AI ${models === 1 ? 'model is' : 'models are'} ready to download on your plan.`
          : 'No AI models are included in your plan yet.',
      status: models > 0 ? 'available' : upgrades.length > 0 ? 'upgrade' : 'info',
    },
    {
      title: 'Plan Limitations',
      description: `${plan}: ${limitText(networks, 'network')}, ${limitText(clients, 'client')} per network, ${limitText(models, 'model')}${
        planInfo.download_info.download_access ? '' : ', no desktop app download'
      }.`,
      status: 'info',
    },
  ];
  if (upgrades.length > 0)
    features.push({
      title: 'Upgrade Options',
      description: `Upgrade to ${upgrades.map((u) => u.name).join(' or ')} for more networks, clients and models.`,
      status: 'upgrade',
    });
  return features;
}
