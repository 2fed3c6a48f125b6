import { DecideActivationHandler } from './decide-activation.handler';
import { IssueDeviceCodeHandler } from './issue-device-code.handler';
import { PreviewActivationHandler } from './preview-activation.handler';
import { RecordDeviceSignInHandler } from './record-device-sign-in.handler';
import { RedeemDeviceCodeHandler } from './redeem-device-code.handler';
import { RefreshDeviceTokenHandler } from './refresh-device-token.handler';
import { RenameDeviceHandler } from './rename-device.handler';
import { ReportDeviceUsageHandler } from './report-device-usage.handler';
import { RevokeDeviceHandler } from './revoke-device.handler';

/** The device commands: the grant (code, poll, refresh, activation), sign-ins, rename, revoke. */
export const deviceCommandHandlers = [
  IssueDeviceCodeHandler,
  RedeemDeviceCodeHandler,
  RefreshDeviceTokenHandler,
  PreviewActivationHandler,
  DecideActivationHandler,
  RecordDeviceSignInHandler,
  RenameDeviceHandler,
  RevokeDeviceHandler,
  ReportDeviceUsageHandler,
];
