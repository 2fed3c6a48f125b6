/**
 * The plain numbers of plans and money, in a module without schemas: a page that only shows
 * prices (the site's /pricing) imports these without loading the billing contract's
 * validators with them.
 */

/** Limits at or above this mean "unlimited" (the console shows 999 as unlimited). */
export const UNLIMITED = 999;

/** Annual price = 12 x monthly x 0.83 ("Save 17%"); savings shown = 12 x monthly x 0.17. */
export const ANNUAL_FACTOR = 0.83;

/** Cents to the API's money text, and back. */
export const moneyText = (cents: number) => (cents / 100).toFixed(2);
export const centsOf = (amount: number | string) => Math.round(Number(amount) * 100);
