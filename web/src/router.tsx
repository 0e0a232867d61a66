import { createBrowserRouter, Navigate } from 'react-router';
import { GuestOnly, RequireAuth } from './auth/guards';
import { RouteError } from './shell/errors/RouteError';
import { PageLoading } from './shell/PageLoading';
import { HOME_PATH } from './shell/paths';

/** Every page is its own chunk: the login page does not carry the layout or the table pages. */
export const router = createBrowserRouter([
  {
    hydrateFallbackElement: <PageLoading />,
    errorElement: <RouteError />,
    children: [
      {
        element: <GuestOnly />,
        children: [{ path: '/login', lazy: async () => ({ Component: (await import('./shell/login/LoginPage')).LoginPage }) }],
      },
      ...(['403', '404', '500'] as const).map((status) => ({
        path: `/${status}`,
        lazy: async () => {
          const { ErrorPage } = await import('./shell/errors/ErrorPage');
          return { Component: () => <ErrorPage status={status} /> };
        },
      })),
      {
        element: <RequireAuth />,
        children: [
          { path: '/', element: <Navigate to={HOME_PATH} replace /> },
          {
            lazy: async () => ({ Component: (await import('./shell/layout/MainLayout')).MainLayout }),
            children: [
              { path: HOME_PATH, lazy: async () => ({ Component: (await import('./shell/home/HomePage')).HomePage }) },
              // everything else is a page from the server's menu, or a 404
              { path: '*', lazy: async () => ({ Component: (await import('./shell/MenuPage')).MenuPage }) },
            ],
          },
        ],
      },
    ],
  },
]);
