import { RouterProvider } from 'react-router';
import { router } from './router';

/** The customer site: composes the features; features never import each other. */
export function App() {
  return <RouterProvider router={router} />;
}
