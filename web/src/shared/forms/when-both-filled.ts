/**
 * For a "must match" refinement: compare as soon as both fields hold text, even while another
 * field of the form is still wrong (zod otherwise skips object refinements until all fields pass).
 */
export function whenBothFilled(first: string, second: string) {
  return ({ value }: { value: unknown }): boolean => {
    const form = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    const a = form[first];
    const b = form[second];
    return typeof a === 'string' && typeof b === 'string' && a !== '' && b !== '';
  };
}
