/**
 * What react-admin gets when it imports 'react-router-dom' (an alias in vite.config.ts): all of
 * react-router but its data router. react-admin builds a hash router of its own only when no
 * router surrounds it, and the console always gives it one (<BrowserRouter> in app.tsx); left
 * in, that unused router and all it imports would be 18 KB of the console's first-load script.
 */
export * from 'react-router';

const ownRouter = (): never => {
  throw new Error('react-admin must use the console’s router (app.tsx), never make its own.');
};

export const createHashRouter = ownRouter;
export const RouterProvider = ownRouter;
