import { type Decider, type DomainEvent, unreachable } from '../../platform/domain/decider';

/** Stream `consoleerror-<error id>`: one crash of a console screen, on the record with its reporter as actor. */
export type ConsoleErrorEvent = DomainEvent<
  'ConsoleErrorReported',
  { errorId: string; screen: string; message: string; stack: string; url: string }
>;

export type ConsoleErrorCommand = { type: 'ReportConsoleError'; at: Date } & ConsoleErrorEvent['data'];

export type ConsoleErrorState = { reported: boolean };

/** A crash is reported once: a boundary that sends its report twice (a retry) adds nothing. */
export const consoleErrorDecider: Decider<ConsoleErrorCommand, ConsoleErrorEvent, ConsoleErrorState> = {
  initialState: () => ({ reported: false }),

  decide(command, state) {
    switch (command.type) {
      case 'ReportConsoleError': {
        if (state.reported) return [];
        const { errorId, screen, message, stack, url } = command;
        return [{ type: 'ConsoleErrorReported', data: { errorId, screen, message, stack, url } }];
      }
      default:
        return unreachable(command.type);
    }
  },

  evolve(_state, event) {
    switch (event.type) {
      case 'ConsoleErrorReported':
        return { reported: true };
      default:
        return unreachable(event.type);
    }
  },
};
