type Catalogue = { [key: string]: string | Catalogue };

/** Deep merge, later catalogues winning: a key missing in one language falls back to the one before. */
export function mergeCatalogues(...catalogues: object[]): Catalogue {
  const result: Catalogue = {};
  for (const catalogue of catalogues) {
    for (const [key, value] of Object.entries(catalogue) as [string, string | Catalogue][]) {
      const previous = result[key];
      result[key] = typeof value === 'object' && typeof previous === 'object' ? mergeCatalogues(previous, value) : value;
    }
  }
  return result;
}
