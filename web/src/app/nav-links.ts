/** The bar's links, in order (spec section 2, "Navigation"). */
export const primaryLinks = [
  { to: '/', label: 'Home' },
  { to: '/features', label: 'Features' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/documentation', label: 'Documentation' },
] as const;
