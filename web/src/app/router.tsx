import { createBrowserRouter } from 'react-router';
import { LandingPage } from '../features/landing/components/landing-page';

/** Every route of the customer site. Placeholder: only the landing page exists so far. */
export const router = createBrowserRouter([{ path: '/', element: <LandingPage /> }]);
