/** The union's types the list leaves out: `unknown` when none, else a property the list lacks. */
type Unlisted<Type extends string, List extends readonly Type[]> = [Exclude<Type, List[number]>] extends [never]
  ? unknown
  : { unlisted: Exclude<Type, List[number]> };

/**
 * A context's stored event type names as an `as const` list, checked at compile time against
 * its event union: a type the union lacks, or one the list leaves out, fails to compile. So a
 * consumer that spreads the list into its `handles` sees every event the owner may store.
 *
 * `export const MODEL_EVENT_TYPES = eventTypesOf<ModelEvent>()(['ModelUploadStarted', ...]);`
 */
export const eventTypesOf =
  <Event extends { type: string }>() =>
  <const List extends readonly Event['type'][]>(types: List & Unlisted<Event['type'], List>): List =>
    types;
