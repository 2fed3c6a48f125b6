import { ReportConsoleErrorHandler } from './report-console-error.handler';
import { RetryProjectionHandler } from './retry-projection.handler';
import { SkipProjectionEventHandler } from './skip-projection-event.handler';

export const operationsCommandHandlers = [RetryProjectionHandler, SkipProjectionEventHandler, ReportConsoleErrorHandler];
