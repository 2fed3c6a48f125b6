import type { NextFunction, Request, Response } from 'express';
import { defaultMessage } from './error-body';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
}

/**
 * Body-parser failures happen before Nest routes the request, so Nest's exception filter
 * never sees them. This error handler sits right after the parsers and answers in the
 * same error body: malformed JSON is a 400, an oversize body a 413, never a 500.
 */
export function bodyErrorsMiddleware(error: BodyParserError, _request: Request, response: Response, next: NextFunction): void {
  if (response.headersSent) return next(error);
  switch (error.type) {
    case 'entity.parse.failed':
      response.status(400).json({ message: 'The request body is not valid JSON.' });
      return;
    case 'entity.too.large':
      response.status(413).json({ message: `The request body is too large (limit ${error.limit} bytes).` });
      return;
    case 'encoding.unsupported':
    case 'charset.unsupported':
      response.status(415).json({ message: 'The request body uses an unsupported encoding.' });
      return;
    default:
      if (error.status && error.status < 500) {
        response.status(error.status).json({ message: defaultMessage(error.status) });
        return;
      }
      next(error);
  }
}
