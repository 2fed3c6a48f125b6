import { DomainError } from '../../platform/domain/domain-error';

export const userNotFound = () => new DomainError(404, 'The requested resource was not found.');
export const accountDeactivated = () => new DomainError(403, 'This account is deactivated. Contact support to reactivate it.');
export const alreadyRegistered = () => new DomainError(409, 'This account already exists.');
export const resetTokenInvalid = () =>
  new DomainError(400, 'This reset link is invalid or has expired. Please request a new one.', 'token');
