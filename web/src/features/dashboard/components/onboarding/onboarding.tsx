import type { PlanInfo, UpgradeOption } from '@meshwork/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { notifyFailure, notifyInfo, notifySuccess } from '../../../../shared/toast/notify';
import { useUpdatePreferences } from '../../api/update-preferences';
import { PlanTourModal } from './plan-tour-modal';
import { WelcomeModal } from './welcome-modal';

/** The welcome modal, then the Plan Features Tour (spec sections 2 and 4). Mounted only while the server says to show it. */
export function Onboarding({ planInfo }: { planInfo: PlanInfo }) {
  const [stage, setStage] = useState<'welcome' | 'tour' | 'closed'>('welcome');
  const updatePreferences = useUpdatePreferences();
  const navigate = useNavigate();

  // Completion lives on the server, per user: it follows them to every browser.
  function complete() {
    setStage('closed');
    updatePreferences.mutate(
      { onboarding_completed: true, show_onboarding: false },
      { onError: (error) => notifyFailure('Could not save your onboarding progress', error) },
    );
  }

  function skip() {
    complete();
    notifyInfo('You can always access the tour later from the help menu.');
  }

  function finish() {
    complete();
    notifySuccess("Welcome to Meshwork! You're all set to get started.");
  }

  // Leaving to upgrade counts as done: the tour would otherwise greet them again on return.
  function upgrade(option: UpgradeOption) {
    complete();
    notifyInfo(`Redirecting to upgrade to ${option.name} plan...`);
    void navigate('/pricing');
  }

  if (stage === 'welcome')
    return <WelcomeModal planInfo={planInfo} onSkip={skip} onStartTour={() => setStage('tour')} onUpgrade={upgrade} />;
  if (stage === 'tour') return <PlanTourModal planInfo={planInfo} onSkip={skip} onFinish={finish} />;
  return null;
}
