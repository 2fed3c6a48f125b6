import { conflict, forbidden, ruleBroken } from '../../platform/domain/errors';

export const accountDeactivated = () => forbidden('This account is deactivated. Contact support to reactivate it.');
export const alreadyRegistered = () => conflict('This account already exists.');
export const resetTokenInvalid = () => ruleBroken('This reset link is invalid or has expired. Please request a new one.', 'token');
/** An auditor is read-only staff: giving them staff rights too would make the flag meaningless. */
export const staffOrAuditor = () => ruleBroken('A user is either staff or an auditor, not both.', 'is_auditor');
