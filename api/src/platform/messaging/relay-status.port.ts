/**
 * What health and the staff console need of the Kafka relay. The relay may run in this
 * process or in a projections worker; either way it keeps its state where every log
 * consumer does (checkpoint, advisory lock, failure record: see consumerStatus), under its
 * consumer name. So the one thing a reader needs is that name, and whether there is a relay.
 */
export interface RelayStatus {
  /** The relay's log-consumer name while this deployment relays the log to Kafka; null when Kafka is off. */
  readonly consumerName: string | null;
}

export const RELAY_STATUS = Symbol('RelayStatus');
