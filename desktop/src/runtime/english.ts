import type { HostLinkFailure, HostRefusalReason, HostServingReason, HostTrustProblem, LanRefusal, LanRemoval } from '@meshwork/contracts';

/*
 * The runtime's codes in English, for the readers that are programs: the OpenAI-compatible
 * api's errors, the LAN protocol's replies, the control server's error `message` and the log. The window words the same codes itself,
 * in the person's language (desktop/ui/src/messages.ts); a test holds the two English texts equal.
 */

export function trustWords(problem: HostTrustProblem): string {
  switch (problem.code) {
    case 'clock_went_back':
      return (
        "This computer's clock reads earlier than a time Meshwork already saw on it, so its plan cannot be trusted offline. " +
        'Set the date and time right: models are served again once it reconnects to Meshwork.'
      );
    case 'plan_unverifiable': {
      const what = `This device cannot verify its plan from Meshwork (${problem.detail}), so it does not serve models`;
      if (problem.advice === 'check_clock') return `${what}. Check this computer's date and time.`;
      if (problem.advice === 'reinstall') return `${what}. Install Meshwork again from your site to get its current keys.`;
      return `${what}.`;
    }
  }
}

export function servingWords(reason: HostServingReason): string {
  switch (reason.code) {
    case 'signed_out':
      return 'Sign in to serve models.';
    case 'untrusted':
      return trustWords(reason.problem);
    case 'awaiting_plan':
      return 'Waiting for this device’s plan from Meshwork.';
    case 'plan_expired':
      return `This device could not confirm its plan with Meshwork since ${reason.since} and its offline grace has ended. Models are served again as soon as it reconnects.`;
  }
}

export function linkFailureWords(failure: HostLinkFailure): string {
  switch (failure.code) {
    case 'unreachable':
    case 'device_error':
      return failure.detail;
    case 'connection_failed':
      return `The device's connection failed: ${failure.detail}`;
    case 'disconnected':
      return 'The device disconnected.';
    case 'stopped_answering':
      return 'The device stopped answering.';
    case 'no_answer_within':
      return `The device did not answer within ${failure.seconds} s.`;
    case 'no_answer_in_time':
      return 'The device did not answer in time.';
    case 'closed':
      return 'The link was closed.';
    case 'frame_too_large':
      return 'The device sent a frame over the limits.';
    case 'broke_protocol':
      return `The device broke the protocol: ${failure.detail}`;
    case 'wrong_size':
      return 'The device answered with the wrong size.';
    case 'not_the_host':
      return 'the device at that address is not this network’s host';
    case 'not_welcomed':
      return 'the host did not welcome this device';
  }
}

/** A host's refusal over the LAN, in English (the window words it in its own language). */
export function lanRefusalWords(reason: LanRefusal): string {
  switch (reason.code) {
    case 'hosts_no_network':
      return 'This device hosts no network.';
    case 'hello_first':
      return 'Say who you are first.';
    case 'plan_unconfirmed':
      return `This device’s plan could not be confirmed: ${reason.detail}`;
    case 'other_account':
      return 'Only devices of the same Meshwork account can join this network.';
    case 'not_a_member':
      return 'This device is not a member of the network: join it with the code.';
    case 'awaiting_confirmation':
      return 'Meshwork has not confirmed this network yet; try again in a moment.';
    case 'suspended':
      return 'This network is suspended.';
    case 'code_overused':
      return 'This join code was tried too many times: issue a new one on the host.';
    case 'code_invalid':
      return 'This join code is invalid or has expired.';
    case 'client_limit':
      return `Your ${reason.plan} plan allows ${reason.max_clients} client${reason.max_clients === 1 ? '' : 's'} per network. Upgrade to add more.`;
  }
}

/** Why this device is no longer in a network, in English (the window words it in its own language). */
export function lanRemovalWords(reason: LanRemoval): string {
  switch (reason.code) {
    case 'removed_by_host':
      return 'The network’s host removed this device.';
    case 'host_stopped':
      return 'The host stopped hosting this network.';
    case 'client_limit':
      return `Your plan now allows ${reason.max_clients} client${reason.max_clients === 1 ? '' : 's'} per network: this device was disconnected.`;
    case 'network_ended':
      return 'Meshwork took this device out of the network: it was deleted, this device was removed from it, or your plan now allows fewer clients.';
  }
}

export function refusalWords(refusal: HostRefusalReason): string {
  switch (refusal.code) {
    case 'sign_in_first':
      return 'Sign in first.';
    case 'sign_in_to_download':
      return 'Sign in to download models.';
    case 'not_in_plan':
      return `Your plan does not include the model "${refusal.model}".`;
    case 'model_store_failed':
    case 'api_refused':
      return refusal.detail;
    case 'host_refused':
      return lanRefusalWords(refusal.reason);
    case 'already_in_network':
      return 'This device is already in a network: leave it first.';
    case 'awaiting_plan':
      return 'Waiting for this device’s plan from Meshwork.';
    case 'only_host_issues_codes':
      return 'Only the network’s host issues join codes.';
    case 'only_host_removes':
      return 'Only the network’s host removes devices.';
    case 'not_a_member':
      return 'That device is not in this network.';
    case 'several_hosts_announce':
      return 'Several devices announce this network: choose the one whose certificate its host’s window shows.';
    case 'host_not_vouched':
      return 'The device at that address is not this network’s host: Meshwork names another certificate for it. Join the entry marked verified.';
    case 'network_not_on_lan':
      return 'This network is not on this LAN now. Enter its host’s address as its window shows it.';
    case 'code_for_another_network':
      return 'This code is for another network.';
    case 'host_unreachable_at':
      return `The network’s host cannot be reached at ${refusal.address}: ${linkFailureWords(refusal.failure)}`;
    case 'not_the_host':
      return 'The device at that address is not this network’s host.';
    case 'host_did_not_answer':
      return `The host did not answer: ${linkFailureWords(refusal.failure)}`;
    case 'wrong_code':
      return 'This join code is wrong, or the device at that address is not this network’s host.';
    case 'not_admitted':
      return 'The host did not admit this device.';
  }
}
