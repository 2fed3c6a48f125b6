import type { RouteObject } from 'react-router';
import { LandingPage } from '../features/landing/components/landing-page';
import { PageSpinner } from '../shared/ui/spinner';
import { NotFoundPage } from './not-found-page';
import { RequireAuth } from './require-auth';
import { RootLayout } from './root-layout';
import { RouterErrorScreen } from './router-error-screen';

/**
 * Every route of the customer site (spec section 2). The landing page ships in the first
 * bundle; the others load on first visit so the forms' validation code is not paid for up front.
 * The browser (start.tsx) and the build's prerender (entry-server.tsx) both route with these.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouterErrorScreen />,
    hydrateFallbackElement: <PageSpinner />,
    children: [
      { index: true, element: <LandingPage /> },
      {
        path: 'features',
        lazy: () => import('../features/marketing/components/features-page').then((m) => ({ Component: m.FeaturesPage })),
      },
      { path: 'pricing', lazy: () => import('../features/pricing/components/pricing-page').then((m) => ({ Component: m.PricingPage })) },
      {
        path: 'documentation',
        lazy: () => import('../features/documentation/components/documentation-page').then((m) => ({ Component: m.DocumentationPage })),
      },
      {
        path: 'download',
        lazy: () => import('../features/download/components/download-page').then((m) => ({ Component: m.DownloadPage })),
      },
      {
        path: 'contact',
        lazy: () => import('../features/contact/components/contact-page').then((m) => ({ Component: m.ContactPage })),
      },
      { path: 'login', lazy: () => import('../features/auth/components/login-page').then((m) => ({ Component: m.LoginPage })) },
      { path: 'register', lazy: () => import('../features/auth/components/register-page').then((m) => ({ Component: m.RegisterPage })) },
      {
        path: 'forgot-password',
        lazy: () => import('../features/auth/components/forgot-password-page').then((m) => ({ Component: m.ForgotPasswordPage })),
      },
      {
        path: 'reset-password',
        lazy: () => import('../features/auth/components/reset-password-page').then((m) => ({ Component: m.ResetPasswordPage })),
      },
      { path: 'terms', lazy: () => import('../features/marketing/components/terms-page').then((m) => ({ Component: m.TermsPage })) },
      { path: 'privacy', lazy: () => import('../features/marketing/components/privacy-page').then((m) => ({ Component: m.PrivacyPage })) },
      {
        element: <RequireAuth />,
        children: [
          {
            path: 'dashboard',
            lazy: () => import('../features/dashboard/components/dashboard-page').then((m) => ({ Component: m.DashboardPage })),
          },
          {
            path: 'profile',
            lazy: () => import('../features/account/components/profile-page').then((m) => ({ Component: m.ProfilePage })),
          },
          {
            path: 'billing',
            lazy: () => import('../features/billing/components/billing-page').then((m) => ({ Component: m.BillingPage })),
          },
          {
            path: 'networks',
            lazy: () => import('../features/networks/components/networks-page').then((m) => ({ Component: m.NetworksPage })),
          },
          {
            path: 'activate',
            lazy: () => import('../features/activate/components/activate-page').then((m) => ({ Component: m.ActivatePage })),
          },
          {
            path: 'checkout/simulated/:sessionId',
            lazy: () =>
              import('../features/billing/components/simulated-checkout-page').then((m) => ({ Component: m.SimulatedCheckoutPage })),
          },
        ],
      },
      // Unknown paths get a page of their own; the error element is left for render crashes.
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
