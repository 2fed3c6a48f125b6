import { config } from 'zod';

// zod compiles fast object parsers with `new Function` once it has probed that eval works,
// and the probe alone is refused (and reported) by the site's Content-Security-Policy, which
// runs no eval. Imported first by start.tsx, before any schema is built.
config({ jitless: true });
