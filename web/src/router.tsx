import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { GuestOnly, LockGate, RouteGuard, type RouteHandle } from './auth/guards';
import { areas } from './areas';
import { loadAreaRoute } from './registry/loadAreaRoute';
import { withChunkLoadGuard } from './shell/chunkLoad';
import { RouteError } from './shell/errors/RouteError';
import { PageLoading } from './shell/PageLoading';
import { addRouteLabels } from './shell/pageTitle';
import { HOME_PATH } from './shell/paths';
import { LOCK_PATH } from './store/lock';

const PUBLIC: RouteHandle = { public: true };

// the business areas' pages at fixed paths (dictionary layouts, the workflow's business forms)
const areaRoutes = areas.flatMap((area) => area.routes ?? []);
addRouteLabels(areaRoutes);

/** A route whose page is its own chunk, loaded on first visit. */
function page(path: string, load: () => Promise<RouteObject['Component']>, handle?: RouteHandle): RouteObject {
  return { path, handle, lazy: async () => ({ Component: await load() }) };
}

/**
 * Every page is its own chunk: the login page does not carry the layout or the other pages. A chunk that
 * fails to load (or takes over 120 s) is a ChunkLoadError, shown by RouteError with a retry. The guards of
 * spec 2 wrap everything: the lock first, then the token (only `public` routes pass without one).
 */
export const router = createBrowserRouter(withChunkLoadGuard([
  {
    Component: LockGate,
    hydrateFallbackElement: <PageLoading />,
    errorElement: <RouteError />,
    children: [
      {
        element: <RouteGuard />,
        children: [
          page(LOCK_PATH, async () => (await import('./shell/lock/LockPage')).LockPage, PUBLIC),
          {
            element: <GuestOnly />,
            handle: PUBLIC,
            children: [page('/login', async () => (await import('./shell/login/LoginPage')).LoginPage)],
          },
          ...(['403', '404', '500'] as const).map((status) => ({
            path: `/${status}`,
            handle: PUBLIC,
            lazy: async () => {
              const { ErrorPage } = await import('./shell/errors/ErrorPage');
              return { Component: () => <ErrorPage status={status} /> };
            },
          })),
          page('/policy/:id', async () => (await import('./shell/pages/policy/PolicyPage')).PolicyPage, PUBLIC),
          { path: '/', element: <Navigate to={HOME_PATH} replace /> },
          {
            // the main layout when signed in; /test and /myiframe are public and show bare to visitors
            lazy: async () => ({ Component: (await import('./shell/pages/SessionFrame')).SessionFrame }),
            children: [
              page('/test', async () => (await import('./shell/pages/test/TestPage')).TestPage, PUBLIC),
              page('/myiframe/:routerPath', async () => (await import('./shell/pages/iframe/IframePage')).IframePage, PUBLIC),
              page(HOME_PATH, async () => (await import('./shell/home/HomePage')).HomePage),
              page('/wel/dashboard', async () => (await import('./shell/pages/dashboard/DashboardPage')).DashboardPage),
              page('/info/index', async () => (await import('./shell/pages/info/InfoPage')).InfoPage),
              ...areaRoutes.map((route) => page(route.path, () => loadAreaRoute(route))),
              // everything else is a page from the server's menu, or a 404
              page('*', async () => (await import('./shell/MenuPage')).MenuPage),
            ],
          },
        ],
      },
    ],
  },
]));
