/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the api lives when it is not the site's own origin, e.g. `https://api.example.com`. Empty means same origin. */
  readonly VITE_API_ORIGIN?: string;
  /** The external documentation site linked from the dashboard; the site's own /documentation when unset. */
  readonly VITE_DOCS_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
