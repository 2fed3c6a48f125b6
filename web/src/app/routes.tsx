import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { loadPatiently } from '@meshwork/contracts';
import { LandingPage } from '../features/landing/components/landing-page';
import { PageSpinner } from '../shared/ui/spinner';
import { NotFoundPage } from './not-found-page';
import { RequireAuth } from './require-auth';
import { RootLayout } from './root-layout';
import { RouterErrorScreen } from './router-error-screen';

/**
 * A route's page, loaded on first visit: the component the module `load` imports exports as
 * `name`. A load that fails is tried twice more before the error screen (whose Reload Page
 * starts afresh): the network may have changed under the page.
 */
function lazyRoute<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return async () => ({ Component: (await loadPatiently(load))[name] as ComponentType });
}

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
        lazy: lazyRoute(() => import('../features/marketing/components/features-page'), 'FeaturesPage'),
      },
      { path: 'pricing', lazy: lazyRoute(() => import('../features/pricing/components/pricing-page'), 'PricingPage') },
      {
        path: 'documentation',
        lazy: lazyRoute(() => import('../features/documentation/components/documentation-page'), 'DocumentationPage'),
      },
      {
        path: 'download',
        lazy: lazyRoute(() => import('../features/download/components/download-page'), 'DownloadPage'),
      },
      {
        path: 'contact',
        lazy: lazyRoute(() => import('../features/contact/components/contact-page'), 'ContactPage'),
      },
      { path: 'login', lazy: lazyRoute(() => import('../features/auth/components/login-page'), 'LoginPage') },
      { path: 'register', lazy: lazyRoute(() => import('../features/auth/components/register-page'), 'RegisterPage') },
      {
        path: 'forgot-password',
        lazy: lazyRoute(() => import('../features/auth/components/forgot-password-page'), 'ForgotPasswordPage'),
      },
      {
        path: 'reset-password',
        lazy: lazyRoute(() => import('../features/auth/components/reset-password-page'), 'ResetPasswordPage'),
      },
      { path: 'terms', lazy: lazyRoute(() => import('../features/marketing/components/terms-page'), 'TermsPage') },
      { path: 'privacy', lazy: lazyRoute(() => import('../features/marketing/components/privacy-page'), 'PrivacyPage') },
      {
        element: <RequireAuth />,
        children: [
          {
            path: 'dashboard',
            lazy: lazyRoute(() => import('../features/dashboard/components/dashboard-page'), 'DashboardPage'),
          },
          {
            path: 'profile',
            lazy: lazyRoute(() => import('../features/account/components/profile-page'), 'ProfilePage'),
          },
          {
            path: 'billing',
            lazy: lazyRoute(() => import('../features/billing/components/billing-page'), 'BillingPage'),
          },
          {
            path: 'networks',
            lazy: lazyRoute(() => import('../features/networks/components/networks-page'), 'NetworksPage'),
          },
          {
            path: 'settings/api',
            lazy: lazyRoute(() => import('../features/api-tokens/components/api-tokens-page'), 'ApiTokensPage'),
          },
          {
            path: 'settings/webhooks',
            lazy: lazyRoute(() => import('../features/webhooks/components/webhooks-page'), 'WebhooksPage'),
          },
          {
            path: 'settings/webhooks/:id',
            lazy: lazyRoute(() => import('../features/webhooks/components/endpoint-deliveries-page'), 'EndpointDeliveriesPage'),
          },
          {
            path: 'activate',
            lazy: lazyRoute(() => import('../features/activate/components/activate-page'), 'ActivatePage'),
          },
          {
            path: 'checkout/simulated/:sessionId',
            lazy: lazyRoute(() => import('../features/billing/components/simulated-checkout-page'), 'SimulatedCheckoutPage'),
          },
        ],
      },
      // Unknown paths get a page of their own; the error element is left for render crashes.
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
