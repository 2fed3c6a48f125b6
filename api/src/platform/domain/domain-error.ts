/**
 * A rule of the domain said no. Carries its HTTP status, the message the user sees, and
 * optionally which field it is about; the exception filter turns it into the error body.
 */
export class DomainError extends Error {
  constructor(
    readonly httpStatus: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
