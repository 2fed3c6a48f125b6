import type { Decider } from '../../platform/domain/decider';

export interface PreferencesState {
  onboardingCompleted: boolean;
  showOnboarding: boolean;
}

export type PreferencesCommand = { type: 'UpdatePreferences'; at: Date; onboardingCompleted?: boolean; showOnboarding?: boolean };
export type PreferencesEvent = { type: 'PreferencesUpdated'; data: { onboardingCompleted?: boolean; showOnboarding?: boolean } };

/** A user's dashboard preferences: whether the onboarding is done, or asked for again. */
export const preferencesDecider: Decider<PreferencesCommand, PreferencesEvent, PreferencesState> = {
  initialState: () => ({ onboardingCompleted: false, showOnboarding: false }),
  decide(command, state) {
    const data: PreferencesEvent['data'] = {};
    if (command.onboardingCompleted !== undefined && command.onboardingCompleted !== state.onboardingCompleted)
      data.onboardingCompleted = command.onboardingCompleted;
    if (command.showOnboarding !== undefined && command.showOnboarding !== state.showOnboarding)
      data.showOnboarding = command.showOnboarding;
    return Object.keys(data).length === 0 ? [] : [{ type: 'PreferencesUpdated', data }];
  },
  evolve(state, event) {
    return { ...state, ...event.data };
  },
};
