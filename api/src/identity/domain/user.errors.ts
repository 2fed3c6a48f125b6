import { conflict, forbidden, ruleBroken } from '../../platform/domain/errors';

export const accountDeactivated = () => forbidden('This account is deactivated. Contact support to reactivate it.');
export const alreadyRegistered = () => conflict('This account already exists.');
export const resetTokenInvalid = () => ruleBroken('This reset link is invalid or has expired. Please request a new one.', 'token');
