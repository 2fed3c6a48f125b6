import type { NewEvent } from '@meshwork/contracts';
import { assertStorable } from '../../platform/domain/storable-event';
import { WrongExpectedVersionError } from '../../platform/event-store/event-store.errors';
import { currentEventMetadata } from '../../platform/event-store/event-metadata';
import type { EventStore } from '../../platform/event-store/event-store.port';
import { EVENT_UPCASTERS } from '../../platform/event-store/upcasters';
import { type InvoiceSeriesCommand, invoiceSeriesDecider } from '../domain/invoice-series.decider';
import { paymentIdFor } from './billing-context';

/** How often a writer decides again after another took the number it meant to give. */
const ATTEMPTS = 5;

/** The id of a source's InvoiceIssued event: the same on every attempt, by any process. */
export const invoiceEventId = (source: string) => paymentIdFor('invoice-issued', source);

/**
 * Issues into a numbering series at a cost that does not grow with the series: the state is
 * the stream's version (es_streams' row, one event per number), never its events.
 *
 * Once per source: the event's id is derived from the source, and event ids are unique in the
 * log, checked in the same statement that takes the number. A second attempt for a source,
 * concurrent or after a crash, either finds its event there (the store answers "already
 * appended": nothing is written, no number is used) or, when it raced past the first one's
 * version check, fails on the id and rolls back whole, so no number is skipped. A source's
 * series is fixed by the log (the year of its payment or refund), so its event can only be
 * in that one stream.
 */
export class InvoiceSeries {
  constructor(private readonly store: EventStore) {}

  streamId(series: string): string {
    return `invoices-${series}`;
  }

  /** Appends the source's invoice with the next number; false when it was issued already. */
  async issue(command: InvoiceSeriesCommand): Promise<boolean> {
    const streamId = this.streamId(command.series);
    for (let attempt = 1; ; attempt++) {
      const version = await this.store.streamVersion(streamId);
      const [event] = invoiceSeriesDecider.decide(command, { issued: version });
      assertStorable(event!.data);
      const stored: NewEvent = {
        eventId: invoiceEventId(command.source),
        type: event!.type,
        schemaVersion: EVENT_UPCASTERS.latestVersion(event!.type),
        occurredAt: new Date(),
        data: event!.data,
        metadata: currentEventMetadata(),
      };
      try {
        return !(await this.store.append(streamId, [stored], version)).alreadyAppended;
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError) || attempt >= ATTEMPTS) throw error;
      }
    }
  }
}
