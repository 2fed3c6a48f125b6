import { given } from '../../platform/testing/given-when-then';
import { preferencesDecider } from './preferences.decider';

const at = new Date('2026-03-01T10:00:00Z');

describe('preferences decider', () => {
  it('records only what changes', () => {
    given(preferencesDecider)
      .when({ type: 'UpdatePreferences', at, onboardingCompleted: true, showOnboarding: false })
      .then([{ type: 'PreferencesUpdated', data: { onboardingCompleted: true } }]);
    given(preferencesDecider, [{ type: 'PreferencesUpdated', data: { onboardingCompleted: true } }])
      .when({ type: 'UpdatePreferences', at, onboardingCompleted: true })
      .then([]);
  });

  it('asks for the tour again without forgetting it was completed', () => {
    const state = given(preferencesDecider, [{ type: 'PreferencesUpdated', data: { onboardingCompleted: true } }])
      .when({ type: 'UpdatePreferences', at, showOnboarding: true })
      .thenState();
    expect(state).toEqual({ onboardingCompleted: true, showOnboarding: true });
  });
});
